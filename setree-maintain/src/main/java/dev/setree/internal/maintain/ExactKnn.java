package dev.setree.internal.maintain;

import dev.setree.internal.core.Vectors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * Exact k-nearest-neighbour search by cosine over unit vectors: a symmetric, cache-tiled all-pairs kernel
 * (docs/adr/0017-knn.md).
 *
 * <p>The members are cut into tiles of {@value #TILE} rows. A worker takes a row tile {@code I} and sweeps
 * the column tiles {@code J >= I}; both tiles stay in cache while their pairs are compared. Each pair is
 * computed once and offered to both of its rows (the dot product is symmetric bit for bit), so the kernel
 * does half the arithmetic of a row-by-row scan. One row is compared with two columns at a time (each row
 * component is loaded once for both), with exactly the summation order of {@link Vectors#dot}. Workers (one
 * per processor) pull row tiles from a shared counter, largest first, and keep private top-k lists for every
 * row; the lists are merged at the end. Scalar Java: no SIMD library runs on our JVMs (the ADR's figures).
 *
 * <p>Ties are broken by the smaller index, so the result is deterministic and equals a naive scan's.
 */
public final class ExactKnn {
  static final int TILE = 64;

  private ExactKnn() {}

  /**
   * All-pairs exact kNN of {@code n} unit vectors (row-major, {@code n * dim}), self excluded.
   *
   * @param k neighbours per member; capped at {@code n - 1}
   */
  public static KnnGraph allPairs(float[] vectors, int n, int dim, int k) {
    int kk = Math.max(0, Math.min(k, n - 1));
    if (kk == 0) {
      return new TopKRows(n, 0).toGraph();
    }
    int tiles = (n + TILE - 1) / TILE;
    int workers = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), tiles));
    TopKRows[] parts = new TopKRows[workers];
    AtomicInteger nextTile = new AtomicInteger();
    IntStream.range(0, workers).parallel().forEach(w -> {
      TopKRows top = new TopKRows(n, kk);
      float[] pair = new float[2];
      for (int t = nextTile.getAndIncrement(); t < tiles; t = nextTile.getAndIncrement()) {
        int r0 = t * TILE;
        int r1 = Math.min(n, r0 + TILE);
        for (int c0 = r0; c0 < n; c0 += TILE) {
          tilePair(vectors, dim, r0, r1, c0, Math.min(n, c0 + TILE), top, pair);
        }
      }
      parts[w] = top;
    });
    TopKRows merged = parts[0];
    for (int w = 1; w < workers; w++) {
      merged.mergeFrom(parts[w]);
    }
    return merged.toGraph();
  }

  /** Compares rows {@code [r0, r1)} with columns {@code [c0, c1)}, each unordered pair once. */
  private static void tilePair(float[] v, int dim, int r0, int r1, int c0, int c1, TopKRows top, float[] pair) {
    for (int r = r0; r < r1; r++) {
      int c = Math.max(c0, r + 1);
      for (; c + 1 < c1; c += 2) {
        dot2(v, r * dim, c * dim, (c + 1) * dim, dim, pair);
        top.offer(r, pair[0], c);
        top.offer(c, pair[0], r);
        top.offer(r, pair[1], c + 1);
        top.offer(c + 1, pair[1], r);
      }
      if (c < c1) {
        float s = Vectors.dot(v, r * dim, v, c * dim, dim);
        top.offer(r, s, c);
        top.offer(c, s, r);
      }
    }
  }

  /**
   * The dot products of row {@code r} with rows {@code a} and {@code b} of {@code v}, each summed exactly as
   * {@link Vectors#dot} sums (four interleaved partial sums), so the results are equal bit for bit.
   */
  static void dot2(float[] v, int r, int a, int b, int dim, float[] out) {
    dot2(v, r, v, a, b, dim, out);
  }

  /**
   * The dot products of {@code q} (from {@code r}) with rows {@code a} and {@code b} of {@code v}, each summed
   * exactly as {@link Vectors#dot} sums, so the results are equal bit for bit (a product's operands commute): eight
   * partial sums in flight instead of four.
   */
  static void dot2(float[] q, int r, float[] v, int a, int b, int dim, float[] out) {
    float a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    float b0 = 0, b1 = 0, b2 = 0, b3 = 0;
    int i = 0;
    for (; i + 3 < dim; i += 4) {
      float x0 = q[r + i];
      float x1 = q[r + i + 1];
      float x2 = q[r + i + 2];
      float x3 = q[r + i + 3];
      a0 += x0 * v[a + i];
      a1 += x1 * v[a + i + 1];
      a2 += x2 * v[a + i + 2];
      a3 += x3 * v[a + i + 3];
      b0 += x0 * v[b + i];
      b1 += x1 * v[b + i + 1];
      b2 += x2 * v[b + i + 2];
      b3 += x3 * v[b + i + 3];
    }
    for (; i < dim; i++) {
      a0 += q[r + i] * v[a + i];
      b0 += q[r + i] * v[b + i];
    }
    out[0] = (a0 + a1) + (a2 + a3);
    out[1] = (b0 + b1) + (b2 + b3);
  }

  /**
   * Each of {@code rows}' similarities to every one of the first {@code n} rows of {@code v} ({@code out[x][c]}
   * for {@code rows[x]} and row {@code c}), each equal bit for bit to {@link Vectors#dot} of the two rows. One pass
   * over the rows of {@code v} serves every one of {@code rows}, two at a time: a scan per row read a level of
   * 6,000 rows (9.6 MB) from memory each time, about 0.85 ms. For several rows: one row is scanned faster by
   * {@link Vectors#dot} in a loop of its own (measured in a maintenance run at 10,000 leaves).
   */
  static float[][] similarities(float[] v, int n, int dim, int[] rows) {
    float[][] out = new float[rows.length][n];
    float[] pair = new float[2];
    for (int c = 0; c < n; c++) {
      int at = c * dim;
      int x = 0;
      for (; x + 1 < rows.length; x += 2) {
        dot2(v, at, v, rows[x] * dim, rows[x + 1] * dim, dim, pair);
        out[x][c] = pair[0];
        out[x + 1][c] = pair[1];
      }
      if (x < rows.length) {
        out[x][c] = Vectors.dot(v, at, v, rows[x] * dim, dim);
      }
    }
    return out;
  }

  /**
   * The exact k nearest of one query among {@code n} vectors, nearest first.
   *
   * @param exclude an index to skip (-1 for none)
   * @return indexes, and their similarities in {@code outScores} (length >= result length)
   */
  public static int[] query(float[] vectors, int n, int dim, float[] q, int k, int exclude, float[] outScores) {
    int kk = Math.min(k, n - (exclude >= 0 && exclude < n ? 1 : 0));
    if (kk <= 0) {
      return new int[0];
    }
    TopK top = new TopK(kk);
    for (int c = 0; c < n; c++) {
      if (c != exclude) {
        float s = Vectors.dot(vectors, c * dim, q, 0, dim);
        if (top.accepts(s, c)) {
          top.insert(s, c);
        }
      }
    }
    int[] idx = new int[kk];
    float[] sc = new float[kk];
    top.writeSorted(idx, sc, 0);
    System.arraycopy(sc, 0, outScores, 0, kk);
    return idx;
  }

  /** A bounded top-k of (score, index), best = higher score, then smaller index. */
  static final class TopK {
    final float[] scores;
    final int[] idx;
    int size;
    int worst;

    TopK(int k) {
      scores = new float[k];
      idx = new int[k];
    }

    boolean accepts(float s, int c) {
      return size < scores.length || better(s, c, scores[worst], idx[worst]);
    }

    void insert(float s, int c) {
      if (size < scores.length) {
        scores[size] = s;
        idx[size] = c;
        size++;
      } else {
        scores[worst] = s;
        idx[worst] = c;
      }
      if (size == scores.length) {
        int w = 0;
        for (int i = 1; i < size; i++) {
          if (better(scores[w], idx[w], scores[i], idx[i])) {
            w = i;
          }
        }
        worst = w;
      }
    }

    void writeSorted(int[] outIdx, float[] outScores, int off) {
      System.arraycopy(idx, 0, outIdx, off, size);
      System.arraycopy(scores, 0, outScores, off, size);
      TopKRows.sortBestFirst(outIdx, outScores, off, size);
    }

    static boolean better(float s1, int i1, float s2, int i2) {
      return s1 > s2 || (s1 == s2 && i1 < i2);
    }

    /**
     * Whether the {@code k} entries of a kNN row from {@code from} are best first ({@link #better}), the neighbours
     * read through {@code map} when it is not null. {@code better} written out: a level's rows are checked one
     * after the other in a process's first run, before this is compiled, where a call per entry cost about 10 ms
     * at 50,000 leaves.
     */
    static boolean sortedRow(int[] neighbors, float[] weights, int from, int k, int[] map) {
      for (int e = from + 1; e < from + k; e++) {
        float before = weights[e - 1];
        float after = weights[e];
        if (!(before > after
            || before == after && (map == null ? neighbors[e - 1] < neighbors[e]
                : map[neighbors[e - 1]] < map[neighbors[e]]))) {
          return false;
        }
      }
      return true;
    }
  }
}

package dev.setree.maintain;

import dev.setree.core.Vectors;
import java.util.stream.IntStream;

/**
 * Exact k-nearest-neighbour search by cosine over unit vectors, with a cache-tiled all-pairs kernel.
 *
 * <p>Rows are processed in blocks of {@value #ROW_BLOCK}; for each row block the columns are swept in tiles
 * of {@value #COL_BLOCK} vectors, so a column tile stays in cache while every row of the block is compared
 * with it. Each row keeps its current top k in two small parallel arrays. Row blocks run in parallel on
 * the common fork-join pool. Memory-bound at scale: one query against 50,000 384-dim vectors costs about
 * 6 ms on one core here, all pairs about 100 s on two (FINDINGS and issue #3's measurements).
 *
 * <p>Ties are broken by the smaller index, so the result is deterministic.
 */
public final class ExactKnn {
  static final int ROW_BLOCK = 32;
  static final int COL_BLOCK = 256;

  private ExactKnn() {}

  /**
   * All-pairs exact kNN of {@code n} unit vectors (row-major, {@code n * dim}), self excluded.
   *
   * @param k neighbours per member; capped at {@code n - 1}
   */
  public static KnnGraph allPairs(float[] vectors, int n, int dim, int k) {
    int kk = Math.max(0, Math.min(k, n - 1));
    int[] offsets = new int[n + 1];
    for (int i = 0; i <= n; i++) {
      offsets[i] = i * kk;
    }
    int[] neighbors = new int[n * kk];
    float[] weights = new float[n * kk];
    if (kk == 0) {
      return new KnnGraph(offsets, neighbors, weights);
    }
    int blocks = (n + ROW_BLOCK - 1) / ROW_BLOCK;
    IntStream.range(0, blocks).parallel().forEach(b -> {
      int r0 = b * ROW_BLOCK;
      int r1 = Math.min(n, r0 + ROW_BLOCK);
      TopK[] tops = new TopK[r1 - r0];
      for (int r = r0; r < r1; r++) {
        tops[r - r0] = new TopK(kk);
      }
      for (int c0 = 0; c0 < n; c0 += COL_BLOCK) {
        int c1 = Math.min(n, c0 + COL_BLOCK);
        for (int r = r0; r < r1; r++) {
          TopK top = tops[r - r0];
          int rOff = r * dim;
          for (int c = c0; c < c1; c++) {
            if (c != r) {
              float s = Vectors.dot(vectors, rOff, vectors, c * dim, dim);
              if (top.accepts(s, c)) {
                top.insert(s, c);
              }
            }
          }
        }
      }
      for (int r = r0; r < r1; r++) {
        tops[r - r0].writeSorted(neighbors, weights, r * kk);
      }
    });
    return new KnnGraph(offsets, neighbors, weights);
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
      Integer[] order = new Integer[size];
      for (int i = 0; i < size; i++) {
        order[i] = i;
      }
      java.util.Arrays.sort(order, (a, b) -> better(scores[a], idx[a], scores[b], idx[b]) ? -1
          : better(scores[b], idx[b], scores[a], idx[a]) ? 1 : 0);
      for (int i = 0; i < size; i++) {
        outIdx[off + i] = idx[order[i]];
        outScores[off + i] = scores[order[i]];
      }
    }

    static boolean better(float s1, int i1, float s2, int i2) {
      return s1 > s2 || (s1 == s2 && i1 < i2);
    }
  }
}

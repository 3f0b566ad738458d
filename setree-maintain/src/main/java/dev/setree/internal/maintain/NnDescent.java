package dev.setree.internal.maintain;

import dev.setree.internal.core.Vectors;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * An approximate k-nearest-neighbour graph by NN-descent (Dong, Moses and Li, "Efficient k-nearest neighbor
 * graph construction for generic similarity measures", WWW 2011), for levels too large for the exact
 * all-pairs kernel ({@link ExactKnn}; docs/adr/0017-knn.md).
 *
 * <p>"A neighbour of a neighbour is likely a neighbour." Every member starts with {@code k} random
 * neighbours. Each iteration then:
 * <ol>
 *   <li><b>samples</b> for every member up to {@code rho * k} of its neighbours that are new since the last
 *       iteration (they become old) and all its old ones, plus the same samples of the reverse lists (who
 *       lists the member);
 *   <li><b>local join</b>: for every member, each pair of its new candidates and each new-old pair are
 *       compared, and each of the two is offered to the other's list;
 *   <li><b>stops</b> when fewer than {@code delta * n * k} list entries changed, or after
 *       {@value #MAX_ITERATIONS} iterations.
 * </ol>
 *
 * <p>The lists are kept {@value #LIST_FACTOR_PCT}% as long as asked during the descent and cut to
 * {@code k} at the end, which raises recall for little extra work.
 *
 * <p>Deterministic for a seed, whatever the number of threads: the random choices are made from one
 * seeded generator in member order; the local joins' similarities are computed in parallel over a block
 * of members against the lists as they stood before the block, and the offers are then applied in member
 * order (in parallel over disjoint sets of rows, each row seeing its offers in that order). Similarities
 * are {@link Vectors#dot}'s, so every listed weight is the exact cosine; only the neighbour sets are
 * approximate (recall of the exact 10-NN measured in docs/adr/0017-knn.md).
 */
public final class NnDescent {
  static final int MAX_ITERATIONS = 15;
  /**
   * The lists are built {@value}% as long as asked and cut at the end: recall of the exact 10-NN on 2,000
   * random 16-dimensional vectors 0.93 at 100%, 0.99 at 150%, 0.998 at 200%; on 20,000 SOTU sentences
   * embedded by MiniLM 0.945 at 150%, 0.977 at 200%, 0.989 at 250% (ADR 0017).
   */
  static final int LIST_FACTOR_PCT = 200;
  static final double RHO = 1.0;
  static final double DELTA = 0.001;
  /** Members whose local joins are computed together before their offers are applied. */
  static final int BLOCK = 4096;

  private final float[] v;
  private final int n;
  private final int dim;
  private final int k;
  private final TopKRows top;
  /** Per list slot: inserted since the member was last sampled. */
  private final boolean[] fresh;
  private final SplittableRandom random;

  private NnDescent(float[] vectors, int n, int dim, int k, long seed) {
    this.v = vectors;
    this.n = n;
    this.dim = dim;
    this.k = k;
    this.top = new TopKRows(n, k);
    this.fresh = new boolean[n * k];
    this.random = new SplittableRandom(seed);
  }

  /**
   * The approximate kNN graph of {@code n} unit vectors (row-major), self excluded; exact when
   * {@code n <= k + 1}.
   *
   * @param seed seeds the random start and the samples
   */
  public static KnnGraph build(float[] vectors, int n, int dim, int k, long seed) {
    if (n <= k + 1) {
      return ExactKnn.allPairs(vectors, n, dim, k);
    }
    int kb = Math.min(n - 1, k * LIST_FACTOR_PCT / 100);
    NnDescent d = new NnDescent(vectors, n, dim, kb, seed);
    d.randomStart();
    for (int it = 0; it < MAX_ITERATIONS; it++) {
      if (d.iterate() < DELTA * n * kb) {
        break;
      }
    }
    return kb == k ? d.top.toGraph() : d.top.toGraph().truncate(k);
  }

  private void randomStart() {
    int[] pick = new int[n * k];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < k; j++) {
        int c;
        do {
          c = random.nextInt(n);
        } while (c == i || contains(pick, i * k, j, c));
        pick[i * k + j] = c;
      }
    }
    float[] s = new float[n * k];
    IntStream.range(0, n).parallel().forEach(i -> {
      for (int j = 0; j < k; j++) {
        s[i * k + j] = Vectors.dot(v, i * dim, v, pick[i * k + j] * dim, dim);
      }
    });
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < k; j++) {
        top.offer(i, s[i * k + j], pick[i * k + j]);
      }
    }
    java.util.Arrays.fill(fresh, true);
  }

  private static boolean contains(int[] a, int from, int len, int c) {
    for (int i = from; i < from + len; i++) {
      if (a[i] == c) {
        return true;
      }
    }
    return false;
  }

  /** One sample-and-join round; returns the number of list entries that changed. */
  private int iterate() {
    int cap = Math.max(1, (int) Math.round(RHO * k));
    Lists fwdNew = new Lists(n, cap);
    Lists fwdOld = new Lists(n, k);
    int[] slots = new int[k];
    for (int i = 0; i < n; i++) {
      int base = i * k;
      int m = 0;
      for (int e = 0; e < k; e++) {
        if (fresh[base + e]) {
          slots[m++] = base + e;
        } else {
          fwdOld.add(i, top.idx[base + e]);
        }
      }
      for (int t = 0; t < Math.min(m, cap); t++) { // a partial shuffle picks the sample
        int j = t + random.nextInt(m - t);
        int slot = slots[j];
        slots[j] = slots[t];
        slots[t] = slot;
        fwdNew.add(i, top.idx[slot]);
        fresh[slot] = false;
      }
    }
    Lists revNew = new Lists(n, cap);
    Lists revOld = new Lists(n, cap);
    int[] seenNew = new int[n];
    int[] seenOld = new int[n];
    for (int i = 0; i < n; i++) {
      for (int e = 0; e < fwdNew.size[i]; e++) {
        int c = fwdNew.at(i, e);
        revNew.reservoir(c, i, seenNew[c]++, random);
      }
      for (int e = 0; e < fwdOld.size[i]; e++) {
        int c = fwdOld.at(i, e);
        revOld.reservoir(c, i, seenOld[c]++, random);
      }
    }
    int changed = 0;
    for (int b0 = 0; b0 < n; b0 += BLOCK) {
      changed += joinBlock(b0, Math.min(n, b0 + BLOCK), fwdNew, fwdOld, revNew, revOld);
    }
    return changed;
  }

  private int joinBlock(int b0, int b1, Lists fwdNew, Lists fwdOld, Lists revNew, Lists revOld) {
    int parts = Math.max(1, Math.min(4 * Runtime.getRuntime().availableProcessors(), (b1 - b0 + 63) / 64));
    Candidates[] found = new Candidates[parts];
    IntStream.range(0, parts).parallel().forEach(p -> {
      Candidates out = new Candidates();
      int from = b0 + (int) ((long) (b1 - b0) * p / parts);
      int to = b0 + (int) ((long) (b1 - b0) * (p + 1) / parts);
      int[] fresh = new int[fwdNew.cap + revNew.cap];
      int[] old = new int[fwdOld.cap + revOld.cap];
      for (int i = from; i < to; i++) {
        int nf = union(fwdNew, revNew, i, fresh);
        int no = union(fwdOld, revOld, i, old);
        for (int x = 0; x < nf; x++) {
          int a = fresh[x];
          for (int y = x + 1; y < nf; y++) {
            consider(a, fresh[y], out);
          }
          for (int y = 0; y < no; y++) {
            if (old[y] != a) {
              consider(a, old[y], out);
            }
          }
        }
      }
      found[p] = out;
    });
    // The offers, in candidate order. A row's list depends only on the offers made to it, in their order, so
    // workers that each own the rows r with r % workers == w and scan all candidates in order give exactly
    // the lists one thread would.
    int workers = Runtime.getRuntime().availableProcessors();
    return IntStream.range(0, workers).parallel().map(w -> {
      int changed = 0;
      for (Candidates c : found) {
        for (int e = 0; e < c.size; e++) {
          if (c.a[e] % workers == w) {
            changed += apply(c.a[e], c.b[e], c.s[e]);
          }
          if (c.b[e] % workers == w) {
            changed += apply(c.b[e], c.a[e], c.s[e]);
          }
        }
      }
      return changed;
    }).sum();
  }

  private void consider(int a, int b, Candidates out) {
    float s = Vectors.dot(v, a * dim, v, b * dim, dim);
    if (beatsWorst(a, s, b) || beatsWorst(b, s, a)) {
      out.add(a, b, s);
    }
  }

  private boolean beatsWorst(int r, float s, int c) {
    int w = r * k + top.worst[r];
    return ExactKnn.TopK.better(s, c, top.scores[w], top.idx[w]);
  }

  private int apply(int r, int c, float s) {
    if (!beatsWorst(r, s, c) || top.contains(r, c)) {
      return 0;
    }
    int slot = r * k + top.worst[r];
    top.offer(r, s, c);
    fresh[slot] = true; // offer replaces the worst entry in place
    return 1;
  }

  /** The distinct members of two lists of row {@code i}, into {@code out}; returns their number. */
  private static int union(Lists x, Lists y, int i, int[] out) {
    int m = 0;
    for (int e = 0; e < x.size[i]; e++) {
      out[m++] = x.at(i, e);
    }
    for (int e = 0; e < y.size[i]; e++) {
      int c = y.at(i, e);
      if (!contains(out, 0, m, c)) {
        out[m++] = c;
      }
    }
    return m;
  }

  /** Bounded lists of member indexes per row, in flat arrays. */
  private static final class Lists {
    final int cap;
    final int[] items;
    final int[] size;

    Lists(int n, int cap) {
      this.cap = cap;
      this.items = new int[n * cap];
      this.size = new int[n];
    }

    int at(int row, int e) {
      return items[row * cap + e];
    }

    void add(int row, int c) {
      items[row * cap + size[row]++] = c;
    }

    /** Reservoir sampling: {@code c} is the {@code seen}-th offer to the row; returns whether it is kept. */
    boolean reservoir(int row, int c, int seen, SplittableRandom random) {
      if (size[row] < cap) {
        add(row, c);
        return true;
      }
      int j = random.nextInt(seen + 1);
      if (j < cap) {
        items[row * cap + j] = c;
        return true;
      }
      return false;
    }
  }

  /** Growable (a, b, similarity) triples found by one part of a block's joins. */
  private static final class Candidates {
    int[] a = new int[256];
    int[] b = new int[256];
    float[] s = new float[256];
    int size;

    void add(int x, int y, float sim) {
      if (size == a.length) {
        a = java.util.Arrays.copyOf(a, size * 2);
        b = java.util.Arrays.copyOf(b, size * 2);
        s = java.util.Arrays.copyOf(s, size * 2);
      }
      a[size] = x;
      b[size] = y;
      s[size++] = sim;
    }
  }
}

package dev.setree.internal.maintain;

import dev.setree.spi.Passage;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Orders a cluster's leaves by maximal marginal relevance, so that an extractive summary takes central leaves
 * that do not repeat each other: each pick maximises its similarity to the cluster's centroid minus
 * {@code redundancy} times its highest similarity to a leaf already picked (J. Carbonell and J. Goldstein,
 * "The use of MMR, diversity-based reranking for reordering documents and producing summaries", SIGIR 1998).
 *
 * <p>Only the {@value #MAX_CANDIDATES} leaves closest to the centroid compete. Lazy: each pick costs a pass
 * over the candidates, and callers stop at the first leaf that does not fit, usually after a few picks; the
 * picks are the same as computing all of them first. Ties go to the lower index, so the order is
 * deterministic.
 */
final class MaximalMarginalRelevance {
  /** How many leaves closest to the centroid compete. */
  static final int MAX_CANDIDATES = 4096;

  private MaximalMarginalRelevance() {}

  /** Leaf indexes in MMR order (closest to the centroid first), at most {@code limit}. */
  static Iterable<Integer> order(List<Passage> leaves, float[] centroid, int limit, float redundancy) {
    return () -> new Picks(leaves, centroid, limit, redundancy);
  }

  /**
   * Puts the {@code k} smallest of {@code keys}, which are distinct, at its start in no particular order: Hoare's
   * selection (C. A. R. Hoare, "Algorithm 65: Find", CACM 4(7), 1961) with median-of-three pivots, linear on
   * average.
   */
  static void selectSmallest(long[] keys, int k) {
    if (k < 1 || k >= keys.length) {
      return;
    }
    int lo = 0;
    int hi = keys.length - 1;
    while (lo < hi) {
      long a = keys[lo];
      long b = keys[(lo + hi) >>> 1];
      long c = keys[hi];
      long pivot = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (keys[i] < pivot) {
          i++;
        }
        while (keys[j] > pivot) {
          j--;
        }
        if (i <= j) {
          long t = keys[i];
          keys[i] = keys[j];
          keys[j] = t;
          i++;
          j--;
        }
      }
      if (k - 1 <= j) {
        hi = j;
      } else if (k - 1 >= i) {
        lo = i;
      } else {
        return; // keys[k - 1] is the pivot: smaller ones before it, larger after
      }
    }
  }

  /** The picks of {@link #order}, each computed when it is asked for. */
  private static final class Picks implements Iterator<Integer> {
    private final List<Passage> leaves;
    private final float[] rel;
    private final int[] cand;
    private final float[] maxSim;
    private final boolean[] taken;
    private final int picks;
    private final float redundancy;
    private int picked;
    private int last = -1;

    Picks(List<Passage> leaves, float[] centroid, int limit, float redundancy) {
      this.leaves = leaves;
      this.redundancy = redundancy;
      int n = leaves.size();
      rel = LeafPassages.dots(leaves, centroid); // a draft's leaves without a passage each
      // Relevance descending, then index ascending, as primitive keys (no boxed sort: a node high in a large
      // tree has tens of thousands of leaves). -0 counts as 0 and every NaN as one value above all numbers,
      // as Float.compare after an == test ordered them.
      long[] keyed = new long[n];
      for (int i = 0; i < n; i++) {
        int bits = Float.floatToIntBits(rel[i] + 0f);
        int ordered = bits >= 0 ? bits : bits ^ 0x7fffffff;
        keyed[i] = ((long) ~ordered << 32) | i;
      }
      cand = new int[Math.min(n, MAX_CANDIDATES)];
      if (n > 2 * MAX_CANDIDATES) {
        selectSmallest(keyed, cand.length); // the candidates first, then sorted: not all of a large node's leaves
        Arrays.sort(keyed, 0, cand.length);
      } else {
        Arrays.sort(keyed);
      }
      for (int c = 0; c < cand.length; c++) {
        cand[c] = (int) keyed[c];
      }
      maxSim = new float[n];
      Arrays.fill(maxSim, -1f);
      taken = new boolean[n];
      picks = Math.min(limit, cand.length);
    }

    @Override
    public boolean hasNext() {
      return picked < picks;
    }

    @Override
    public Integer next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      if (last >= 0) { // redundancy against the previous pick, deferred until a next pick is wanted
        float[] lastEmbedding = leaves.get(last).embedding();
        for (int i : cand) {
          maxSim[i] = Math.max(maxSim[i], LeafPassages.dot(leaves, i, lastEmbedding));
        }
      }
      int best = -1;
      float bestScore = Float.NEGATIVE_INFINITY;
      for (int i : cand) {
        if (taken[i]) {
          continue;
        }
        float score = rel[i] - (picked == 0 ? 0f : redundancy * maxSim[i]);
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
      }
      taken[best] = true;
      picked++;
      last = best;
      return best;
    }
  }
}

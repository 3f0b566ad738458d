package dev.setree.internal.maintain;

import dev.setree.internal.core.Ranking;
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
 * <p>Only the {@value #MAX_CANDIDATES} leaves closest to the centroid compete. Lazy: each pick is computed when
 * asked for, and callers stop at the first leaf that does not fit, usually after a few picks; the second pick
 * scores every candidate, later ones only those whose earlier score could still beat the best (see
 * {@link Picks}). The picks are the same as computing all of them first. Ties go to the higher relevance, then
 * the lower index, so the order is deterministic.
 */
final class MaximalMarginalRelevance {
  /** How many leaves closest to the centroid compete. */
  static final int MAX_CANDIDATES = 4096;

  private MaximalMarginalRelevance() {}

  /** Leaf indexes in MMR order (closest to the centroid first), at most {@code limit}. */
  static Iterable<Integer> order(List<Passage> leaves, float[] centroid, int limit, float redundancy) {
    return () -> new Picks(leaves, centroid, limit, redundancy);
  }

  /** A key that sorts {@code value} descending, then {@code index} ascending, -0 as 0 ({@link Ranking#key}). */
  static long descending(float value, int index) {
    return Ranking.key(value + 0f, index);
  }

  /**
   * Every leaf's key by relevance ({@link #descending}), the {@code kept} best first and in order, the others after
   * them in no order. Primitive keys, no boxed sort: a node high in a large tree has tens of thousands of leaves; and
   * a selection, then a sort of those it keeps, not a sort of every key. -0 counts as 0 and every NaN as one value
   * above all numbers, as Float.compare after an == test ordered them.
   */
  static long[] closest(float[] rel, int kept) {
    long[] keyed = new long[rel.length];
    for (int i = 0; i < rel.length; i++) {
      keyed[i] = descending(rel[i], i);
    }
    selectSmallest(keyed, kept);
    Arrays.sort(keyed, 0, Math.min(kept, keyed.length));
    return keyed;
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

  /**
   * The picks of {@link #order}, each computed when it is asked for. A pick's score is its relevance minus
   * {@code redundancy} times its highest similarity to an earlier pick; from the second pick on, that similarity can
   * only grow, so with a redundancy of at least 0 a score computed against fewer picks bounds the exact one from
   * above. The second pick scores every candidate against the first (as every pick once did); later picks visit the
   * candidates in the order of those scores and bring each up to date only until the scores left cannot beat the
   * best one found (the lazy greedy of M. Minoux, "Accelerated greedy algorithms for maximizing submodular set
   * functions", 1978). The scores are the same floats, computed from the same products in the same order, so the
   * picks are those of scoring every candidate at every pick, ties included (to the candidate of higher relevance,
   * then of lower index).
   */
  private static final class Picks implements Iterator<Integer> {
    private final List<Passage> leaves;
    /** The candidates' leaf indexes by rank: relevance descending, then index ascending. */
    private final int[] cand;
    /** By rank: the candidate's relevance (its similarity to the centroid). */
    private final float[] rel;
    /** By rank: the highest similarity to the first {@link #seen} picks, and whether it was picked. */
    private final float[] maxSim;
    private final int[] seen;
    private final boolean[] taken;
    /** The picks' embeddings, in pick order. */
    private final float[][] pickedEmbeddings;
    /** By rank: the score at the second pick, an upper bound of every later one (set by the second pick). */
    private float[] secondScores;
    /** The ranks by {@link #secondScores}, descending (then rank ascending): made by the third pick, if asked for. */
    private long[] byBound;
    private final int picks;
    private final float redundancy;
    /** Whether a score can only fall as picks are added (a redundancy of at least 0): the later picks' bound. */
    private final boolean falling;
    private int picked;

    Picks(List<Passage> leaves, float[] centroid, int limit, float redundancy) {
      this.leaves = leaves;
      this.redundancy = redundancy;
      this.falling = redundancy >= 0;
      RelevanceMemo.Ranked ranked = candidates(leaves, centroid);
      cand = ranked.cand();
      rel = ranked.rel();
      maxSim = new float[cand.length];
      Arrays.fill(maxSim, -1f);
      seen = new int[cand.length];
      taken = new boolean[cand.length];
      picks = Math.min(limit, cand.length);
      pickedEmbeddings = new float[picks][];
    }

    /**
     * The candidates and their relevance: from the node's {@link RelevanceMemo} when the leaves are a large node's,
     * else from a scan of every leaf.
     */
    private static RelevanceMemo.Ranked candidates(List<Passage> leaves, float[] centroid) {
      int n = leaves.size();
      int max = leaves instanceof LeafPassages draft ? draft.candidates() : MAX_CANDIDATES;
      if (leaves instanceof LeafPassages draft && draft.node() != null) {
        return RelevanceMemo.rank(draft, centroid, max);
      }
      float[] all = LeafPassages.dots(leaves, centroid); // a draft's leaves without a passage each
      int count = Math.min(n, max);
      return RelevanceMemo.Ranked.first(closest(all, count), count, all);
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
      int best = picked == 0 ? first() : picked == 1 ? second() : later();
      taken[best] = true;
      int leaf = cand[best];
      pickedEmbeddings[picked++] = leaves.get(leaf).embedding();
      return leaf;
    }

    /** The first pick: the highest relevance, no redundancy yet. */
    private int first() {
      int best = -1;
      float bestScore = Float.NEGATIVE_INFINITY;
      for (int r = 0; r < cand.length; r++) {
        if (rel[r] > bestScore) {
          bestScore = rel[r];
          best = r;
        }
      }
      return best;
    }

    /** The second pick: every candidate scored against the first; the scores are kept as the later picks' bounds. */
    private int second() {
      secondScores = new float[cand.length];
      int best = -1;
      float bestScore = Float.NEGATIVE_INFINITY;
      for (int r = 0; r < cand.length; r++) {
        float score = upToDate(r);
        secondScores[r] = score;
        if (!taken[r] && score > bestScore) {
          bestScore = score;
          best = r;
        }
      }
      return best;
    }

    /**
     * A later pick: candidates in the order of their scores at the second pick, each brought up to date, until a
     * bound says that no candidate left can beat (or tie with a lower rank) the best exact score found.
     */
    private int later() {
      if (byBound == null) { // most callers stop at the second pick: the order is made only when a third is asked for
        byBound = new long[cand.length];
        for (int r = 0; r < cand.length; r++) {
          byBound[r] = descending(secondScores[r], r);
        }
        Arrays.sort(byBound);
      }
      int best = -1;
      float bestScore = Float.NEGATIVE_INFINITY;
      for (long key : byBound) {
        int r = Ranking.index(key);
        if (taken[r]) {
          continue;
        }
        float bound = Ranking.score(key);
        if (Float.isNaN(bound)) {
          continue; // a NaN similarity stays NaN: never picked, as no comparison with it holds
        }
        if (falling && best >= 0 && (bound < bestScore || bound == bestScore && r > best)) {
          break; // every candidate left scores at most its bound, which is no better
        }
        float score = upToDate(r);
        if (score > bestScore || best >= 0 && score == bestScore && r < best) {
          bestScore = score;
          best = r;
        }
      }
      return best;
    }

    /** Candidate {@code r}'s score now: its highest similarity to every pick so far folded in, in pick order. */
    private float upToDate(int r) {
      int leaf = cand[r];
      for (int p = seen[r]; p < picked; p++) {
        maxSim[r] = Math.max(maxSim[r], LeafPassages.dot(leaves, leaf, pickedEmbeddings[p]));
      }
      seen[r] = picked;
      return rel[r] - redundancy * maxSim[r];
    }
  }
}

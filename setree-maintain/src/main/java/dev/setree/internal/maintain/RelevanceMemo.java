package dev.setree.internal.maintain;

import dev.setree.internal.core.Ranking;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * What a large node's relevance scan found (the products of its offered leaves with its centroid, of which the
 * closest leaves compete in {@link MaximalMarginalRelevance}), kept by the node so that its next scan computes only
 * the products that may have changed: those of the leaves it found best, and of the leaves offered since. Any other
 * leaf's product with the new centroid is at most its product with the old one plus its norm (at most
 * {@link DraftTree#leafNormBound}) times how far the centroid moved (Cauchy-Schwarz), plus the rounding of the two
 * float products. When the last candidate's product is above that bound, the candidates are those of a scan of every
 * leaf, bit for bit: the same products, ranked by the same keys (product, then place in the list). Otherwise the node
 * is scanned whole, as before.
 *
 * <p>At a million leaves a summary of the root read every leaf's row, and the runs that rewrote summaries near the
 * root took 0.5-1.1 s; 58 of 67 summaries of nodes of 20,000 leaves or more in 30 runs were of nodes summarised
 * before, whose offered leaves and centroid had hardly changed (ADR 0034, amendment of 2026-12-07, fifth).
 *
 * <p>The leaves offered since are found by comparing the two lists by reference, in order: a run inserts or drops
 * a few leaves, or moves a child's block of them; where the lists part, they are joined again at a leaf of the old
 * list found near by, or at one of every {@value #ANCHOR_EVERY} indexed by identity, and every leaf of the new list
 * not joined so is scanned.
 *
 * <p>A memo is read and replaced by its node's summary thread only; a new root shares its old root's, which reads it
 * in an earlier wave ({@link #handOver}). A writer's large nodes get their first memos before its first run
 * ({@link #scanAhead}).
 */
final class RelevanceMemo {
  /** A node of at least this many leaves keeps a memo ({@link DraftTree#relevanceFrom}). */
  static final int FROM = 16_384;
  /** How many of the best leaves a memo keeps per candidate: more, so that a moved centroid keeps them apart. */
  static final int KEPT_PER_CANDIDATE = 2;
  /** Every how many leaves of a memo's list one is indexed by identity, to join the lists again. */
  private static final int ANCHOR_EVERY = 64;
  /** How far apart, in either list, two leaves are looked for before the index is. */
  private static final int NEAR = 8;

  /** The candidates a scan found: places in the list, best first, and their products with the centroid. */
  record Ranked(int[] cand, float[] rel) {
    /** The first {@code count} of {@code keyed} ({@link MaximalMarginalRelevance#closest}), with their {@code rel}. */
    static Ranked first(long[] keyed, int count, float[] rel) {
      int[] cand = new int[count];
      float[] relByRank = new float[count];
      for (int c = 0; c < count; c++) {
        cand[c] = Ranking.index(keyed[c]);
        relByRank[c] = rel[cand[c]];
      }
      return new Ranked(cand, relByRank);
    }
  }

  /** The offered leaves this memo is of, in their order; never changed. */
  private final DraftNode[] offered;
  private final float[] centroid;
  /** The best leaves by key (product descending, then place): their places in {@link #offered}, and products. */
  private final int[] top;
  private final float[] topProducts;
  /** At least every other offered leaf's float product with {@link #centroid}. */
  private final double outside;
  /** How many scans in a row this memo spared a scan of every leaf (for tests). */
  final int spared;
  /** How many scans memos spared in this process (for tests). */
  static final AtomicLong SPARED = new AtomicLong();
  /** Every {@value #ANCHOR_EVERY}th offered leaf's place, made when a scan first needs it. */
  private Map<DraftNode, Integer> anchors;

  private RelevanceMemo(DraftNode[] offered, float[] centroid, int[] top, float[] topProducts, double outside,
      int spared) {
    this.offered = offered;
    this.centroid = centroid;
    this.top = top;
    this.topProducts = topProducts;
    this.outside = outside;
    this.spared = spared;
  }

  /**
   * The {@code k} candidates of {@code leaves} (those of their node, which keeps the memo) for {@code q}: from the
   * node's memo when it holds, else from a scan of every leaf. Either way the node keeps a memo of this scan, when
   * every product is a number and some leaves are not kept.
   */
  static Ranked rank(LeafPassages leaves, float[] q, int k) {
    DraftNode node = leaves.node();
    RelevanceMemo memo = node.relevance;
    node.relevance = null; // until this scan keeps one
    Ranked r = memo == null ? null : memo.again(leaves, q, k);
    return r != null ? r : whole(leaves, q, k);
  }

  /**
   * Gives {@code root}, a draft's root, the memo of {@code old}, the root of the draft's last summary pass, when the
   * run made a new root and {@code root} has no memo of its own. A root's leaves are every leaf of the draft and its
   * centroid is their mean, however the levels below it are made, so the old root's memo usually holds for the new
   * one: it offers the leaves in another order, which {@link #again} joins (or the scan of every leaf is made, as
   * before). The old root keeps the memo too when it is still in the draft: then it is under the new root, and its
   * summary, if any, reads the memo in an earlier wave of the pass, which the new root's waits for; a memo's reads
   * change nothing that a later read sees otherwise. At 50,000 leaves a run made a new level on top (run 20 of the
   * insert bench), and the new root's summary, with a scan of its 47,000 offered leaves, took 21-22 ms.
   */
  static void handOver(DraftNode old, DraftNode root) {
    if (old != root && root.relevance == null) {
      root.relevance = old.relevance;
    }
  }

  /**
   * Has every internal node of {@code draft} with at least {@link DraftTree#relevanceFrom} leaves keep the memo of a
   * scan of its offered leaves with its centroid now, children before parents, unless it keeps one: the scan the
   * first summary of the node would make, made ahead of a writer's first run ({@link Maintainer#scanAhead}). Gathers
   * the nodes' leaves the way a summary pass does ({@link LeavesUnder}), so the large nodes keep their parts too.
   * Never changes a summary: a memo gives the candidates of a scan of every leaf, or is not read. Given up between
   * two nodes once {@code cancelled} says so.
   *
   * @return how many nodes were scanned
   */
  static int scanAhead(DraftTree draft, BooleanSupplier cancelled) {
    DraftNode root = draft.root();
    if (root == null || draft.leaves.size() < draft.relevanceFrom) {
      return 0;
    }
    List<DraftNode> large = new ArrayList<>();
    largeNodes(root, draft.relevanceFrom, large);
    float normBound = draft.leafNormBound();
    int scanned = 0;
    for (DraftNode v : large) {
      if (cancelled.getAsBoolean()) {
        break;
      }
      if (v.relevance != null) {
        continue;
      }
      LeavesUnder under = LeavesUnder.of(v, draft.partsKeptFrom);
      LeafPassages offered = under.offered(v, normBound, draft.relevanceCandidates);
      rank(offered, v.centroid(), offered.candidates());
      scanned++;
    }
    return scanned;
  }

  /** Adds the internal nodes under {@code v}, {@code v} too, with at least {@code from} leaves, children first. */
  private static int largeNodes(DraftNode v, int from, List<DraftNode> out) {
    if (v.leaf) {
      return 1;
    }
    int leaves = 0;
    for (DraftNode c : v.children) {
      leaves += largeNodes(c, from, out);
    }
    if (leaves >= from) {
      out.add(v);
    }
    return leaves;
  }

  /** A scan of every leaf: its candidates, and its memo for the node when every product is a number. */
  private static Ranked whole(LeafPassages leaves, float[] q, int k) {
    int n = leaves.size();
    float[] rel = leaves.dots(q);
    int kept = Math.min(n, KEPT_PER_CANDIDATE * k);
    long[] keyed = MaximalMarginalRelevance.closest(rel, kept);
    double outside = Double.NEGATIVE_INFINITY;
    boolean numbers = true;
    for (int x = kept; x < n; x++) {
      float p = rel[Ranking.index(keyed[x])];
      outside = Math.max(outside, p);
      numbers &= Float.isFinite(p);
    }
    int[] top = new int[kept];
    float[] topProducts = new float[kept];
    for (int t = 0; t < kept; t++) {
      top[t] = Ranking.index(keyed[t]);
      topProducts[t] = rel[top[t]];
      numbers &= Float.isFinite(topProducts[t]);
    }
    if (numbers && finite(q) && kept < n) {
      leaves.node().relevance = new RelevanceMemo(leaves.array(), q.clone(), top, topProducts, outside, 0);
    }
    return Ranked.first(keyed, Math.min(n, k), rel);
  }

  /**
   * The candidates from this memo, or null when it cannot tell them: another dimension, too many leaves offered
   * since, or a bound that does not hold. Gives the node the next memo when it can.
   */
  private Ranked again(LeafPassages leaves, float[] q, int k) {
    DraftNode[] now = leaves.array();
    int n = now.length;
    double radius = leaves.normBound();
    int count = Math.min(n, k);
    if (q.length != centroid.length || !finite(q) || !(radius >= 0) || !Float.isFinite((float) radius)
        || count > topProducts.length) {
      return null;
    }
    double bound = bound(q, radius);
    // A product moves by at most this much with the centroid, rounding included. The last candidate's too: unless it
    // was ahead of the leaves not kept by more than twice that, the bound will not hold, and the memo is not read.
    double margin = bound - outside;
    if (!Double.isFinite(bound) || topProducts[count - 1] - outside <= 2 * margin) {
      return null;
    }
    Joined joined = join(now, n / 4);
    if (joined == null) {
      return null; // so many leaves offered since that a scan of every leaf costs about as much
    }
    // The products of the kept leaves still offered, and of the leaves offered since, by place in the list: a slot's
    // order is its place's, so its key orders the products as the place would.
    int s = joined.fresh.length;
    for (int p : joined.topAt) {
      s += p >= 0 ? 1 : 0;
    }
    int[] place = new int[s];
    int slot = 0;
    for (int p : joined.topAt) {
      if (p >= 0) {
        place[slot++] = p;
      }
    }
    System.arraycopy(joined.fresh, 0, place, slot, joined.fresh.length);
    Arrays.sort(place);
    long[] keyed = new long[s];
    float[] products = new float[s];
    for (int x = 0; x < s; x++) {
      products[x] = now[place[x]].dot(q);
      if (!Float.isFinite(products[x])) {
        return null;
      }
      keyed[x] = MaximalMarginalRelevance.descending(products[x], x);
    }
    Arrays.sort(keyed);
    if (s < count || !(Ranking.score(keyed[count - 1]) > bound)) {
      return null; // a leaf not scanned could be a candidate
    }
    int[] cand = new int[count];
    float[] relByRank = new float[count];
    for (int c = 0; c < count; c++) {
      int x = Ranking.index(keyed[c]);
      cand[c] = place[x];
      relByRank[c] = products[x];
    }
    int kept = Math.min(s, KEPT_PER_CANDIDATE * k);
    double nextOutside = bound; // the leaves not scanned now
    for (int x = kept; x < s; x++) {
      nextOutside = Math.max(nextOutside, products[Ranking.index(keyed[x])]);
    }
    int[] nextTop = new int[kept];
    float[] nextProducts = new float[kept];
    for (int t = 0; t < kept; t++) {
      int x = Ranking.index(keyed[t]);
      nextTop[t] = place[x];
      nextProducts[t] = products[x];
    }
    leaves.node().relevance = new RelevanceMemo(now, q.clone(), nextTop, nextProducts, nextOutside, spared + 1);
    SPARED.incrementAndGet();
    return new Ranked(cand, relByRank);
  }

  /**
   * At least the float product with {@code q} of every offered leaf this memo does not keep: its product with the
   * memo's centroid is at most {@link #outside}, the exact products differ by at most {@code radius |q - c|}, and each
   * float product of {@code d} components (four sums of a quarter each, then two adds: {@code Vectors.dot}) is within
   * {@code gamma(d / 4 + 2) |x| |y|} of the exact one (N. J. Higham, "Accuracy and Stability of Numerical Algorithms",
   * 2nd ed., SIAM 2002, section 3.1), taken twice over here.
   */
  private double bound(float[] q, double radius) {
    double moved = 0;
    double nq = 0;
    double nc = 0;
    for (int i = 0; i < q.length; i++) {
      double d = (double) q[i] - centroid[i];
      moved += d * d;
      nq += (double) q[i] * q[i];
      nc += (double) centroid[i] * centroid[i];
    }
    double terms = q.length / 4 + 2;
    double gamma = terms * 0x1p-24 / (1 - terms * 0x1p-24);
    double rounding = 2 * gamma * radius * (Math.sqrt(nq) + Math.sqrt(nc));
    return outside + radius * Math.sqrt(moved) * (1 + 1e-9) + 2 * rounding + 1e-30; // and products underflowing
  }

  /** Where this memo's kept leaves are in the new list (-1: gone), and the new list's leaves offered since. */
  private record Joined(int[] topAt, int[] fresh) {}

  /**
   * Compares {@code now} with this memo's list by reference, in order; null when more than {@code most} of its
   * leaves are not found in the old list. A leaf of {@code now} counts as offered before only where the comparison
   * finds it the old list's leaf at the place reached, which it can only be at one place; every other one is scanned.
   * Where the lists part, the comparison goes on at a leaf of the old list near by, or at one the index knows, before
   * or after (a child's leaves may come earlier or later among its siblings').
   */
  private Joined join(DraftNode[] now, int most) {
    int n = now.length;
    int o = offered.length;
    int[] topOfPlace = new int[o];
    Arrays.fill(topOfPlace, -1);
    for (int t = 0; t < top.length; t++) {
      topOfPlace[top[t]] = t;
    }
    int[] topAt = new int[top.length];
    Arrays.fill(topAt, -1);
    int[] fresh = new int[16];
    int freshCount = 0;
    int i = 0;
    int j = 0;
    while (i < n) {
      if (j < o && now[i] == offered[j]) {
        int t = topOfPlace[j];
        if (t >= 0) {
          topAt[t] = i;
        }
        i++;
        j++;
        continue;
      }
      long rejoin = rejoin(now, i, j, most - freshCount);
      int skipped = rejoin >= 0 ? (int) rejoin : n - i; // none found: the rest is not in the old list
      if (freshCount + skipped > most) {
        return null;
      }
      if (freshCount + skipped > fresh.length) {
        fresh = Arrays.copyOf(fresh, Math.max(2 * fresh.length, freshCount + skipped));
      }
      for (int x = 0; x < skipped; x++) {
        fresh[freshCount++] = i + x;
      }
      i += skipped;
      j = (int) (rejoin >> 32);
    }
    return new Joined(topAt, Arrays.copyOf(fresh, freshCount));
  }

  /**
   * A place in the old list at which the new list, from {@code i} on, goes on: a leaf of the old list
   * {@value #NEAR} places or fewer after {@code j}, or {@code j} itself a few leaves of the new list on, else one the
   * index knows among the next {@code budget} leaves of the new list: that place in the high 32 bits, and how many of
   * the new list's leaves come before it in the low ones ({@link #joinAt}); -1 when none is found.
   */
  private long rejoin(DraftNode[] now, int i, int j, int budget) {
    int n = now.length;
    int o = offered.length;
    for (int d = 1; d <= NEAR; d++) {
      if (j + d < o && now[i] == offered[j + d]) { // old leaves dropped
        return joinAt(j + d, 0);
      }
      if (i + d < n && j < o && now[i + d] == offered[j]) { // new leaves inserted
        return joinAt(j, d);
      }
    }
    if (anchors == null) {
      anchors = new IdentityHashMap<>(2 * (o / ANCHOR_EVERY + 1));
      for (int p = 0; p < o; p += ANCHOR_EVERY) {
        anchors.put(offered[p], p);
      }
    }
    for (int x = i; x < n && x - i <= budget; x++) {
      Integer p = anchors.get(now[x]);
      if (p != null) {
        return joinAt(p, x - i);
      }
    }
    return -1;
  }

  /** Where the comparison goes on: at place {@code j} of the old list, after {@code skipped} new leaves. */
  private static long joinAt(int j, int skipped) {
    return (long) j << 32 | skipped;
  }

  private static boolean finite(float[] v) {
    for (float x : v) {
      if (!Float.isFinite(x)) {
        return false;
      }
    }
    return true;
  }
}

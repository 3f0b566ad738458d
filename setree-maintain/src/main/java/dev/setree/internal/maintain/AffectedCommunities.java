package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.KnnRows;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;

/**
 * The affected communities of one level of an {@link IncrementalRebuild} (after HIT-Leiden, Lin et al.,
 * arXiv:2601.08554, 2026, with a narrower trigger: docs/adr/0028-stable-upper-levels.md): the oracle's
 * communities as they stand in the new level, and which of them Leiden must run on again.
 *
 * <p>Arrays indexed by old community number (the oracle's dense assignment), so a level of 50,000 members
 * costs no boxing.
 *
 * @param oldCommunityOf each member's old community (-1: new)
 * @param order the old communities that kept a member, in order of their first member
 * @param affected per old community number, whether Leiden runs on it again
 */
record AffectedCommunities(int[] oldCommunityOf, int[] order, boolean[] affected) {

  /** Marks every old community affected (the whole level is re-clustered). */
  void affectAll() {
    Arrays.fill(affected, true);
  }

  /** The affected communities' numbers, in order (tests, statistics). */
  Set<Integer> ids() {
    Set<Integer> ids = new TreeSet<>();
    for (int c = 0; c < affected.length; c++) {
      if (affected[c]) {
        ids.add(c);
      }
    }
    return ids;
  }

  /**
   * Affected communities: those that lost a member, hold a member that moved to other neighbours, or
   * neighbour one in the patched kNN graph (either direction), since they may gain or lose it. A member moved
   * to other neighbours when it is new, or its centroid changed and its row now lists another set of members
   * ({@link #sameNeighbours}). A member that only moved a little and still lists the same neighbours affects
   * nothing: Leiden would run on the same graph, only with slightly other weights. This matters above level
   * 0, where every ancestor of a new leaf moves (an ancestor of n leaves by about one n-th of a leaf):
   * counting each as moved re-clustered its neighbourhood, re-formed communities and rewrote their summaries
   * up to the root for one new fact (ADR 0028).
   *
   * @param touched the only rows that may list a moved member or be one's ({@link KnnPatch#touched}), so that
   *     only their edges are read; null: every row's
   */
  static AffectedCommunities of(HierarchyState.Level old, LevelMatch match, KnnRows knn, int[] touched) {
    int m = match.newToOld().length;
    int inPlace = match.inPlace(); // in place and not moved: neither moved here nor removed
    boolean[] matchMoved = match.moved();
    boolean[] moved = new boolean[m];
    for (int i = inPlace; i < m; i++) {
      moved[i] = matchMoved[i] && !sameNeighbours(old, match, knn, i);
    }
    int[] oldCommunityOf = oldCommunityOf(old, match.newToOld(), inPlace);
    int communities = old.communityCount();
    boolean[] seen = new boolean[communities];
    int[] order = new int[communities];
    int count = 0;
    for (int i = 0; i < m; i++) {
      int c = oldCommunityOf[i];
      if (c >= 0 && !seen[c]) {
        seen[c] = true;
        order[count++] = c;
      }
    }
    boolean[] affected = new boolean[communities];
    int[] oldToNew = match.oldToNew();
    int[] oldAssignment = old.assignment();
    for (int o = inPlace; o < old.size(); o++) {
      if (oldToNew[o] < 0) { // removed
        affected[oldAssignment[o]] = true;
      }
    }
    if (touched == null) {
      for (int i = 0; i < m; i++) {
        affectByRow(i, knn, moved, oldCommunityOf, affected);
      }
    } else {
      for (int i : touched) {
        affectByRow(i, knn, moved, oldCommunityOf, affected);
      }
    }
    return new AffectedCommunities(oldCommunityOf, Arrays.copyOf(order, count), affected);
  }

  /**
   * Marks what row {@code i} affects: a moved member's own community and its neighbours', and the community of a
   * member that lists a moved one.
   */
  private static void affectByRow(int i, KnnRows knn, boolean[] moved, int[] oldCommunityOf, boolean[] affected) {
    int[] page = knn.neighbourPage(i);
    for (int e = knn.start(i), end = knn.end(i); e < end; e++) {
      int j = page[e];
      if (moved[i] && oldCommunityOf[j] >= 0) {
        affected[oldCommunityOf[j]] = true;
      }
      if (moved[j] && oldCommunityOf[i] >= 0) {
        affected[oldCommunityOf[i]] = true;
      }
    }
    if (moved[i] && oldCommunityOf[i] >= 0) {
      affected[oldCommunityOf[i]] = true;
    }
  }

  /** Each member's community in {@code old} (-1 for a member new to the level), from its old index. */
  static int[] oldCommunityOf(HierarchyState.Level old, int[] newToOld) {
    return oldCommunityOf(old, newToOld, 0);
  }

  /** {@link #oldCommunityOf}, the first {@code inPlace} members known to be at their old indexes (a bulk copy). */
  private static int[] oldCommunityOf(HierarchyState.Level old, int[] newToOld, int inPlace) {
    int[] assignment = old.assignment();
    int[] out = new int[newToOld.length];
    System.arraycopy(assignment, 0, out, 0, inPlace);
    for (int i = inPlace; i < out.length; i++) {
      out[i] = newToOld[i] < 0 ? -1 : assignment[newToOld[i]];
    }
    return out;
  }

  /**
   * Whether member {@code i} was there before and its row in the patched graph lists the same set of
   * members as its old row (order aside: the set is what Leiden's graph holds).
   */
  private static boolean sameNeighbours(HierarchyState.Level old, LevelMatch match, KnnRows knn,
      int i) {
    int o = match.newToOld()[i];
    if (o < 0) {
      return false;
    }
    int from = knn.start(i);
    int to = knn.end(i);
    KnnRows before = old.knn();
    int oldFrom = before.start(o);
    int oldTo = before.end(o);
    if (to - from != oldTo - oldFrom) {
      return false;
    }
    int[] oldNeighbors = before.neighbourPage(o);
    int[] neighbors = knn.neighbourPage(i);
    for (int e = from; e < to; e++) {
      int was = match.newToOld()[neighbors[e]];
      boolean listed = false;
      for (int x = oldFrom; x < oldTo && was >= 0 && !listed; x++) {
        listed = oldNeighbors[x] == was;
      }
      if (!listed) {
        return false;
      }
    }
    return true;
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The affected communities of one level of an {@link IncrementalRebuild} (after HIT-Leiden, Lin et al.,
 * arXiv:2601.08554, 2026, with a narrower trigger: docs/adr/0028-stable-upper-levels.md): the oracle's
 * communities as they stand in the new level, and which of them Leiden must run on again.
 *
 * @param oldCommunityOf each member's old community (-1: new)
 * @param oldCommunities the members of each old community, in member order
 * @param ids the affected communities
 */
record AffectedCommunities(int[] oldCommunityOf, Map<Integer, List<Integer>> oldCommunities, Set<Integer> ids) {

  /**
   * Affected communities: those that lost a member, hold a member that moved to other neighbours, or
   * neighbour one in the patched kNN graph (either direction), since they may gain or lose it. A member moved
   * to other neighbours when it is new, or its centroid changed and its row now lists another set of members
   * ({@link #sameNeighbours}). A member that only moved a little and still lists the same neighbours affects
   * nothing: Leiden would run on the same graph, only with slightly other weights. This matters above level
   * 0, where every ancestor of a new leaf moves (an ancestor of n leaves by about one n-th of a leaf):
   * counting each as moved re-clustered its neighbourhood, re-formed communities and rewrote their summaries
   * up to the root for one new fact (ADR 0028).
   */
  static AffectedCommunities of(HierarchyState.Level old, IncrementalRebuild.LevelMatch match, KnnGraph knn) {
    int m = match.newToOld().length;
    boolean[] moved = new boolean[m];
    for (int i = 0; i < m; i++) {
      moved[i] = match.moved()[i] && !sameNeighbours(old, match, knn, i);
    }
    Map<Integer, List<Integer>> oldCommunities = new LinkedHashMap<>();
    int[] oldCommunityOf = new int[m];
    for (int i = 0; i < m; i++) {
      int o = match.newToOld()[i];
      oldCommunityOf[i] = o < 0 ? -1 : old.assignment()[o];
      if (o >= 0) {
        oldCommunities.computeIfAbsent(oldCommunityOf[i], k -> new ArrayList<>()).add(i);
      }
    }
    Set<Integer> affected = new HashSet<>();
    for (int o = 0; o < old.size(); o++) {
      if (match.oldToNew()[o] < 0) { // removed
        affected.add(old.assignment()[o]);
      }
    }
    for (int i = 0; i < m; i++) {
      for (int e = knn.offsets()[i]; e < knn.offsets()[i + 1]; e++) {
        int j = knn.neighbors()[e];
        if (moved[i] && oldCommunityOf[j] >= 0) {
          affected.add(oldCommunityOf[j]);
        }
        if (moved[j] && oldCommunityOf[i] >= 0) {
          affected.add(oldCommunityOf[i]);
        }
      }
      if (moved[i] && oldCommunityOf[i] >= 0) {
        affected.add(oldCommunityOf[i]);
      }
    }
    return new AffectedCommunities(oldCommunityOf, oldCommunities, affected);
  }

  /**
   * Whether member {@code i} was there before and its row in the patched graph lists the same set of
   * members as its old row (order aside: the set is what Leiden's graph holds).
   */
  private static boolean sameNeighbours(HierarchyState.Level old, IncrementalRebuild.LevelMatch match, KnnGraph knn,
      int i) {
    int o = match.newToOld()[i];
    if (o < 0) {
      return false;
    }
    int from = knn.offsets()[i];
    int to = knn.offsets()[i + 1];
    int oldFrom = old.knnOffsets()[o];
    int oldTo = old.knnOffsets()[o + 1];
    if (to - from != oldTo - oldFrom) {
      return false;
    }
    int[] oldNeighbors = old.knnNeighbors();
    for (int e = from; e < to; e++) {
      int was = match.newToOld()[knn.neighbors()[e]];
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

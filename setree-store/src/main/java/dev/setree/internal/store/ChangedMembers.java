package dev.setree.internal.store;

import dev.setree.internal.core.HierarchyState;
import java.util.Arrays;

/**
 * Which members of a level a maintenance run changed, for the save's plan of the oracle's rows ({@link OracleRows}),
 * when the run kept every old member at its index: one bulk comparison per array instead of one per member.
 */
final class ChangedMembers {
  private ChangedMembers() {}

  /**
   * For a level {@code b} whose first members are {@code a}'s at the same indexes, with their kNN rows at the same
   * places: which of them has a row other than in {@code a} (what {@code OracleRows.sameMember} says member by
   * member), found by bulk mismatches over the arrays, which the JDK compares many elements at a time (at level 0
   * of 50,000 leaves, the member by member comparison took about a millisecond per run). Null when the kNN offsets
   * differ.
   */
  static boolean[] inPlace(HierarchyState.Level a, HierarchyState.Level b, int level, int dim) {
    int m = a.size();
    int[] offsets = a.knnOffsets();
    if (b.size() < m || !Arrays.equals(offsets, 0, m + 1, b.knnOffsets(), 0, m + 1)) {
      return null;
    }
    boolean[] changed = new boolean[m];
    String[] ap = a.parentIds();
    String[] bp = b.parentIds();
    for (int i = 0; i < m; i++) {
      changed[i] = !ap[i].equals(bp[i]);
    }
    int end = offsets[m];
    for (int from = 0, x; from < end
        && (x = Arrays.mismatch(a.knnNeighbors(), from, end, b.knnNeighbors(), from, end)) >= 0; ) {
      int i = memberOfEdge(offsets, m, from + x);
      changed[i] = true;
      from = offsets[i + 1];
    }
    for (int from = 0, x; from < end
        && (x = Arrays.mismatch(a.knnWeights(), from, end, b.knnWeights(), from, end)) >= 0; ) {
      int i = memberOfEdge(offsets, m, from + x);
      changed[i] = true;
      from = offsets[i + 1];
    }
    if (level > 0) { // level 0's centroids are the leaves' embeddings, which do not change for a leaf id that stays
      int rows = m * dim;
      for (int from = 0, x; from < rows
          && (x = Arrays.mismatch(a.centroids(), from, rows, b.centroids(), from, rows)) >= 0; ) {
        int i = (from + x) / dim;
        changed[i] = true;
        from = (i + 1) * dim;
      }
    }
    return changed;
  }

  /** The member whose kNN row holds edge {@code e}: the last {@code i < m} with {@code offsets[i] <= e}. */
  private static int memberOfEdge(int[] offsets, int m, int e) {
    int lo = 0;
    int hi = m - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (offsets[mid] <= e) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }
}

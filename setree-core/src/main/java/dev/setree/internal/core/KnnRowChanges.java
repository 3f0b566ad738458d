package dev.setree.internal.core;

import java.util.Arrays;

/**
 * Which kNN rows of a hierarchy level another level changed, when the other keeps the first one's rows at the same
 * places: one bulk comparison per array (the JDK compares many elements at a time) instead of one per row. A
 * maintenance run that only adds leaves keeps level 0's rows so; at 50,000 leaves a comparison row by row took about
 * a millisecond, and both the save's plan and the next snapshot's nearest-leaf graph make it.
 */
public final class KnnRowChanges {
  private KnnRowChanges() {}

  /**
   * For a level {@code b} whose first {@code a.size()} members have their kNN rows at the same places as in
   * {@code a} (the same offsets): which of those rows list other neighbours or other weights in {@code b}. Null when
   * the offsets differ, or {@code b} is smaller. When {@code b} keeps a log of its kNN rows since {@code a}
   * ({@link HierarchyState.Level#changesSince}), only the rows it names are compared. Weights compare as
   * {@link Arrays#mismatch(float[], int, int, float[], int, int)} does (two NaNs are equal; no level holds one).
   */
  public static boolean[] inPlace(HierarchyState.Level a, HierarchyState.Level b) {
    int m = a.size();
    if (b.size() < m || !a.knn().sameOffsets(b.knn(), m)) {
      return null;
    }
    int[] logged = b.changesSince(a, true);
    if (logged != null) { // a run's log: only the rows it names are compared
      boolean[] changed = new boolean[m];
      for (int i : logged) {
        if (i < m && !a.knn().sameRow(i, b.knn(), i)) {
          changed[i] = true;
        }
      }
      assert Arrays.equals(changed, rowByRow(a, b, m)) : "a kNN row changed that the level's log does not name";
      return changed;
    }
    // Paged rows (a run's) are compared row by row, page by page: their flat arrays are not made.
    return a.knn().paged() || b.knn().paged() ? rowByRow(a, b, m) : inBulk(a, b, a.knnOffsets(), m);
  }

  /** {@link #inPlace} row by row, neither level's flat arrays made (a check under assertions). */
  private static boolean[] rowByRow(HierarchyState.Level a, HierarchyState.Level b, int m) {
    boolean[] changed = new boolean[m];
    for (int i = 0; i < m; i++) {
      changed[i] = !a.knn().sameRow(i, b.knn(), i);
    }
    return changed;
  }

  /** {@link #inPlace} by one bulk comparison per array. */
  private static boolean[] inBulk(HierarchyState.Level a, HierarchyState.Level b, int[] offsets, int m) {
    boolean[] changed = new boolean[m];
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

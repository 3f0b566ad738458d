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
    int[] logged = logged(a, b);
    if (logged != null) { // a run's log: only the rows it names are compared
      boolean[] changed = new boolean[m];
      for (int i : logged) {
        changed[i] = true;
      }
      return changed;
    }
    // Paged rows (a run's) are compared row by row, page by page: their flat arrays are not made.
    return a.knn().paged() || b.knn().paged() ? rowByRow(a, b, m) : inBulk(a, b, a.knnOffsets(), m);
  }

  /**
   * The rows among {@code a}'s members that {@code b}'s log of its kNN rows since {@code a} names
   * ({@link HierarchyState.Level#changesSince}) and that differ in {@code b}, ascending, each once: every row of
   * {@code a}'s that changed (checked under assertions). Null when {@code b} keeps no such log.
   */
  public static int[] logged(HierarchyState.Level a, HierarchyState.Level b) {
    int[] log = b.changesSince(a, true);
    if (log == null) {
      return null;
    }
    int m = a.size();
    int[] rows = log.clone();
    Arrays.sort(rows);
    int count = 0;
    for (int x = 0; x < rows.length; x++) {
      int i = rows[x];
      if (i < m && (count == 0 || rows[count - 1] != i) && !a.knn().sameRow(i, b.knn(), i)) {
        rows[count++] = i;
      }
    }
    int[] changed = Arrays.copyOf(rows, count);
    assert Arrays.equals(changed, changedRows(rowByRow(a, b, m)))
        : "a kNN row changed that the level's log does not name";
    return changed;
  }

  private static int[] changedRows(boolean[] changed) {
    int[] rows = new int[changed.length];
    int count = 0;
    for (int i = 0; i < changed.length; i++) {
      if (changed[i]) {
        rows[count++] = i;
      }
    }
    return Arrays.copyOf(rows, count);
  }

  /** {@link #inPlace} row by row, neither level's flat arrays made. */
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

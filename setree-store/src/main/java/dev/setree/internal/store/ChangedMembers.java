package dev.setree.internal.store;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.KnnRowChanges;
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
   * member), found by bulk mismatches over the arrays ({@link KnnRowChanges} for the kNN rows), or among the rows
   * named by {@code b}'s log of its changes since {@code a} ({@link HierarchyState.Level#changesSince}). Null when the
   * kNN offsets differ.
   */
  static boolean[] inPlace(HierarchyState.Level a, HierarchyState.Level b, int level, int dim) {
    boolean[] changed = KnnRowChanges.inPlace(a, b);
    if (changed == null) {
      return null;
    }
    int m = a.size();
    String[] ap = a.parentIds();
    String[] bp = b.parentIds();
    for (int i = 0; i < m; i++) { // the same string when a run kept the parent, or both read from one tree
      String pa = ap[i];
      String pb = bp[i];
      if (pa != pb && !pa.equals(pb)) {
        changed[i] = true;
      }
    }
    int[] logged = b.changesSince(a, false);
    if (level > 0 && logged != null) { // a run's log: only the rows it names are compared
      for (int i : logged) {
        if (i < m && !NodeRows.rowEquals(a.centroids(), i * dim, b.centroids(), i * dim, dim)) {
          changed[i] = true;
        }
      }
    } else if (level > 0) { // level 0's centroids are the leaves' embeddings: they do not change for a leaf that stays
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
}

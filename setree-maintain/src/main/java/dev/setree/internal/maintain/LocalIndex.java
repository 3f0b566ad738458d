package dev.setree.internal.maintain;

import java.util.Arrays;
import java.util.List;

/**
 * Each member's place in a pool of a level's members (ascending), -1 for a member not in it: what the local
 * re-clustering asks of every neighbour of the pool ({@link IncrementalRebuild}). A pool of a sixteenth of the level
 * or more is indexed by an array as long as the level; a smaller one is searched in its own sorted array, so that a
 * one-fact run's pool of a few hundred members at level 0 of a million leaves makes no array of a million entries
 * (4 MB written each run).
 */
final class LocalIndex {
  /** Per member of the level, its place in the pool, or -1; null when {@link #sorted} is searched. */
  private final int[] dense;
  /** The pool's members, ascending; null when {@link #dense} is read. */
  private final int[] sorted;

  private LocalIndex(int[] dense, int[] sorted) {
    this.dense = dense;
    this.sorted = sorted;
  }

  /** The index of {@code pool}, ascending members of a level of {@code members}. */
  static LocalIndex of(List<Integer> pool, int members) {
    int n = pool.size();
    if ((long) n * 16 >= members) {
      int[] dense = new int[members];
      Arrays.fill(dense, -1);
      for (int p = 0; p < n; p++) {
        dense[pool.get(p)] = p;
      }
      return new LocalIndex(dense, null);
    }
    int[] sorted = new int[n];
    for (int p = 0; p < n; p++) {
      sorted[p] = pool.get(p);
      if (p > 0 && sorted[p] <= sorted[p - 1]) {
        throw new IllegalArgumentException("the pool is not in ascending order at place " + p);
      }
    }
    return new LocalIndex(null, sorted);
  }

  /** Member {@code i}'s place in the pool, or -1 when it is not in it. */
  int of(int i) {
    if (dense != null) {
      return dense[i];
    }
    int p = Arrays.binarySearch(sorted, i);
    return p >= 0 ? p : -1;
  }
}

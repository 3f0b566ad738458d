package dev.setree.internal.maintain;

/** The oracle's members nearest a vector, for the kNN patch of an approximate level. */
@FunctionalInterface
interface NearestMembers {
  /** Indexes of the oracle's level-0 members near unit vector {@code q} (-1 entries are skipped). */
  int[] of(float[] q);

  /** Whether {@link #of(float[], int)} answers for {@code level}: here, level 0 only. */
  default boolean knows(int level) {
    return level == 0;
  }

  /** Indexes of the oracle's level-{@code level} members near {@code q} (-1 entries are skipped). */
  default int[] of(float[] q, int level) {
    if (!knows(level)) {
      throw new IllegalArgumentException("no members near a vector are known at level " + level);
    }
    return of(q);
  }
}

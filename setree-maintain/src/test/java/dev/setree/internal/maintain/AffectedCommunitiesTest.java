package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.KnnRows;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Which communities the incremental rebuild re-clusters: a member that moved but lists the same neighbours
 * affects nothing; a member whose neighbours changed affects its own community and its neighbours'.
 */
class AffectedCommunitiesTest {
  /**
   * Six members in three communities {a, b}, {c, d}, {e, f}; each lists two neighbours. (The centroids do
   * not matter here: the graphs are given.)
   */
  private static final String[] IDS = {"a", "b", "c", "d", "e", "f"};
  private static final int[] ASSIGNMENT = {0, 0, 1, 1, 2, 2};
  private static final int[] OFFSETS = {0, 2, 4, 6, 8, 10, 12};
  private static final int[] OLD_ROWS = {1, 2, 0, 2, 3, 1, 2, 4, 5, 3, 4, 3};

  private static HierarchyState.Level old() {
    return new HierarchyState.Level(IDS, new float[IDS.length], IDS, ASSIGNMENT, OFFSETS, OLD_ROWS,
        new float[OLD_ROWS.length], 0.5);
  }

  private static Set<Integer> affected(boolean[] moved, int[] newRows) {
    int[] same = {0, 1, 2, 3, 4, 5};
    LevelMatch match = new LevelMatch(same, same, moved);
    KnnRows knn = KnnRows.flat(OFFSETS, newRows, new float[newRows.length]);
    return new TreeSet<>(AffectedCommunities.of(old(), match, knn, null).ids());
  }

  @Test
  void aMemberThatMovedButKeepsItsNeighboursAffectsNothing() {
    boolean[] moved = {true, false, false, false, false, false};
    assertEquals(Set.of(), affected(moved, OLD_ROWS));
    // The same neighbours in another order are the same graph for Leiden.
    int[] reordered = OLD_ROWS.clone();
    reordered[0] = 2;
    reordered[1] = 1;
    assertEquals(Set.of(), affected(moved, reordered));
  }

  @Test
  void aMemberWhoseNeighboursChangedAffectsItsOwnAndItsNeighboursCommunities() {
    boolean[] moved = {true, false, false, false, false, false};
    int[] rows = OLD_ROWS.clone();
    rows[1] = 4; // a now lists b and e instead of b and c: its community (with b's) and e's
    assertEquals(Set.of(0, 2), affected(moved, rows));
    // Rows of members that did not move are the patch's business, not a reason by themselves.
    boolean[] none = new boolean[6];
    assertEquals(Set.of(), affected(none, rows));
  }

  @Test
  void aRemovedMembersCommunityIsAffected() {
    int[] newToOld = {0, 1, 2, 3, 4};
    int[] oldToNew = {0, 1, 2, 3, 4, -1}; // f removed
    int[] offsets = {0, 2, 4, 6, 8, 10};
    int[] rows = {1, 2, 0, 2, 3, 1, 2, 4, 3, 2};
    LevelMatch match =
        new LevelMatch(newToOld, oldToNew, new boolean[5]);
    KnnRows knn = KnnRows.flat(offsets, rows, new float[rows.length]);
    assertEquals(Set.of(2), new TreeSet<>(AffectedCommunities.of(old(), match, knn, null).ids()));
  }
}

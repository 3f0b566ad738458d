package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * A level's community count is one more than its assignment's largest number, counted once; a count told by the run
 * that made the level is checked under assertions, and a level logged against another keeps it.
 */
class CommunityCountTest {

  private static HierarchyState.Level level(int... assignment) {
    int n = assignment.length;
    String[] ids = new String[n];
    for (int i = 0; i < n; i++) {
      ids[i] = "m" + i;
    }
    return new HierarchyState.Level(ids, new float[n], ids, assignment, new int[n + 1], new int[0], new float[0],
        Double.NaN);
  }

  @Test
  void oneMoreThanTheLargestNumber() {
    assertEquals(3, level(0, 2, 1, 2).communityCount());
    assertEquals(5, level(4, 0).communityCount());
    assertEquals(0, level().communityCount());
    assertEquals(0, level(-1, -1).communityCount());
  }

  @Test
  void aToldCountIsCheckedAndKeptByALoggedLevel() {
    HierarchyState.Level base = level(0, 1);
    HierarchyState.Level grown = level(0, 1, 2);
    grown.rememberCommunityCount(3);
    assertEquals(3, grown.withChangesSince(base, null, null).communityCount());
    boolean checked = false;
    assert checked = true; // the check below holds only with assertions on, as the tests run
    if (checked) {
      assertThrows(AssertionError.class, () -> level(0, 1).rememberCommunityCount(3));
    }
  }
}

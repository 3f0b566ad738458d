package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The id index finds every id at its position and no other id, also among ids whose hash codes collide, with
 * or without a hint; it refuses an id listed twice; an index extended by more ids finds what a fresh one finds;
 * a level builds it on the first lookup a hint does not answer and finds what a search of its member ids finds; a
 * level logged against another whose index was built extends that index, and both answer as fresh ones would.
 */
class IdIndexTest {

  @Test
  void findsEveryIdAndNoOther() {
    // "Aa" and "BB" have the same hash code, so do all strings made of them: long probe chains.
    String[] ids = new String[256];
    for (int i = 0; i < ids.length; i++) {
      StringBuilder b = new StringBuilder();
      for (int bit = 0; bit < 8; bit++) {
        b.append((i >> bit & 1) == 0 ? "Aa" : "BB");
      }
      ids[i] = b.toString();
    }
    IdIndex index = IdIndex.of(ids, "id");
    for (int i = 0; i < ids.length; i++) {
      assertEquals(i, index.indexOf(ids[i]));
      assertEquals(i, index.indexOf(ids[i], i));
      assertEquals(i, index.indexOf(ids[i], (i + 1) % ids.length));
      assertEquals(i, index.indexOf(ids[i], -1));
    }
    assertEquals(-1, index.indexOf("AaAaAaAaAaAaAaAaAa"));
    assertEquals(-1, index.indexOf(null));
    assertEquals(-1, IdIndex.of(new String[0], "id").indexOf("x"));
  }

  /**
   * An index of a range gives positions in the whole array and finds nothing outside the range; an index extended
   * by the ids after it finds what a fresh index of the longer range finds, also past the point where its table
   * is rebuilt, refuses a new id that an old one repeats, and leaves the index it came from as it was.
   */
  @Test
  void extendedIndexFindsWhatAFreshOneFinds() {
    Random r = new Random(11);
    String[] ids = new String[3000];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = i % 3 == 0 ? collidingId(i) : "id" + i;
    }
    IdIndex range = IdIndex.of(ids, 100, 200, "id");
    assertEquals(150, range.indexOf(ids[150]));
    assertEquals(-1, range.indexOf(ids[99]));
    assertEquals(-1, range.indexOf(ids[200]));
    assertEquals(150, range.indexOf(ids[150], 20)); // a hint outside the range is looked up
    IdIndex index = IdIndex.of(ids, 0, 10, "id");
    int end = 10;
    while (end < ids.length) {
      int next = Math.min(ids.length, end + 1 + r.nextInt(40));
      IdIndex extended = index.extendedTo(ids, next, "id");
      for (int i = 0; i < ids.length; i++) {
        assertEquals(i < next ? i : -1, extended.indexOf(ids[i]), ids[i] + " after extending to " + next);
        assertEquals(i < end ? i : -1, index.indexOf(ids[i]), ids[i] + " in the index extended, at " + end);
      }
      index = extended;
      end = next;
    }
    String[] again = java.util.Arrays.copyOf(ids, 12);
    again[11] = ids[3];
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> IdIndex.of(again, 0, 11, "node id").extendedTo(again, 12, "node id"));
    assertEquals("duplicate node id " + ids[3], e.getMessage());
  }

  /**
   * Two indexes extended from the same one (a maintenance run given up, then the next from the same tree), and one
   * extension refused for a repeated id: each index finds what a fresh index of its range finds, the second
   * extension's ids at their own positions (the first extension shares its table with the index it came from, the
   * second does not), and an extension after the refused one finds its ids without reporting any twice.
   */
  @Test
  void indexesExtendedFromOneIndexAreEachRight() {
    String[] base = new String[10];
    for (int i = 0; i < base.length; i++) {
      base[i] = "leaf" + i;
    }
    String[] first = java.util.Arrays.copyOf(base, 15);
    String[] second = java.util.Arrays.copyOf(base, 14);
    for (int i = 10; i < 15; i++) {
      first[i] = "first" + i;
    }
    for (int i = 10; i < 14; i++) {
      second[i] = i == 10 ? first[11] : "second" + i; // an id of the first extension, at another position
    }
    IdIndex index = IdIndex.of(base, 0, 10, "node id");
    IdIndex a = index.extendedTo(first, 15, "node id");
    IdIndex b = index.extendedTo(second, 14, "node id");
    for (String[] ids : List.of(base, first, second)) {
      for (String id : ids) {
        assertEquals(List.of(base).indexOf(id), index.indexOf(id), id + " in the index extended twice");
        assertEquals(List.of(first).indexOf(id), a.indexOf(id), id + " in the first extension");
        assertEquals(List.of(second).indexOf(id), b.indexOf(id), id + " in the second extension");
      }
    }
    String[] repeated = java.util.Arrays.copyOf(second, 12);
    repeated[11] = base[4];
    IdIndex c = IdIndex.of(base, 0, 10, "node id");
    assertThrows(IllegalArgumentException.class, () -> c.extendedTo(repeated, 12, "node id"));
    IdIndex d = c.extendedTo(second, 14, "node id");
    for (int i = 0; i < second.length; i++) {
      assertEquals(i, d.indexOf(second[i]), second[i] + " after a refused extension");
    }
  }

  /** An id made of "Aa" and "BB" pairs (all of the same length share a hash code), unique to {@code i}. */
  private static String collidingId(int i) {
    StringBuilder b = new StringBuilder();
    for (int bit = 0; bit < 12; bit++) {
      b.append((i >> bit & 1) == 0 ? "Aa" : "BB");
    }
    return b.toString();
  }

  @Test
  void refusesAnIdListedTwiceAndANullId() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> IdIndex.of(new String[] {"a", "b", "a"}, "member id"));
    assertEquals("duplicate member id a", e.getMessage());
    NullPointerException n = assertThrows(NullPointerException.class,
        () -> IdIndex.of(new String[] {"a", null}, "node id"));
    assertTrue(n.getMessage().contains("node id"), n.getMessage());
  }

  @Test
  void levelLookupsFindWhatASearchOfItsMembersFinds() {
    Random r = new Random(7);
    String[] members = new String[2000];
    for (int i = 0; i < members.length; i++) {
      members[i] = "n" + (i * 7 + r.nextInt(7)); // distinct: member i's number is in [7i, 7i + 6]
    }
    HierarchyState.Level level = new HierarchyState.Level(members, null, null, null, null, null, null, Double.NaN);
    for (int probe = 0; probe < 5000; probe++) {
      String id = "n" + r.nextInt(members.length * 8);
      int hint = r.nextInt(members.length + 2) - 1;
      int expected = -1;
      for (int i = 0; i < members.length; i++) {
        if (members[i].equals(id)) {
          expected = i;
        }
      }
      assertEquals(expected, level.indexOf(id, hint), id + " hint " + hint);
    }
    assertThrows(IllegalArgumentException.class,
        () -> new HierarchyState.Level(new String[] {"x", "y", "x"}, null, null, null, null, null, null, 0)
            .indexOf("y", -1));
  }

  @Test
  void aLevelLoggedAgainstAnotherExtendsItsIndex() {
    Random r = new Random(11);
    String[] old = new String[3000];
    for (int i = 0; i < old.length; i++) {
      old[i] = "n" + (i * 5 + r.nextInt(5));
    }
    HierarchyState.Level base = level(old);
    assertEquals(17, base.indexOf(old[17], -1));
    // Two levels logged against the base, as two runs from one snapshot may make: each appends other members.
    String[] first = appended(old, "a", 40);
    String[] second = appended(old, "b", 25);
    HierarchyState.Level one = level(first).withChangesSince(base, new int[0], new int[0]);
    HierarchyState.Level two = level(second).withChangesSince(base, new int[0], new int[0]);
    for (int probe = 0; probe < 4000; probe++) {
      String id = r.nextBoolean() ? "n" + r.nextInt(old.length * 6) : (r.nextBoolean() ? "a" : "b") + r.nextInt(60);
      assertEquals(List.of(first).indexOf(id), one.indexOf(id, -1), id + " in the first");
      assertEquals(List.of(second).indexOf(id), two.indexOf(id, -1), id + " in the second");
      assertEquals(List.of(old).indexOf(id), base.indexOf(id, -1), id + " in the base");
    }
    // The first extended the base's table in place; the second, finding it taken, indexed its members afresh.
    assertTrue(one.builtIndex().sharesTableWith(base.builtIndex()));
    assertTrue(!two.builtIndex().sharesTableWith(base.builtIndex()));
    // A level logged against one without an index builds its own; an appended member listed twice is refused.
    assertEquals(3000, level(first).withChangesSince(level(old), new int[0], new int[0]).indexOf("a0", -1));
    String[] twice = appended(old, "a", 3);
    twice[old.length + 2] = old[5];
    HierarchyState.Level fresh = level(old);
    assertEquals(3, fresh.indexOf(old[3], -1));
    HierarchyState.Level again = level(twice).withChangesSince(fresh, new int[0], new int[0]);
    assertThrows(IllegalArgumentException.class, () -> again.indexOf("zz", -1));
  }

  private static HierarchyState.Level level(String[] members) {
    return new HierarchyState.Level(members, null, null, null, null, null, null, Double.NaN);
  }

  private static String[] appended(String[] ids, String prefix, int count) {
    String[] out = java.util.Arrays.copyOf(ids, ids.length + count);
    for (int i = 0; i < count; i++) {
      out[ids.length + i] = prefix + i;
    }
    return out;
  }
}

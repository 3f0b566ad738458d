package dev.setree.internal.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The oracle load's lookup of member ids by their bytes agrees with a map of the decoded strings. */
class IdTableTest {
  @Test
  void positionsOfRandomStringListsAreTheMapsPositions() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    String[] alphabet = {"a", "b", "_n", "7", "é", "日", "\uD83D\uDE00", ""};
    for (int round = 0; round < 50; round++) {
      int n = 1 + r.nextInt(300);
      Map<String, Integer> map = new HashMap<>();
      String[] ids = new String[n];
      for (int i = 0; i < n; i++) {
        String id;
        do {
          StringBuilder b = new StringBuilder();
          for (int k = r.nextInt(6); k >= 0; k--) {
            b.append(alphabet[r.nextInt(alphabet.length)]);
          }
          id = b.toString();
        } while (map.containsKey(id));
        ids[i] = id;
        map.put(id, i);
      }
      IdTable table = new IdTable(ids);
      assertTrue(table.complete());
      assertEquals(-1, table.duplicate());
      for (int q = 0; q < 20; q++) {
        String[] list = new String[r.nextInt(12)];
        int[] expected = new int[list.length];
        for (int e = 0; e < list.length; e++) {
          expected[e] = r.nextInt(n);
          list[e] = ids[expected[e]];
        }
        byte[] blob = Blobs.strings(list);
        String at = "seed=" + seed + " round " + round;
        assertArrayEquals(expected, table.positions(blob, list.length), at);
        for (String id : list) {
          byte[] b = id.getBytes(StandardCharsets.UTF_8);
          assertEquals(map.get(id), table.indexOf(b, 0, b.length), at);
        }
        if (list.length > 0) {
          assertNull(table.positions(blob, list.length - 1), "bytes left over: " + at);
          assertNull(table.positions(blob, list.length + 1), "too few: " + at);
          String[] unknown = list.clone();
          unknown[r.nextInt(unknown.length)] = "not a member \u0000";
          assertNull(table.positions(Blobs.strings(unknown), unknown.length), "unknown id: " + at);
          String[] withNull = list.clone();
          withNull[r.nextInt(withNull.length)] = null;
          assertNull(table.positions(Blobs.strings(withNull), withNull.length), "null id: " + at);
        }
      }
      assertNull(table.positions(null, 0));
    }
  }

  @Test
  void duplicatesAndNullIdsAreLeftToTheSlowWay() {
    IdTable dup = new IdTable(new String[] {"a", "b", "c", "b", "a"});
    assertEquals(3, dup.duplicate(), "the first id listed a second time");
    IdTable withNull = new IdTable(new String[] {"a", null, ""});
    assertFalse(withNull.complete());
  }
}

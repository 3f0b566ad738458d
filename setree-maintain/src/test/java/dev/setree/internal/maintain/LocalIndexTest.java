package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link LocalIndex} against a map of the pool, for pools small and large beside their level. */
class LocalIndexTest {
  @Test
  void placesEveryMemberOfTheLevel() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    for (int round = 0; round < 200; round++) {
      int members = 1 + r.nextInt(2000);
      double share = r.nextInt(4) == 0 ? 0.5 : 0.001 + 0.05 * r.nextDouble(); // either side of a sixteenth
      List<Integer> pool = new ArrayList<>();
      Map<Integer, Integer> place = new HashMap<>();
      for (int i = 0; i < members; i++) {
        if (r.nextDouble() < share) {
          place.put(i, pool.size());
          pool.add(i);
        }
      }
      LocalIndex index = LocalIndex.of(pool, members);
      for (int i = 0; i < members; i++) {
        assertEquals(place.getOrDefault(i, -1), index.of(i),
            "seed=" + seed + " round " + round + ": member " + i + " of " + members + ", pool of " + pool.size());
      }
    }
  }

  @Test
  void aPoolOutOfOrderIsRefused() {
    List<Integer> pool = List.of(3, 9, 7);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LocalIndex.of(pool, 1000));
    assertTrue(e.getMessage().contains("not in ascending order at place 2"), e.getMessage());
  }
}

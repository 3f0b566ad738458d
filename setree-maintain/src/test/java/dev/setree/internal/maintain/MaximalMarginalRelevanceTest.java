package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The selection of a large node's candidates: the same keys as a full sort's first ones. */
class MaximalMarginalRelevanceTest {

  @Test
  void theSelectedKeysAreTheSortedPrefix() {
    Random rnd = new Random(3);
    for (int round = 0; round < 300; round++) {
      int n = 1 + rnd.nextInt(round < 200 ? 60 : 20_000);
      long[] keys = rnd.longs(n).distinct().toArray();
      switch (round % 3) {
        case 1 -> Arrays.sort(keys); // already in order
        case 2 -> { // in reverse order
          Arrays.sort(keys);
          for (int i = 0; i < keys.length / 2; i++) {
            long t = keys[i];
            keys[i] = keys[keys.length - 1 - i];
            keys[keys.length - 1 - i] = t;
          }
        }
        default -> { }
      }
      int k = rnd.nextInt(keys.length + 2);
      long[] sorted = keys.clone();
      Arrays.sort(sorted);
      long[] selected = keys.clone();
      MaximalMarginalRelevance.selectSmallest(selected, k);
      int m = Math.min(k, keys.length);
      Arrays.sort(selected, 0, m);
      assertArrayEquals(Arrays.copyOf(sorted, m), Arrays.copyOf(selected, m), "n " + keys.length + ", k " + k);
      long[] all = selected.clone();
      Arrays.sort(all);
      assertArrayEquals(sorted, all, "the keys are only moved");
    }
  }
}

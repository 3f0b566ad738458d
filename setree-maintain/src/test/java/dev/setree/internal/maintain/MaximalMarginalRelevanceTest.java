package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.setree.spi.Passage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The selection of a large node's candidates (the same keys as a full sort's first ones), and a tie that the lazy
 * picks must break as the eager ones did. ExtractiveSummarizerTest compares the picks with the eager loop on random
 * leaves.
 */
class MaximalMarginalRelevanceTest {

  /**
   * The third pick ties two leaves: {@code b}, whose score at the second pick was higher and has fallen since (it
   * is close to the second pick), and {@code r}, of higher relevance, whose score has not moved. Computing every
   * score, the tie goes to {@code r}; the lazy picks reach {@code b} first and must still look at {@code r}. Every
   * product is exact in binary: the scores tie exactly.
   */
  @Test
  void aTieAfterAScoreFellGoesToTheHigherRelevance() {
    float[] centroid = {1f, 0f, 0f, 0f};
    List<Passage> leaves = new ArrayList<>();
    leaves.add(new Passage("p1", "first", new float[] {1f, 0f, 0.5f, 0f})); // relevance 1: the first pick
    leaves.add(new Passage("q", "second", new float[] {0.75f, 1f, 0f, 0f})); // score 0.375 at the second pick
    leaves.add(new Passage("r", "r", new float[] {0.625f, 0f, 2f, 0f})); // -0.1875, and still at the third
    leaves.add(new Passage("b", "b", new float[] {0.5f, 1f, 0f, 0f})); // 0.25, then -0.1875 (close to q)
    List<Integer> picks = new ArrayList<>();
    MaximalMarginalRelevance.order(leaves, centroid, 4, 0.5f).forEach(picks::add);
    assertEquals(List.of(0, 1, 2, 3), picks);
  }

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

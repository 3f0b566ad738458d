package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The primitive ranking against a boxed sort with the same comparator contract. */
class RankingTest {

  /** Random scores with many ties, negatives, zeros of both signs and infinities. */
  @Test
  void matchesABoxedSort() {
    for (long seed = 1; seed <= 300; seed++) {
      Random r = new Random(seed);
      int n = r.nextInt(500);
      float[] s = new float[n];
      for (int i = 0; i < n; i++) {
        int kind = r.nextInt(10);
        s[i] = switch (kind) {
          case 0 -> 0f;
          case 1 -> -0f;
          case 2 -> Float.NEGATIVE_INFINITY;
          case 3 -> Math.round(r.nextGaussian() * 3) / 3f;
          default -> (float) r.nextGaussian();
        };
      }
      Integer[] boxed = new Integer[n];
      for (int i = 0; i < n; i++) {
        boxed[i] = i;
      }
      Arrays.sort(boxed, (a, b) -> s[a] != s[b] || Float.compare(s[a], s[b]) != 0
          ? Float.compare(s[b], s[a]) : Integer.compare(a, b));
      assertArrayEquals(Arrays.stream(boxed).mapToInt(Integer::intValue).toArray(), Ranking.descending(s),
          "seed=" + seed);
    }
  }

  /**
   * A key gives back its score and index, and keys sort by score descending, then index ascending: 0.0 before -0.0,
   * every NaN (whatever its sign and payload) as one value above all numbers.
   */
  @Test
  void keysRoundTripAndSortAsDocumented() {
    float negativeNan = Float.intBitsToFloat(0xffc00000);
    float[] scores = {1f, -0f, 0f, Float.NaN, negativeNan, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY,
        Float.MIN_VALUE, -Float.MAX_VALUE, 0.5f, 0.5f};
    long[] keys = new long[scores.length];
    for (int i = 0; i < scores.length; i++) {
      keys[i] = Ranking.key(scores[i], i);
      assertEquals(i, Ranking.index(keys[i]));
      assertEquals(Float.floatToIntBits(scores[i]), Float.floatToIntBits(Ranking.score(keys[i])), "score " + i);
    }
    Arrays.sort(keys);
    int[] order = Arrays.stream(keys).mapToInt(Ranking::index).toArray();
    assertArrayEquals(new int[] {3, 4, 6, 0, 9, 10, 7, 2, 1, 8, 5}, order);
    assertTrue(Ranking.key(2f, Integer.MAX_VALUE) < Ranking.key(1f, 0), "the index never outweighs the score");
  }
}

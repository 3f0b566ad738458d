package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

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
}

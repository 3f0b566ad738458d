package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class IndexesTest {
  /** A range gets its own indexes, the rest of the array is left alone, across the shared array's growth. */
  @Test
  void fillsARangeWithItsIndexes() {
    for (int n : new int[] {0, 1, 7, 1000, 5, 70_000}) {
      int[] a = new int[n + 4];
      Arrays.fill(a, -9);
      Indexes.identity(a, 2, n + 2);
      for (int i = 0; i < a.length; i++) {
        assertEquals(i >= 2 && i < n + 2 ? i : -9, a[i], "n=" + n + " at " + i);
      }
    }
    assertThrows(IndexOutOfBoundsException.class, () -> Indexes.identity(new int[3], 1, 4));
    assertThrows(IndexOutOfBoundsException.class, () -> Indexes.identity(new int[3], 2, 1));
  }
}

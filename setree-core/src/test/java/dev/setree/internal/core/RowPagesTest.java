package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class RowPagesTest {
  private static final int DIM = 5;

  private static float[] randomRows(int rows, long seed) {
    Random r = new Random(seed);
    float[] out = new float[rows * DIM];
    for (int i = 0; i < out.length; i++) {
      out[i] = r.nextFloat() - 0.5f;
    }
    return out;
  }

  private static RowPages paged(float[] flat, int rows) {
    RowPages.Builder b = new RowPages.Builder(rows, DIM);
    for (int r = 0; r < rows; r++) {
      b.set(r, flat, r * DIM);
    }
    return b.build();
  }

  @Test
  void pagedAndWrappedRowsReadTheSame() {
    int rows = 3 * RowPages.PAGE_ROWS + 17;
    float[] flat = randomRows(rows, 1);
    RowPages wrapped = RowPages.wrap(flat.clone(), rows, DIM);
    RowPages paged = paged(flat, rows);
    assertEquals(4, paged.pageCount());
    assertEquals(1, wrapped.pageCount());
    assertArrayEquals(flat, paged.toArray());
    assertArrayEquals(flat, wrapped.toArray());
    float[] q = randomRows(1, 2);
    for (int r = 0; r < rows; r++) {
      assertArrayEquals(Vectors.row(flat, r, DIM), paged.row(r));
      assertEquals(SimdDot.dot(flat, r * DIM, q, 0, DIM), paged.dot(r, q));
      assertEquals(Vectors.dot(flat, r * DIM, flat, ((r + 7) % rows) * DIM, DIM), paged.dot(r, wrapped, (r + 7) % rows));
      assertEquals(flat[r * DIM + 3], paged.get(r, 3));
      assertTrue(paged.rowEquals(r, wrapped, r));
    }
    assertFalse(paged.rowEquals(0, wrapped, 1));
  }

  @Test
  void aBuilderKeepsTheBasePagesItIsToldToAndWritesTheOthers() {
    int rows = 2 * RowPages.PAGE_ROWS + 5;
    float[] flat = randomRows(rows, 3);
    RowPages base = paged(flat, rows);
    float[] changed = flat.clone();
    int r1 = RowPages.PAGE_ROWS + 3; // a row of page 1 changes
    changed[r1 * DIM] += 1f;
    RowPages.Builder b = new RowPages.Builder(rows, DIM);
    assertTrue(b.keepPage(0, base));
    assertTrue(b.keepPage(2, base));
    assertFalse(b.keepPage(2, base), "a page is kept once");
    assertThrows(IllegalStateException.class, () -> b.set(2, changed, 2 * DIM), "a kept page is not writable");
    for (int r = RowPages.PAGE_ROWS; r < 2 * RowPages.PAGE_ROWS; r++) {
      b.set(r, changed, r * DIM);
    }
    RowPages next = b.build();
    assertArrayEquals(changed, next.toArray());
    assertTrue(next.rowEquals(0, base, 0));
    assertFalse(next.rowEquals(r1, base, r1));
    assertArrayEquals(flat, base.toArray(), "the base is not written");
  }

  @Test
  void aPageIsKeptOnlyFromTheSameLayout() {
    int rows = RowPages.PAGE_ROWS + 5;
    float[] flat = randomRows(rows, 4);
    RowPages.Builder grown = new RowPages.Builder(rows + 1, DIM);
    RowPages base = paged(flat, rows);
    assertTrue(grown.canKeep(0, base), "a full page");
    assertFalse(grown.canKeep(1, base), "the last page holds another number of rows");
    assertFalse(new RowPages.Builder(rows, DIM).canKeep(0, RowPages.wrap(flat, rows, DIM)), "one wrapped page");
    assertFalse(new RowPages.Builder(rows, DIM + 1).canKeep(0, base), "another dimension");
    assertThrows(IllegalArgumentException.class, () -> RowPages.wrap(new float[7], 2, DIM));
  }
}

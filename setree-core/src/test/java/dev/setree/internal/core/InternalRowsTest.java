package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A tree's internal rows, dense or shared (ADR 0036). */
class InternalRowsTest {
  static final int DIM = 2;

  private static float[] rows(int count, float base) {
    float[] r = new float[count * DIM];
    for (int i = 0; i < r.length; i++) {
      r[i] = base + i;
    }
    return r;
  }

  @Test
  void sharedRowsAreReadWhereEachNodeSaysAndTheTreeReadsThem() {
    float[] emb = rows(5, 0f);
    float[] cen = rows(5, 100f);
    InternalRows shared = InternalRows.shared(emb, cen, new int[] {4, 1, 2}, DIM);
    assertEquals(3, shared.count());
    assertEquals(8, shared.offset(0));
    assertEquals(1, shared.row(1));
    assertArrayEquals(new float[] {8f, 9f, 2f, 3f, 4f, 5f}, shared.denseEmbeddings());
    assertArrayEquals(new float[] {108f, 109f, 102f, 103f, 104f, 105f}, shared.denseCentroids());

    InternalRows dense = InternalRows.dense(rows(3, 0f), rows(3, 100f), 3, DIM);
    assertEquals(2, dense.row(2));
    assertEquals(4, dense.offset(2));
    InternalRows other = InternalRows.shared(emb, cen, new int[] {2, 4}, DIM);
    assertTrue(shared.sameRow(0, other, 1));
    assertFalse(shared.sameRow(1, other, 0));
    assertFalse(dense.sameRow(2, shared, 2), "the same place in other arrays");

    String[] ids = {"a", "b", "c", "p", "q", "root"};
    int[] parent = {3, 3, 4, 5, 5, -1};
    Tree tree = new Tree(DIM, 3, ids, new String[] {"a", "b", "c", "p", "q", "r"}, null, null, new int[6],
        new int[] {0, 0, 0, 1, 1, 2}, parent, rows(3, 50f), shared, new int[6], null, null, null, null);
    assertArrayEquals(new float[] {8f, 9f}, tree.embedding(3));
    assertArrayEquals(new float[] {104f, 105f}, tree.centroid(5));
    assertEquals(2f * 104f + 3f * 105f, tree.centroidDot(5, new float[] {2f, 3f}), 1e-3f);
    assertEquals(2f * 2f + 3f * 3f, tree.embeddingDot(4, new float[] {2f, 3f}), 1e-3f);
  }

  @Test
  void badRowsAreRefusedWithWhatIsWrong() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> InternalRows.shared(rows(2, 0f), rows(2, 0f), new int[] {0, 2}, DIM));
    assertEquals("internal node 1 has row 2 of 2", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> InternalRows.shared(rows(2, 0f), rows(3, 0f), new int[] {0}, DIM));
    assertEquals("shared row arrays of lengths 4 and 6 for dimension 2", e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> InternalRows.dense(rows(2, 0f), rows(3, 0f), 2, DIM));
    assertEquals("internalCentroids has length 6, expected 4", e.getMessage());
  }
}

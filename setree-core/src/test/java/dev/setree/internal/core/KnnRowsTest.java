package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Paged kNN rows behave as copies of flat ones: over a chain of versions, each made from the last by extending it and
 * writing random rows, every version reads as a flat model of it, also after later versions wrote over its rows;
 * a version shares every page it did not write with the one before and copies each page it wrote once; its flat
 * arrays equal its rows and are made once; rows of other lengths, fewer rows and a writer used after its rows were
 * made are refused.
 */
class KnnRowsTest {

  @Test
  void versionsReadAsTheirFlatModelsAndShareTheirUnwrittenPages() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    int k = 1 + r.nextInt(6);
    int n = 1 + r.nextInt(3 * KnnRows.PAGE_ROWS);
    int[] nb = new int[n * k];
    float[] w = new float[n * k];
    for (int e = 0; e < nb.length; e++) {
      nb[e] = r.nextInt(1000);
      w[e] = r.nextFloat();
    }
    int[] offsets = new int[n + 1];
    for (int i = 0; i <= n; i++) {
      offsets[i] = i * k;
    }
    KnnRows current = KnnRows.flat(offsets, nb, w);
    List<KnnRows> versions = new ArrayList<>(List.of(current));
    List<int[]> modelNb = new ArrayList<>(List.of(nb.clone()));
    List<float[]> modelW = new ArrayList<>(List.of(w.clone()));
    int sharedSeen = 0;
    for (int version = 1; version <= 12; version++) {
      String ctx = "seed=" + seed + " version " + version;
      int m = current.size() + r.nextInt(KnnRows.PAGE_ROWS / 2);
      KnnRows.Writer writer = current.extend(m, k);
      int[] mn = Arrays.copyOf(modelNb.get(modelNb.size() - 1), m * k);
      float[] mw = Arrays.copyOf(modelW.get(modelW.size() - 1), m * k);
      boolean[] written = new boolean[(m + KnnRows.PAGE_ROWS - 1) / KnnRows.PAGE_ROWS];
      // Every new row, and a few old ones.
      List<Integer> rows = new ArrayList<>();
      for (int i = current.size(); i < m; i++) {
        rows.add(i);
      }
      for (int x = r.nextInt(4); x > 0; x--) {
        rows.add(r.nextInt(current.size()));
      }
      for (int i : rows) {
        int[] pn = writer.neighboursToWrite(i);
        float[] pw = writer.weightsToWrite(i);
        for (int j = 0; j < k; j++) {
          int id = r.nextInt(1000);
          float s = r.nextFloat();
          pn[writer.start(i) + j] = id;
          pw[writer.start(i) + j] = s;
          mn[i * k + j] = id;
          mw[i * k + j] = s;
        }
        written[i / KnnRows.PAGE_ROWS] = true;
      }
      int oldPages = (current.size() + KnnRows.PAGE_ROWS - 1) / KnnRows.PAGE_ROWS;
      int copiedOld = 0;
      for (int p = 0; p < oldPages; p++) {
        copiedOld += written[p] ? 1 : 0;
      }
      assertEquals(current.paged() ? copiedOld : 0, writer.pagesCopied(), ctx + ": pages copied");
      KnnRows next = writer.rows();
      assertThrows(IllegalStateException.class, () -> writer.neighboursToWrite(0), ctx);
      assertTrue(next.paged() && next.rowLength() == k && next.size() == m, ctx);
      for (int i = 0; i < current.size(); i++) {
        int p = i / KnnRows.PAGE_ROWS;
        if (current.paged() && !written[p]) {
          assertSame(current.neighbourPage(i), next.neighbourPage(i), ctx + ": row " + i + "'s page shared");
          assertSame(current.weightPage(i), next.weightPage(i), ctx + ": row " + i + "'s weights shared");
          sharedSeen++;
        } else {
          assertNotSame(current.neighbourPage(i), next.neighbourPage(i), ctx + ": row " + i + "'s page");
        }
      }
      versions.add(next);
      modelNb.add(mn);
      modelW.add(mw);
      current = next;
      // Every version, the older ones too, reads as its model.
      for (int v = 0; v < versions.size(); v++) {
        assertReads(versions.get(v), modelNb.get(v), modelW.get(v), k, ctx + ", as version " + v);
      }
    }
    assertTrue(sharedSeen > 0, "seed=" + seed + ": no page was shared");
    // The flat arrays of a paged version: its rows, made once.
    int before = KnnRows.FLATTENED.get();
    KnnRows last = versions.get(versions.size() - 1);
    int[] flatNb = last.neighbours();
    assertSame(flatNb, last.neighbours());
    assertEquals(before + 1, KnnRows.FLATTENED.get());
    assertArrayEquals(modelNb.get(modelNb.size() - 1), flatNb);
    assertArrayEquals(modelW.get(modelW.size() - 1), last.weights());
    for (int i = 0; i <= last.size(); i++) {
      assertEquals(i * k, last.offsets()[i]);
    }
    assertTrue(last.uniform(k) && !last.uniform(k + 1));
    boolean equal = Arrays.equals(modelNb.get(1), 0, k, nb, 0, k) && Arrays.equals(modelW.get(1), 0, k, w, 0, k);
    assertEquals(equal, versions.get(0).sameRow(0, versions.get(1), 0), "seed=" + seed + ": row 0, flat and paged");
  }

  private static void assertReads(KnnRows rows, int[] nb, float[] w, int k, String ctx) {
    assertEquals(nb.length / k, rows.size(), ctx);
    for (int i = 0; i < rows.size(); i++) {
      assertEquals(k, rows.end(i) - rows.start(i), ctx);
      for (int j = 0; j < k; j++) {
        assertEquals(nb[i * k + j], rows.neighbourPage(i)[rows.start(i) + j], ctx + ": row " + i);
        assertEquals(Float.floatToRawIntBits(w[i * k + j]),
            Float.floatToRawIntBits(rows.weightPage(i)[rows.start(i) + j]), ctx + ": row " + i);
      }
    }
  }

  @Test
  void flatRowsOfAnyLengthAreReadAsTheyAre() {
    KnnRows rows = KnnRows.flat(new int[] {0, 2, 2, 5}, new int[] {1, 2, 0, 1, 0}, new float[] {.9f, .8f, .7f, .6f,
        .5f});
    assertFalse(rows.paged());
    assertEquals(3, rows.size());
    assertEquals(0, rows.end(1) - rows.start(1));
    assertEquals(3, rows.end(2) - rows.start(2));
    assertEquals(1, rows.neighbourPage(2)[rows.start(2) + 2 - 1]);
    assertFalse(rows.uniform(2));
    assertFalse(rows.sameRow(0, rows, 2));
    assertTrue(rows.sameRow(1, rows, 1));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rows.extend(4, 2));
    assertTrue(e.getMessage().contains("not 2 each"), e.getMessage());
    KnnRows uniform = KnnRows.flat(new int[] {0, 1, 2}, new int[] {1, 0}, new float[] {.5f, .5f});
    assertThrows(IllegalArgumentException.class, () -> uniform.extend(1, 1), "fewer rows");
    // Extended past the pages the old rows fill: the old rows copied, the new pages left to be written.
    KnnRows.Writer longer = uniform.extend(2 * KnnRows.PAGE_ROWS + 1, 1);
    assertEquals(0, longer.pagesCopied());
    KnnRows extended = longer.rows();
    assertTrue(extended.sameRow(0, uniform, 0) && extended.sameRow(1, uniform, 1));
    assertEquals(2 * KnnRows.PAGE_ROWS + 1, extended.size());
    assertEquals(null, KnnRows.flat(null, new int[0], new float[0]));
  }
}

package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The nearest-leaf graph's ranges in pages: a chain of derived versions, with siblings derived from the same version
 * (which cannot claim the shared room and copy every row), each reads as its model, the older ones too; a derivation
 * shares every page it writes no row of and copies each page it writes once.
 */
class RangeRowsTest {

  @Test
  void derivedRowsReadAsTheirModelsAndShareTheirUnwrittenPages() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    int n = 3 * RangeRows.PAGE_ROWS + r.nextInt(RangeRows.PAGE_ROWS);
    List<int[]> model = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      model.add(randomRow(r));
    }
    RangeRows rows = of(model);
    List<RangeRows> versions = new ArrayList<>(List.of(rows));
    List<List<int[]>> models = new ArrayList<>(List.of(new ArrayList<>(model)));
    int copiedAll = 0;
    for (int step = 0; step < 15; step++) {
      String ctx = "seed=" + seed + " step " + step;
      int from = r.nextInt(4) == 0 ? r.nextInt(versions.size()) : versions.size() - 1; // a sibling now and then
      RangeRows base = versions.get(from);
      List<int[]> next = new ArrayList<>(models.get(from));
      int grow = r.nextInt(3) == 0 ? r.nextInt(2 * RangeRows.PAGE_ROWS) : r.nextInt(4);
      TreeSet<Integer> changed = new TreeSet<>();
      for (int g = 0; g < grow; g++) {
        next.add(null); // listed below, or left empty
        if (r.nextInt(8) != 0) {
          changed.add(next.size() - 1);
        }
      }
      for (int c = r.nextInt(12); c > 0; c--) {
        changed.add(r.nextInt(next.size()));
      }
      int[] list = changed.stream().mapToInt(Integer::intValue).toArray();
      int[][] written = new int[list.length][];
      for (int x = 0; x < list.length; x++) {
        written[x] = r.nextInt(10) == 0 ? null : randomRow(r);
        next.set(list[x], written[x]);
      }
      long pagesBefore = RangeRows.PAGES_WRITTEN.get();
      RangeRows derived = base.with(next.size(), list, written, list.length);
      long pagesWritten = RangeRows.PAGES_WRITTEN.get() - pagesBefore;
      boolean compacted = derived.entries() != base.entries();
      if (compacted) {
        copiedAll++;
      } else {
        TreeSet<Integer> writtenPages = new TreeSet<>();
        for (int v : list) {
          writtenPages.add(v >>> RangeRows.SHIFT);
        }
        int newPages = (next.size() + RangeRows.MASK) / RangeRows.PAGE_ROWS;
        for (int p = 0; p < base.pages().length; p++) {
          if (writtenPages.contains(p)) {
            assertTrue(base.pages()[p] != derived.pages()[p], ctx + ": page " + p + " written in place");
          } else {
            assertTrue(base.pages()[p] == derived.pages()[p], ctx + ": page " + p + " not written, not shared");
          }
        }
        for (int p = base.pages().length; p < newPages; p++) {
          writtenPages.add(p); // a new page is made even when no row of it is listed
        }
        assertEquals(writtenPages.size(), pagesWritten, ctx + ": pages written");
      }
      versions.add(derived);
      models.add(next);
      for (int x = 0; x < versions.size(); x++) {
        reads(versions.get(x), models.get(x), ctx + " version " + x);
      }
    }
    assertTrue(copiedAll < 15, "seed=" + seed + ": every derivation copied every row");
  }

  @Test
  void fewerRowsAreRefused() {
    RangeRows rows = of(List.of(new int[] {1}, new int[] {0}));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> rows.with(1, new int[0], new int[0][], 0));
    assertTrue(e.getMessage().contains("1 leaves derived from 2"), e.getMessage());
  }

  private static void reads(RangeRows rows, List<int[]> model, String ctx) {
    assertEquals(model.size(), rows.size(), ctx + ": rows");
    for (int v = 0; v < model.size(); v++) {
      int[] want = model.get(v) == null ? new int[0] : model.get(v);
      assertArrayEquals(want, Arrays.copyOfRange(rows.entries(), rows.start(v), rows.end(v)), ctx + ": row " + v);
      int[] page = rows.page(v);
      assertEquals(rows.start(v), page[RangeRows.at(v)], ctx + ": start of " + v + " on its page");
    }
  }

  private static RangeRows of(List<int[]> model) {
    int[] offsets = new int[model.size() + 1];
    for (int v = 0; v < model.size(); v++) {
      offsets[v + 1] = offsets[v] + model.get(v).length;
    }
    int[] entries = new int[offsets[model.size()]];
    for (int v = 0; v < model.size(); v++) {
      System.arraycopy(model.get(v), 0, entries, offsets[v], model.get(v).length);
    }
    return RangeRows.of(offsets, entries);
  }

  private static int[] randomRow(Random r) {
    int[] row = new int[1 + r.nextInt(6)];
    for (int x = 0; x < row.length; x++) {
      row[x] = r.nextInt(1_000_000);
    }
    return row;
  }
}

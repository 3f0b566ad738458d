package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The candidate path's graph of the next snapshot, derived from the previous one, equals the graph built from
 * scratch: over random kNN graphs (tied weights included) that gain members and have rows changed, several
 * versions in a row; a version that loses a leaf is built from scratch.
 */
class LeafGraphTest {

  @Test
  void derivedGraphEqualsTheGraphFromScratch() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    int derivedCount = 0;
    int logged = 0;
    for (int round = 0; round < 20; round++) {
      int k = 2 + r.nextInt(10);
      // Now and then more leaves than a page of ranges holds (RangeRows), so that derived graphs share pages.
      int n = k + 2 + (r.nextInt(4) == 0 ? RangeRows.PAGE_ROWS + r.nextInt(2 * RangeRows.PAGE_ROWS) : r.nextInt(300));
      List<int[]> rows = new ArrayList<>();
      List<float[]> weights = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        addRow(r, rows, weights, i, n, k);
      }
      HierarchyState prevH = hierarchy(n, rows, weights, r.nextBoolean());
      LeafNeighbours prev = LeafNeighbours.of(tree(n), prevH);
      for (int version = 0; version < 5; version++) {
        String ctx = "seed=" + seed + " round " + round + " version " + version;
        // A row needs k neighbours other than its leaf: the leaves never shrink below k + 1 (fewer made addRow loop
        // for ever).
        boolean shrink = n > k + 1 && r.nextInt(6) == 0;
        int grow = shrink ? 0 : r.nextInt(4);
        if (shrink) { // the last leaf goes, and every row that listed it changes
          n--;
          rows.remove(n);
          weights.remove(n);
          for (int i = 0; i < n; i++) {
            for (int x : rows.get(i)) {
              if (x == n) {
                rows.set(i, null);
              }
            }
            if (rows.get(i) == null) {
              weights.set(i, null);
              rows.remove(i);
              weights.remove(i);
              addRow(r, rows, weights, i, n, k);
            }
          }
        }
        for (int g = 0; g < grow; g++) {
          addRow(r, rows, weights, n, n + 1, k);
          n++;
        }
        List<Integer> rewrittenRows = new ArrayList<>();
        for (int c = r.nextInt(6); c > 0; c--) { // some old rows change
          int i = r.nextInt(n);
          rewrittenRows.add(i);
          rows.remove(i);
          weights.remove(i);
          addRow(r, rows, weights, i, n, k);
        }
        Tree t = tree(n);
        // Paged rows (a run's) half the time: read by rows, their flat arrays never made.
        HierarchyState h = hierarchy(n, rows, weights, r.nextBoolean());
        if (!shrink && r.nextBoolean()) {
          // With a run's log of the rows it may have changed (those rewritten, and one that was not): only those are
          // compared with the old rows.
          rewrittenRows.add(r.nextInt(n));
          h = new HierarchyState(List.of(h.levels().get(0).withChangesSince(prevH.levels().get(0), null,
              rewrittenRows.stream().mapToInt(Integer::intValue).toArray())));
          logged++;
        }
        int flattened = KnnRows.FLATTENED.get();
        LeafNeighbours scratch = LeafNeighbours.of(t, h);
        // Now and then another graph derived from the same one first, with one more row changed: it takes the room
        // after the shared rows, and the one kept must copy its rows instead (as one whose rows outgrow the room
        // does) without writing over the other's.
        LeafNeighbours sibling = null;
        LeafNeighbours siblingScratch = null;
        if (r.nextInt(4) == 0) {
          List<int[]> rows2 = new ArrayList<>(rows);
          List<float[]> weights2 = new ArrayList<>(weights);
          int i = r.nextInt(n);
          rows2.remove(i);
          weights2.remove(i);
          addRow(r, rows2, weights2, i, n, k);
          HierarchyState h2 = hierarchy(n, rows2, weights2, r.nextBoolean());
          sibling = prev.next(t, h2);
          siblingScratch = LeafNeighbours.of(t, h2);
        }
        LeafNeighbours next = prev.next(t, h);
        assertEquals(flattened, KnnRows.FLATTENED.get(), ctx + ": paged rows made flat");
        assertNotNull(next.graph, ctx);
        sameRows(scratch.graph, next.graph, n, ctx);
        if (sibling != null) {
          sameRows(siblingScratch.graph, sibling.graph, n, ctx + " (the other graph)");
        }
        assertEquals(!shrink, next.graph.derived, ctx + ": derived only when the leaves grew");
        derivedCount += next.graph.derived ? 1 : 0;
        prev = next;
        prevH = h;
      }
    }
    assertTrue(derivedCount > 50, "seed=" + seed + ": derived " + derivedCount);
    assertTrue(logged > 10, "seed=" + seed + ": derived from a log " + logged);
  }

  /**
   * A level whose members are not the old level's first ones (here renamed) gives a graph built from scratch, unless it
   * is logged against the old level; one logged against it is derived without its ids compared.
   */
  @Test
  void onlyALevelThatStartsWithTheOldMembersIsDerivedFrom() {
    Random r = new Random(Long.getLong("tests.seed", 5L));
    int n = 40;
    List<int[]> rows = new ArrayList<>();
    List<float[]> weights = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      addRow(r, rows, weights, i, n, 4);
    }
    HierarchyState old = hierarchy(n, rows, weights, false);
    LeafNeighbours prev = LeafNeighbours.of(tree(n), old);
    HierarchyState renamed = hierarchy(n, rows, weights, false, "m");
    LeafNeighbours next = prev.next(tree(n, "m"), renamed);
    assertTrue(!next.graph.derived, "derived from a level of other members");
    sameRows(LeafNeighbours.of(tree(n, "m"), renamed).graph, next.graph, n, "renamed");
    HierarchyState.Level l0 = old.levels().get(0);
    HierarchyState.Level logged = hierarchy(n, rows, weights, false).levels().get(0).withChangesSince(l0, null,
        new int[0]);
    assertTrue(logged.loggedAgainst(l0) && !logged.loggedAgainst(renamed.levels().get(0)) && !l0.loggedAgainst(l0),
        "logged against the level it was logged against only");
    assertTrue(prev.next(tree(n), new HierarchyState(List.of(logged))).graph.derived,
        "a logged level not derived from");
  }

  private static void sameRows(LeafGraph expected, LeafGraph actual, int n, String ctx) {
    assertEquals(expected.out.size(), actual.out.size(), ctx + ": leaves");
    for (int v = 0; v < n; v++) {
      assertArrayEquals(row(expected, v), row(actual, v), ctx + ": neighbours of " + v);
      assertArrayEquals(expected.sources(v), actual.sources(v), ctx + ": rows listing " + v);
    }
  }

  private static int[] row(LeafGraph g, int v) {
    return Arrays.copyOfRange(g.out.entries(), g.out.start(v), g.out.end(v));
  }

  /** Row {@code i} (inserted at {@code i}): k distinct random neighbours among {@code n}, weights with ties. */
  private static void addRow(Random r, List<int[]> rows, List<float[]> weights, int i, int n, int k) {
    int[] row = new int[k];
    float[] w = new float[k];
    for (int e = 0; e < k; e++) {
      int x;
      boolean dup;
      do {
        x = r.nextInt(n);
        dup = x == i;
        for (int f = 0; f < e; f++) {
          dup |= row[f] == x;
        }
      } while (dup);
      row[e] = x;
      w[e] = r.nextInt(4) / 4f; // few distinct weights: ties everywhere
    }
    rows.add(i, row);
    weights.add(i, w);
  }

  /** n leaves under a root, leaf i with id "l" + i. */
  private static Tree tree(int n) {
    return tree(n, "l");
  }

  /** n leaves under a root, leaf i with id {@code prefix + i}. */
  private static Tree tree(int n, String prefix) {
    int size = n + 1;
    String[] ids = new String[size];
    String[] texts = new String[size];
    int[] tokens = new int[size];
    int[] level = new int[size];
    int[] parent = new int[size];
    float[] emb = new float[size * 2];
    int[] faith = new int[size];
    for (int v = 0; v < size; v++) {
      ids[v] = v < n ? prefix + v : "root";
      texts[v] = ids[v];
      tokens[v] = 1;
      level[v] = v < n ? 0 : 1;
      parent[v] = v < n ? n : -1;
      emb[2 * v] = 1f;
      faith[v] = 100;
    }
    return new Tree(2, n, ids, texts, null, null, tokens, level, parent, emb, new float[] {1f, 0f}, faith, null);
  }

  private static HierarchyState hierarchy(int n, List<int[]> rows, List<float[]> weights, boolean paged) {
    return hierarchy(n, rows, weights, paged, "l");
  }

  private static HierarchyState hierarchy(int n, List<int[]> rows, List<float[]> weights, boolean paged,
      String prefix) {
    String[] ids = new String[n];
    String[] parents = new String[n];
    int[] offsets = new int[n + 1];
    for (int i = 0; i < n; i++) {
      ids[i] = prefix + i;
      parents[i] = "root";
      offsets[i + 1] = offsets[i] + rows.get(i).length;
    }
    int[] nb = new int[offsets[n]];
    float[] w = new float[offsets[n]];
    for (int i = 0; i < n; i++) {
      System.arraycopy(rows.get(i), 0, nb, offsets[i], rows.get(i).length);
      System.arraycopy(weights.get(i), 0, w, offsets[i], rows.get(i).length);
    }
    KnnRows knn = KnnRows.flat(offsets, nb, w);
    int k = n == 0 ? 0 : offsets[1];
    if (paged && knn.uniform(k)) {
      knn = knn.extend(n, k).rows();
    }
    return new HierarchyState(List.of(new HierarchyState.Level(ids, new float[n * 2], parents, new int[n], knn,
        Double.NaN)));
  }
}

package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.KnnRows;
import dev.setree.internal.core.Vectors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** G1 patching of an exact kNN graph gives the exact graph of the new members, bit for bit. */
class KnnPatchTest {

  /**
   * Random levels, an exact graph, then members removed, moved (a little or a lot) and added: the patch
   * equals a kNN from scratch, with and without recomputing rows from their old neighbours, and that
   * shortcut saves full scans.
   */
  @Test
  void patchedExactGraphEqualsTheExactGraphOfTheNewMembers() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    rounds(seed, false);
  }

  /**
   * The same with many tied similarities: members drawn from a small pool of vectors (duplicates), moves and
   * additions too, so that a row's k-th candidate often ties the old row's last neighbour and the index
   * tie-break decides; the patch still equals a kNN from scratch.
   */
  @Test
  void patchedExactGraphEqualsTheExactGraphWithTies() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    rounds(seed, true);
  }

  private static void rounds(long seed, boolean ties) {
    Random r = new Random(seed);
    int k = 10;
    int fullWithShortcut = 0;
    int fullWithout = 0;
    for (int round = 0; round < 40; round++) {
      String ctx = "seed=" + seed + " round " + round;
      int dim = 8 + r.nextInt(12);
      int n = 12 + r.nextInt(400);
      float[] pool = randomUnitRows(r, Math.max(2, n / 4), dim);
      float[] oldCentroids = ties ? pick(r, pool, n, dim) : randomUnitRows(r, n, dim);
      KnnGraph oldGraph = ExactKnn.allPairs(oldCentroids, n, dim, k);
      String[] ids = new String[n];
      for (int i = 0; i < n; i++) {
        ids[i] = "m" + i;
      }
      HierarchyState.Level old = new HierarchyState.Level(ids, oldCentroids, ids, new int[n], oldGraph.offsets(),
          oldGraph.neighbors(), oldGraph.weights(), Double.NaN);
      // The new level: survivors in their old order (some moved), then new members.
      List<float[]> rows = new ArrayList<>();
      List<Integer> fromOld = new ArrayList<>();
      int removals = r.nextInt(3);
      int moves = 1 + r.nextInt(4);
      boolean[] removed = new boolean[n];
      for (int x = 0; x < removals; x++) {
        removed[r.nextInt(n)] = true;
      }
      boolean[] move = new boolean[n];
      for (int x = 0; x < moves; x++) {
        move[r.nextInt(n)] = true;
      }
      for (int o = 0; o < n; o++) {
        if (!removed[o]) {
          float[] c = Vectors.row(oldCentroids, o, dim);
          if (move[o] && ties) {
            c = pick(r, pool, 1, dim);
          } else if (move[o]) {
            float step = r.nextBoolean() ? 0.05f : 1f;
            for (int d = 0; d < dim; d++) {
              c[d] += step * (float) r.nextGaussian();
            }
            Vectors.normalize(c);
          }
          rows.add(c);
          fromOld.add(o);
        }
      }
      int adds = r.nextInt(3);
      for (int x = 0; x < adds; x++) {
        rows.add(ties ? pick(r, pool, 1, dim) : randomUnitRows(r, 1, dim));
        fromOld.add(-1);
      }
      int m = rows.size();
      float[] centroids = new float[m * dim];
      int[] newToOld = new int[m];
      int[] oldToNew = new int[n];
      Arrays.fill(oldToNew, -1);
      boolean[] moved = new boolean[m];
      for (int i = 0; i < m; i++) {
        System.arraycopy(rows.get(i), 0, centroids, i * dim, dim);
        newToOld[i] = fromOld.get(i);
        if (newToOld[i] >= 0) {
          oldToNew[newToOld[i]] = i;
        }
        moved[i] = newToOld[i] < 0 || move[newToOld[i]];
      }
      KnnGraph scratch = ExactKnn.allPairs(centroids, m, dim, k);
      KnnPatch withShortcut = KnnPatch.patch(old, m, centroids, dim, moved, newToOld, oldToNew, k, true);
      KnnPatch without = KnnPatch.patch(old, m, centroids, dim, moved, newToOld, oldToNew, k, false);
      // Scanned in integers first, with a mirror rounded anew and one followed from the old level's.
      KnnPatch integers = KnnPatch.patch(old, m, centroids, dim, moved, newToOld, oldToNew, k, true, null,
          IntegerRows.of(centroids, m, dim));
      KnnPatch followed = KnnPatch.patch(old, m, centroids, dim, moved, newToOld, oldToNew, k, true, null,
          IntegerRows.follow(IntegerRows.of(oldCentroids, n, dim), oldCentroids, centroids, m, dim, newToOld,
              moved));
      for (KnnPatch p : List.of(withShortcut, without, integers, followed)) {
        assertArrayEquals(scratch.offsets(), p.graph().offsets(), ctx);
        assertArrayEquals(scratch.neighbors(), p.graph().neighbors(), ctx + ": neighbours");
        assertArrayEquals(scratch.weights(), p.graph().weights(), ctx + ": weights");
      }
      fullWithShortcut += withShortcut.recomputed();
      fullWithout += without.recomputed();
    }
    assertTrue(fullWithShortcut < fullWithout, "seed=" + seed + ": the shortcut saved no scan ("
        + fullWithShortcut + " vs " + fullWithout + " rows scanned)");
  }

  /**
   * The patch from nearest members (an approximate level): when members were only added after the old ones, the
   * old rows copied at once and only the rows new members enter looked at give what the row-by-row patch gives,
   * bit for bit, with ties too; so do the old rows copied and the rows listing a moved member found again when
   * old members moved in place; and when a member was removed, or an old row is not best-first, the patch falls
   * back to the rows one by one.
   */
  @Test
  void nearPatchOfAppendedMembersEqualsTheRowByRowPatch() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    int k = 8;
    int copied = 0;
    int copiedMoved = 0;
    for (int round = 0; round < 80; round++) {
      String ctx = "seed=" + seed + " round " + round;
      boolean ties = round % 3 == 0;
      int dim = 8 + r.nextInt(12);
      int n = 12 + r.nextInt(300);
      float[] pool = randomUnitRows(r, Math.max(2, n / 4), dim);
      float[] oldCentroids = ties ? pick(r, pool, n, dim) : randomUnitRows(r, n, dim);
      KnnGraph oldGraph = ExactKnn.allPairs(oldCentroids, n, dim, k);
      int variant = r.nextInt(5); // 0, 1: only added; 2: one removed; 3: an old row out of order; 4: old ones moved
      float[] oldWeights = oldGraph.weights().clone();
      if (variant == 3) { // a row's last neighbour scored above its first
        int row = r.nextInt(n);
        oldWeights[row * k + k - 1] = oldWeights[row * k] + 0.5f;
      }
      String[] ids = new String[n];
      Arrays.setAll(ids, i -> "m" + i);
      int[] communities = new int[n];
      int count = 1 + n / 6;
      Arrays.setAll(communities, x -> r.nextInt(count));
      HierarchyState.Level old = new HierarchyState.Level(ids, oldCentroids, ids, communities, oldGraph.offsets(),
          oldGraph.neighbors(), oldWeights, Double.NaN);
      int removed = variant == 2 ? r.nextInt(n) : -1;
      int adds = 1 + r.nextInt(4);
      int m = n - (removed >= 0 ? 1 : 0) + adds;
      float[] centroids = new float[m * dim];
      int[] newToOld = new int[m];
      int[] oldToNew = new int[n];
      Arrays.fill(oldToNew, -1);
      int i = 0;
      for (int o = 0; o < n; o++) {
        if (o != removed) {
          System.arraycopy(oldCentroids, o * dim, centroids, i * dim, dim);
          newToOld[i] = o;
          oldToNew[o] = i++;
        }
      }
      float[] added = ties ? pick(r, pool, adds, dim) : randomUnitRows(r, adds, dim);
      System.arraycopy(added, 0, centroids, i * dim, adds * dim);
      boolean[] moved = new boolean[m];
      for (; i < m; i++) {
        newToOld[i] = -1;
        moved[i] = true;
      }
      int firstMoved = n;
      for (int x = variant == 4 ? 1 + r.nextInt(3) : 0; x > 0; x--) { // an old member's centroid changed in place
        int o = r.nextInt(n);
        float[] row = ties ? pick(r, pool, 1, dim) : randomUnitRows(r, 1, dim);
        System.arraycopy(row, 0, centroids, o * dim, dim);
        moved[o] = true;
        firstMoved = Math.min(firstMoved, o);
      }
      int near = 1 + r.nextInt(12);
      java.util.function.IntFunction<int[]> nearest = j -> ExactKnn.query(centroids, m, dim,
          Vectors.row(centroids, j, dim), Math.min(near, m - 1), j, new float[Math.min(near, m - 1)]);
      KnnPatch fast = NearestMemberPatch.patch(old, m, centroids, dim, moved, newToOld, oldToNew, k, nearest, true);
      KnnPatch rowByRow =
          NearestMemberPatch.patch(old, m, centroids, dim, moved, newToOld, oldToNew, k, nearest, false);
      assertArrayEquals(rowByRow.graph().offsets(), fast.graph().offsets(), ctx);
      assertArrayEquals(rowByRow.graph().neighbors(), fast.graph().neighbors(), ctx + ": neighbours");
      assertArrayEquals(rowByRow.graph().weights(), fast.graph().weights(), ctx + ": weights");
      assertTrue(rowByRow.recomputed() == fast.recomputed(), ctx + ": rows recomputed");
      // The rows the copy says it touched are all the affected communities need read.
      LevelMatch match = new LevelMatch(newToOld, oldToNew, moved);
      AffectedCommunities everyRow = AffectedCommunities.of(old, match, rowByRow.rows(), null);
      AffectedCommunities touchedRows = AffectedCommunities.of(old, match, fast.rows(), fast.touched());
      assertArrayEquals(everyRow.affected(), touchedRows.affected(), ctx + ": affected communities");
      boolean appended = NearestMemberPatch.onlyAppended(old, m, k, moved, oldToNew);
      boolean inPlaceCopy = !appended && NearestMemberPatch.keptInPlace(old, m, k, oldToNew, 0, false);
      assertEquals(fast.touched() != null, appended || inPlaceCopy, ctx);
      assertEquals(variant < 2, appended, ctx + ": variant " + variant);
      assertEquals(variant == 4, inPlaceCopy, ctx + ": variant " + variant);
      copied += appended ? 1 : 0;
      copiedMoved += inPlaceCopy ? 1 : 0;
      // Knowing the members before the removed one in place, and the old rows sorted when they are: the same patch
      // and affected communities, and the patched graph remembered as sorted when the copy was taken.
      int inPlace = removed >= 0 ? removed : firstMoved;
      NearestMemberPatch.SortedRows sorted = new NearestMemberPatch.SortedRows();
      sorted.check(old, k);
      assertEquals(variant != 3, sorted.holds(old, k), ctx + ": the old rows remembered as sorted");
      KnnPatch known = NearestMemberPatch.patch(old, m, centroids, dim, moved, newToOld, oldToNew, k, nearest, true,
          inPlace, sorted);
      assertArrayEquals(fast.graph().neighbors(), known.graph().neighbors(), ctx + ": neighbours, known in place");
      assertArrayEquals(fast.graph().weights(), known.graph().weights(), ctx + ": weights, known in place");
      assertArrayEquals(fast.touched(), known.touched(), ctx + ": touched, known in place");
      HierarchyState.Level patched = new HierarchyState.Level(new String[m], centroids, new String[m], new int[m],
          known.rows(), Double.NaN);
      assertEquals((appended || inPlaceCopy) && NearestMemberPatch.rowsSorted(patched, k), sorted.holds(patched, k),
          ctx + ": the patched graph remembered as sorted exactly when it is, after a copy");
      AffectedCommunities inPlaceKnown = AffectedCommunities.of(old, new LevelMatch(newToOld, oldToNew, moved,
          inPlace), fast.rows(), fast.touched());
      assertArrayEquals(touchedRows.affected(), inPlaceKnown.affected(), ctx + ": affected, known in place");
      assertArrayEquals(touchedRows.oldCommunityOf(), inPlaceKnown.oldCommunityOf(), ctx + ": old communities");
      assertArrayEquals(touchedRows.order(), inPlaceKnown.order(), ctx + ": order, known in place");
      patchAgain(r, patched, known, centroids, m, dim, k, ctx);
    }
    assertTrue(copied > 0 && copiedMoved > 0, "seed=" + seed + ": " + copied + " rounds took the copy of appended"
        + " members, " + copiedMoved + " that of members moved in place");
  }

  /**
   * A chain of runs, each adding a member to a level of a few pages: each patch gives the row-by-row patch's rows,
   * leaves the rows before it as they were, and shares every page it wrote no row of.
   */
  @Test
  void aPatchSharesThePagesItDoesNotWrite() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    int k = 8;
    int dim = 8;
    int n = 8 * KnnRows.PAGE_ROWS + 17;
    float[] centroids = randomUnitRows(r, n, dim);
    KnnGraph g = ExactKnn.allPairs(centroids, n, dim, k);
    String[] ids = new String[n];
    Arrays.setAll(ids, i -> "m" + i);
    HierarchyState.Level old = new HierarchyState.Level(ids, centroids, ids, new int[n], g.offsets(), g.neighbors(),
        g.weights(), Double.NaN);
    KnnPatch first = new KnnPatch(old.knn(), 0, null);
    int m = n;
    int shared = 0;
    for (int run = 0; run < 5; run++) {
      String ctx = "seed=" + seed + " run " + run;
      int[] made = new int[1];
      HierarchyState.Level[] next = new HierarchyState.Level[1];
      float[][] grown = new float[1][];
      shared += patchAgain(r, old, first, centroids, m, dim, k, ctx, made, next, grown);
      first = new KnnPatch(next[0].knn(), 0, null);
      old = next[0];
      centroids = grown[0];
      m = made[0];
    }
    assertTrue(shared > 0, "seed=" + seed + ": no page shared in five runs");
  }

  /**
   * Patches the paged rows of {@code first} (the level {@code old}) again after 1-2 members more, as a next run does:
   * the same rows as the row-by-row patch; {@code first}'s rows unchanged; every page of them that the patch wrote no
   * row of shared, not copied. Returns how many pages were shared.
   */
  private static int patchAgain(Random r, HierarchyState.Level old, KnnPatch first, float[] centroids, int m, int dim,
      int k, String ctx) {
    return patchAgain(r, old, first, centroids, m, dim, k, ctx, new int[1], new HierarchyState.Level[1],
        new float[1][]);
  }

  /** {@link #patchAgain}, giving the members now, the patched level and its centroids in the arrays of one. */
  private static int patchAgain(Random r, HierarchyState.Level old, KnnPatch first, float[] centroids, int m, int dim,
      int k, String ctx, int[] members, HierarchyState.Level[] patched, float[][] grown) {
    int[] beforeNeighbors = new int[m * k];
    float[] beforeWeights = new float[m * k];
    readRows(first.rows(), beforeNeighbors, beforeWeights, k);
    int adds = 1 + r.nextInt(2);
    int m2 = m + adds;
    float[] centroids2 = Arrays.copyOf(centroids, m2 * dim);
    System.arraycopy(randomUnitRows(r, adds, dim), 0, centroids2, m * dim, adds * dim);
    int[] newToOld = new int[m2];
    int[] oldToNew = new int[m];
    boolean[] moved = new boolean[m2];
    for (int i = 0; i < m2; i++) {
      newToOld[i] = i < m ? i : -1;
      moved[i] = i >= m;
    }
    Arrays.setAll(oldToNew, i -> i);
    java.util.function.IntFunction<int[]> nearest = j -> ExactKnn.query(centroids2, m2, dim,
        Vectors.row(centroids2, j, dim), Math.min(2, m2 - 1), j, new float[Math.min(2, m2 - 1)]);
    KnnPatch again = NearestMemberPatch.patch(old, m2, centroids2, dim, moved, newToOld, oldToNew, k, nearest, true);
    KnnPatch rowByRow = NearestMemberPatch.patch(old, m2, centroids2, dim, moved, newToOld, oldToNew, k, nearest,
        false);
    assertTrue(again.rows().paged(), ctx + ": a patch's rows are paged");
    assertArrayEquals(rowByRow.graph().neighbors(), again.graph().neighbors(), ctx + ": neighbours, patched again");
    assertArrayEquals(rowByRow.graph().weights(), again.graph().weights(), ctx + ": weights, patched again");
    int[] afterNeighbors = new int[m * k];
    float[] afterWeights = new float[m * k];
    readRows(first.rows(), afterNeighbors, afterWeights, k); // through the pages: flat arrays made are kept as made
    assertArrayEquals(beforeNeighbors, afterNeighbors, ctx + ": the first patch's rows written over");
    assertArrayEquals(beforeWeights, afterWeights, ctx + ": the first patch's weights written over");
    members[0] = m2;
    grown[0] = centroids2;
    String[] ids = new String[m2];
    Arrays.setAll(ids, i -> "m" + i);
    patched[0] = new HierarchyState.Level(ids, centroids2, ids, new int[m2], again.rows(), Double.NaN);
    if (again.touched() == null || !first.rows().paged()) {
      return 0;
    }
    boolean[] written = new boolean[(m2 + KnnRows.PAGE_ROWS - 1) / KnnRows.PAGE_ROWS];
    for (int i : again.touched()) {
      written[i / KnnRows.PAGE_ROWS] = true;
    }
    int shared = 0;
    for (int i = 0; i < m; i += KnnRows.PAGE_ROWS) {
      boolean same = again.rows().neighbourPage(i) == first.rows().neighbourPage(i);
      if (!written[i / KnnRows.PAGE_ROWS]) {
        assertTrue(same, ctx + ": the page of row " + i + ", which the patch did not write, copied");
        shared++;
      }
    }
    return shared;
  }

  /** Reads each row of {@code rows} ({@code k} entries) through its pages into the two arrays. */
  private static void readRows(KnnRows rows, int[] neighbors, float[] weights, int k) {
    for (int i = 0; i < rows.size(); i++) {
      System.arraycopy(rows.neighbourPage(i), rows.start(i), neighbors, i * k, k);
      System.arraycopy(rows.weightPage(i), rows.start(i), weights, i * k, k);
    }
  }

  /** {@code n} rows, each a copy of a random row of {@code pool}. */
  private static float[] pick(Random r, float[] pool, int n, int dim) {
    float[] out = new float[n * dim];
    int p = pool.length / dim;
    for (int i = 0; i < n; i++) {
      System.arraycopy(pool, r.nextInt(p) * dim, out, i * dim, dim);
    }
    return out;
  }

  private static float[] randomUnitRows(Random r, int n, int dim) {
    float[] out = new float[n * dim];
    for (int i = 0; i < n; i++) {
      float[] row = new float[dim];
      for (int d = 0; d < dim; d++) {
        row[d] = (float) r.nextGaussian();
      }
      System.arraycopy(Vectors.normalize(row), 0, out, i * dim, dim);
    }
    return out;
  }
}

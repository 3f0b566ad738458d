package dev.setree.internal.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The oracle's diff ({@link OracleRows#diff}) writes the rows of the members that changed and deletes those of the
 * members gone: no more, whether the old members keep their indexes or are shifted by a removal.
 */
class OracleRowsDiffTest {
  private static final int DIM = 3;

  @Test
  void writesOnlyTheMembersAddedAndDeletesOnlyTheOnesGone() {
    Tree tree = RandomTrees.tree(1, 20, DIM, "t");
    for (long seed = 1; seed <= 40; seed++) {
      Random r = new Random(seed);
      int m = 2 + r.nextInt(60);
      int removed = r.nextInt(3) == 0 ? -1 : r.nextInt(m); // -1: members only added
      int added = r.nextInt(4);
      // The old level: no row lists the member that goes, so every other row stays as it was.
      List<String> ids = new ArrayList<>();
      List<int[]> rows = new ArrayList<>();
      for (int i = 0; i < m; i++) {
        ids.add("m" + i);
        int[] row = new int[Math.min(3, m - 1 - (removed >= 0 && removed != i ? 1 : 0))];
        for (int e = 0, c = r.nextInt(m); e < row.length; c = (c + 1) % m) {
          if (c != i && c != removed) {
            row[e++] = c;
          }
        }
        rows.add(row);
      }
      HierarchyState.Level a = level(ids, rows, r.nextLong());
      // The new level: the same members and rows without the removed one (indexes shifted), new members after.
      int[] oldToNew = new int[m];
      List<String> newIds = new ArrayList<>();
      for (int i = 0; i < m; i++) {
        oldToNew[i] = i == removed ? -1 : newIds.size();
        if (i != removed) {
          newIds.add(ids.get(i));
        }
      }
      List<int[]> newRows = new ArrayList<>();
      for (int i = 0; i < m; i++) {
        if (i != removed) {
          newRows.add(Arrays.stream(rows.get(i)).map(c -> oldToNew[c]).toArray());
        }
      }
      int kept = newIds.size();
      for (int x = 0; x < added; x++) {
        newIds.add("new" + x);
        newRows.add(new int[] {0});
      }
      HierarchyState.Level b = sameRowsAs(a, oldToNew, level(newIds, newRows, r.nextLong()), kept);
      OracleRows.LevelDiff d = OracleRows.diff(new HierarchyState(List.of(a)), tree, new HierarchyState(List.of(b)))
          .levels().get(0);
      String ctx = "seed " + seed + ", " + m + " members, removed " + removed + ", added " + added;
      int[] upserts = new int[added];
      Arrays.setAll(upserts, x -> kept + x);
      assertArrayEquals(upserts, d.upserts(), ctx + ": members written");
      assertArrayEquals(removed < 0 ? new String[0] : new String[] {"m" + removed}, d.deletes(),
          ctx + ": members deleted");
    }
  }

  /** A level 0 of {@code ids} with kNN {@code rows}, random weights and centroids, parents by fours. */
  private static HierarchyState.Level level(List<String> ids, List<int[]> rows, long seed) {
    Random r = new Random(seed);
    int n = ids.size();
    int[] offsets = new int[n + 1];
    for (int i = 0; i < n; i++) {
      offsets[i + 1] = offsets[i] + rows.get(i).length;
    }
    int[] neighbors = new int[offsets[n]];
    float[] weights = new float[offsets[n]];
    for (int i = 0; i < n; i++) {
      System.arraycopy(rows.get(i), 0, neighbors, offsets[i], rows.get(i).length);
      for (int e = offsets[i]; e < offsets[i + 1]; e++) {
        weights[e] = r.nextFloat();
      }
    }
    float[] centroids = new float[n * DIM];
    for (int x = 0; x < centroids.length; x++) {
      centroids[x] = r.nextFloat();
    }
    String[] parents = new String[n];
    Arrays.setAll(parents, i -> "p" + i / 4);
    return new HierarchyState.Level(ids.toArray(new String[0]), centroids, parents, new int[n], offsets,
        neighbors, weights, Double.NaN);
  }

  /** {@code b} with the parents, weights and centroids of its first {@code kept} members, which are {@code a}'s. */
  private static HierarchyState.Level sameRowsAs(HierarchyState.Level a, int[] oldToNew, HierarchyState.Level b,
      int kept) {
    String[] parents = b.parentIds().clone();
    float[] weights = b.knnWeights().clone();
    float[] centroids = b.centroids().clone();
    for (int o = 0; o < oldToNew.length; o++) {
      int i = oldToNew[o];
      if (i >= 0 && i < kept) {
        parents[i] = a.parentIds()[o];
        System.arraycopy(a.knnWeights(), a.knnOffsets()[o], weights, b.knnOffsets()[i],
            a.knnOffsets()[o + 1] - a.knnOffsets()[o]);
        System.arraycopy(a.centroids(), o * DIM, centroids, i * DIM, DIM);
      }
    }
    return new HierarchyState.Level(b.memberIds(), centroids, parents, b.assignment(), b.knnOffsets(),
        b.knnNeighbors(), weights, b.resolution());
  }
}

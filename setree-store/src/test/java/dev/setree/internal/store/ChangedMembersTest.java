package dev.setree.internal.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.setree.internal.core.HierarchyState;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bulk comparison of a level's members kept in place, against a comparison member by member. */
class ChangedMembersTest {
  private static final int DIM = 3;

  /**
   * Random levels, some rows without kNN edges, a few members changed in their parent, one neighbour, one weight
   * or (above level 0) one centroid component, and members appended: exactly the changed members are found.
   */
  @Test
  void findsExactlyTheMembersChangedInPlace() {
    for (long seed = 1; seed <= 40; seed++) {
      Random r = new Random(seed);
      int m = 1 + r.nextInt(60);
      int level = r.nextInt(2);
      HierarchyState.Level a = randomLevel(m, r);
      int added = r.nextInt(4);
      String[] ids = Arrays.copyOf(a.memberIds(), m + added);
      String[] parents = Arrays.copyOf(a.parentIds(), m + added);
      float[] centroids = Arrays.copyOf(a.centroids(), (m + added) * DIM);
      int[] offsets = Arrays.copyOf(a.knnOffsets(), m + added + 1);
      for (int i = m; i < m + added; i++) {
        ids[i] = "new" + i;
        parents[i] = "p0";
        offsets[i + 1] = offsets[i];
      }
      int[] neighbors = a.knnNeighbors().clone();
      float[] weights = a.knnWeights().clone();
      boolean[] want = new boolean[m];
      java.util.List<Integer> knnLog = new java.util.ArrayList<>();
      java.util.List<Integer> centroidLog = new java.util.ArrayList<>();
      for (int c = r.nextInt(5); c > 0; c--) {
        int i = r.nextInt(m);
        int edges = offsets[i + 1] - offsets[i];
        switch (r.nextInt(4)) {
          case 0 -> parents[i] = parents[i] + "x";
          case 1 -> {
            if (edges == 0) {
              continue;
            }
            neighbors[offsets[i] + r.nextInt(edges)] += 1;
            knnLog.add(i);
          }
          case 2 -> {
            if (edges == 0) {
              continue;
            }
            weights[offsets[i] + r.nextInt(edges)] += 0.5f;
            knnLog.add(i);
          }
          default -> {
            if (level == 0) {
              continue; // level 0's centroids are the leaves' embeddings, never compared
            }
            centroids[i * DIM + r.nextInt(DIM)] += 0.25f;
            centroidLog.add(i);
          }
        }
        want[i] = true;
      }
      HierarchyState.Level b = new HierarchyState.Level(ids, centroids, parents, new int[m + added], offsets,
          neighbors, weights, Double.NaN);
      assertArrayEquals(want, ChangedMembers.inPlace(a, b, level, DIM), "seed " + seed);
      // A run's log of the rows it changed, with rows it did not change and new members' rows beside them.
      for (int x = r.nextInt(3); x > 0; x--) {
        knnLog.add(r.nextInt(m + added));
        centroidLog.add(r.nextInt(m + added));
      }
      HierarchyState.Level logged = b.withChangesSince(a, ints(centroidLog), ints(knnLog));
      assertArrayEquals(want, ChangedMembers.inPlace(a, logged, level, DIM), "seed " + seed + ", logged");
    }
  }

  /**
   * A log is read only against the very level it was taken from: against another with the same rows, the rows are
   * compared in bulk. (A log naming no row, read against that other level, would miss the changed row.)
   */
  @Test
  void aLogIsReadAgainstItsOwnLevelOnly() {
    HierarchyState.Level a = randomLevel(6, new Random(5));
    HierarchyState.Level twin = new HierarchyState.Level(a.memberIds(), a.centroids(), a.parentIds(),
        a.assignment(), a.knnOffsets(), a.knnNeighbors(), a.knnWeights(), Double.NaN);
    float[] centroids = a.centroids().clone();
    centroids[4 * DIM] += 1f;
    HierarchyState.Level b = new HierarchyState.Level(a.memberIds(), centroids, a.parentIds(), a.assignment(),
        a.knnOffsets(), a.knnNeighbors(), a.knnWeights(), Double.NaN).withChangesSince(twin, new int[0], new int[0]);
    assertNull(b.changesSince(a, false));
    assertArrayEquals(new boolean[] {false, false, false, false, true, false}, ChangedMembers.inPlace(a, b, 1, DIM));
    assertArrayEquals(new int[0], b.changesSince(twin, false));
  }

  private static int[] ints(java.util.List<Integer> xs) {
    return xs.stream().mapToInt(Integer::intValue).toArray();
  }

  /** A member whose kNN row moved (another row grew) makes the bulk comparison decline. */
  @Test
  void declinesWhenTheKnnRowsMoved() {
    HierarchyState.Level a = randomLevel(5, new Random(3));
    int[] offsets = a.knnOffsets().clone();
    for (int i = 2; i < offsets.length; i++) {
      offsets[i] += 1;
    }
    int[] neighbors = Arrays.copyOf(a.knnNeighbors(), a.knnNeighbors().length + 1);
    float[] weights = Arrays.copyOf(a.knnWeights(), a.knnWeights().length + 1);
    HierarchyState.Level b = new HierarchyState.Level(a.memberIds(), a.centroids(), a.parentIds(), a.assignment(),
        offsets, neighbors, weights, Double.NaN);
    assertNull(ChangedMembers.inPlace(a, b, 1, DIM));
  }

  private static HierarchyState.Level randomLevel(int m, Random r) {
    String[] ids = new String[m];
    String[] parents = new String[m];
    float[] centroids = new float[m * DIM];
    int[] offsets = new int[m + 1];
    for (int i = 0; i < m; i++) {
      ids[i] = "n" + i;
      parents[i] = "p" + r.nextInt(4);
      for (int d = 0; d < DIM; d++) {
        centroids[i * DIM + d] = r.nextFloat();
      }
      offsets[i + 1] = offsets[i] + (r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(3));
    }
    int[] neighbors = new int[offsets[m]];
    float[] weights = new float[offsets[m]];
    for (int e = 0; e < neighbors.length; e++) {
      neighbors[e] = r.nextInt(m);
      weights[e] = r.nextFloat();
    }
    return new HierarchyState.Level(ids, centroids, parents, new int[m], offsets, neighbors, weights, Double.NaN);
  }
}

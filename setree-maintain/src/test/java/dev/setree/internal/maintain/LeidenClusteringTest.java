package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.Vectors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import nl.cwts.networkanalysis.Network;
import org.junit.jupiter.api.Test;

/** Leiden through nl.cwts:networkanalysis on kNN graphs with known structure. */
class LeidenClusteringTest {

  /**
   * The band within which the incremental rebuild keeps a small level's improved communities instead of a
   * fresh resolution search: a quarter of the target count, at least one community either way.
   */
  @Test
  void nearTargetIsAQuarterOfTheTargetCount() {
    LeidenClustering leiden = new LeidenClustering(8, 42);
    assertEquals(97 / 8.0, leiden.target(97), 1e-9); // n / arity
    assertEquals(8.0, leiden.target(40), 1e-9); // never fewer than the arity near the top
    assertEquals(5.0, leiden.target(10), 1e-9); // nor more than half the members
    for (int c = 0; c <= 20; c++) {
      assertEquals(c >= 10 && c <= 15, leiden.nearTarget(c, 97), "communities " + c);
    }
    for (int c = 0; c <= 8; c++) {
      assertEquals(c >= 4 && c <= 6, leiden.nearTarget(c, 10), "communities " + c + " (at least one either way)");
    }
  }

  /**
   * The network of a kNN graph has, for each member, the members linked to it either way, each once, ascending,
   * with the weight of the first of its edges in the order the rows are read (at least the minimum weight).
   */
  @Test
  void networkRowsAreTheDistinctNeighboursWithTheirFirstWeights() {
    Random r = new Random(11);
    for (int round = 0; round < 20; round++) {
      int n = 2 + r.nextInt(40);
      int[] offsets = new int[n + 1];
      List<Integer> nb = new ArrayList<>();
      List<Float> w = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        int k = r.nextInt(6);
        for (int e = 0; e < k; e++) {
          int j = r.nextInt(n);
          if (j != i) {
            nb.add(j);
            w.add(r.nextInt(4) == 0 ? 0f : r.nextFloat());
          }
        }
        offsets[i + 1] = nb.size();
      }
      int[] neighbours = nb.stream().mapToInt(Integer::intValue).toArray();
      float[] weights = new float[w.size()];
      for (int e = 0; e < weights.length; e++) {
        weights[e] = w.get(e);
      }
      // Expected: rows read as the network reads them (each edge into both rows, member by member), first weight kept.
      List<Map<Integer, Double>> expected = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        expected.add(new TreeMap<>());
      }
      List<List<int[]>> entries = new ArrayList<>(); // per row: {neighbour, edge} in fill order
      for (int i = 0; i < n; i++) {
        entries.add(new ArrayList<>());
      }
      for (int i = 0; i < n; i++) {
        for (int e = offsets[i]; e < offsets[i + 1]; e++) {
          entries.get(i).add(new int[] {neighbours[e], e});
          entries.get(neighbours[e]).add(new int[] {i, e});
        }
      }
      for (int i = 0; i < n; i++) {
        for (int[] x : entries.get(i)) {
          expected.get(i).putIfAbsent(x[0], Math.max(LeidenClustering.MIN_WEIGHT, weights[x[1]]));
        }
      }
      Network net = LeidenClustering.network(new KnnGraph(offsets, neighbours, weights));
      assertEquals(n, net.getNNodes());
      for (int i = 0; i < n; i++) {
        int[] got = net.getNeighbors(i);
        double[] gotW = net.getEdgeWeights(i);
        assertArrayEquals(expected.get(i).keySet().stream().mapToInt(Integer::intValue).toArray(), got,
            "round " + round + ", row " + i);
        assertArrayEquals(expected.get(i).values().stream().mapToDouble(Double::doubleValue).toArray(), gotW, 0.0,
            "round " + round + ", row " + i);
      }
    }
  }

  /** Well-separated groups of points are found exactly, whatever the group sizes. */
  @Test
  void findsPlantedGroups() {
    int groups = 12;
    int per = 8;
    int dim = 32;
    Random r = new Random(7);
    float[] m = new float[groups * per * dim];
    for (int g = 0; g < groups; g++) {
      float[] center = new float[dim];
      center[g] = 1f;
      for (int i = 0; i < per; i++) {
        float[] v = center.clone();
        for (int d = 0; d < dim; d++) {
          v[d] += 0.05f * (float) r.nextGaussian();
        }
        Vectors.normalize(v);
        System.arraycopy(v, 0, m, (g * per + i) * dim, dim);
      }
    }
    KnnGraph knn = ExactKnn.allPairs(m, groups * per, dim, 5);
    LeidenClustering.Result res = new LeidenClustering(per, 42).cluster(knn);
    assertEquals(groups, res.communities());
    for (int g = 0; g < groups; g++) {
      Set<Integer> labels = new HashSet<>();
      for (int i = 0; i < per; i++) {
        labels.add(res.assignment()[g * per + i]);
      }
      assertEquals(1, labels.size(), "group " + g + " split: " + labels);
    }
  }

  /** Same seed, same clustering; the resolution search lands near the target arity on random data. */
  @Test
  void deterministicAndNearTargetArity() {
    float[] m = ExactKnnTest.randomUnit(800, 24, new Random(11));
    KnnGraph knn = ExactKnn.allPairs(m, 800, 24, 10);
    LeidenClustering leiden = new LeidenClustering(8, 42);
    LeidenClustering.Result a = leiden.cluster(knn);
    LeidenClustering.Result b = leiden.cluster(knn);
    assertArrayEquals(a.assignment(), b.assignment());
    double meanSize = 800.0 / a.communities();
    assertTrue(meanSize > 4 && meanSize < 16, "mean community size " + meanSize);
  }

  /** The network handed to Leiden is symmetric with floored positive weights. */
  @Test
  void networkIsSymmetric() {
    float[] m = ExactKnnTest.randomUnit(50, 8, new Random(5));
    var net = LeidenClustering.network(ExactKnn.allPairs(m, 50, 8, 3));
    int[][] nb = net.getNeighborsPerNode();
    double[][] w = net.getEdgeWeightsPerNode();
    for (int i = 0; i < nb.length; i++) {
      for (int e = 0; e < nb[i].length; e++) {
        int j = nb[i][e];
        int back = java.util.Arrays.binarySearch(nb[j], i);
        assertTrue(back >= 0, "edge " + i + "-" + j + " has no reverse");
        assertEquals(w[i][e], w[j][back], 1e-9);
        assertTrue(w[i][e] >= LeidenClustering.MIN_WEIGHT);
      }
    }
  }
}

package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The two functions of intentional clustering, alone. */
class IntentionalClusteringTest {

  /** Components over edges at or above the floor; members by score; clusters by seed score. */
  @Test
  void clustersAreComponentsAboveTheFloor() {
    float[] scores = {0.9f, 0.8f, 0.7f, 0.6f, 0.5f, 0.4f};
    // 0-2 strong, 2-4 strong (chain), 1-3 strong, 3-5 weak (below the floor).
    int[] src = {0, 2, 1, 3};
    int[] dst = {2, 4, 3, 5};
    float[] w = {0.9f, 0.5f, 0.7f, 0.3f};
    List<IntentionalClustering.Cluster> cs = IntentionalClustering.clusterCandidates(scores, src, dst, w, 0.4f);
    assertEquals(3, cs.size());
    assertArrayEquals(new int[] {0, 2, 4}, cs.get(0).members());
    assertArrayEquals(new int[] {1, 3}, cs.get(1).members());
    assertArrayEquals(new int[] {5}, cs.get(2).members());
    assertEquals(0, cs.get(0).representative());
    assertEquals(0.9f, cs.get(0).seedScore());
    for (int i = 0; i < cs.size(); i++) {
      assertEquals(i, cs.get(i).id(), "dense ids in seed-score order");
    }
    // An edge exactly at the floor counts.
    assertEquals(1, IntentionalClustering.clusterCandidates(new float[] {1, 1}, new int[] {0}, new int[] {1},
        new float[] {0.4f}, 0.4f).size());
  }

  /** Equal scores: the smaller index ranks first, inside clusters and between them. */
  @Test
  void tiesBreakBySmallerIndex() {
    float[] scores = {0.5f, 0.5f, 0.5f, 0.5f};
    List<IntentionalClustering.Cluster> cs = IntentionalClustering.clusterCandidates(scores, new int[] {3},
        new int[] {1}, new float[] {1f}, 0.4f);
    assertEquals(3, cs.size());
    assertEquals(0, cs.get(0).representative());
    assertArrayEquals(new int[] {1, 3}, cs.get(1).members());
    assertEquals(2, cs.get(2).representative());
  }

  /** Union-find against a naive flood fill on random graphs. */
  @Test
  void unionFindMatchesFloodFill() {
    for (long seed = 1; seed <= 200; seed++) {
      Random r = new Random(seed);
      int n = 1 + r.nextInt(60);
      float[] scores = new float[n];
      for (int i = 0; i < n; i++) {
        scores[i] = r.nextFloat();
      }
      int m = r.nextInt(n * 2 + 1);
      int[] src = new int[m];
      int[] dst = new int[m];
      float[] w = new float[m];
      for (int e = 0; e < m; e++) {
        src[e] = r.nextInt(n);
        dst[e] = r.nextInt(n);
        w[e] = r.nextFloat();
      }
      List<IntentionalClustering.Cluster> cs = IntentionalClustering.clusterCandidates(scores, src, dst, w, 0.5f);
      int[] label = new int[n];
      java.util.Arrays.fill(label, -1);
      int next = 0;
      for (int s = 0; s < n; s++) {
        if (label[s] >= 0) {
          continue;
        }
        List<Integer> stack = new ArrayList<>(List.of(s));
        label[s] = next;
        while (!stack.isEmpty()) {
          int x = stack.remove(stack.size() - 1);
          for (int e = 0; e < m; e++) {
            if (w[e] >= 0.5f && (src[e] == x || dst[e] == x)) {
              int y = src[e] == x ? dst[e] : src[e];
              if (label[y] < 0) {
                label[y] = next;
                stack.add(y);
              }
            }
          }
        }
        next++;
      }
      assertEquals(next, cs.size(), "seed=" + seed);
      Set<Integer> seen = new HashSet<>();
      for (IntentionalClustering.Cluster c : cs) {
        for (int i = 0; i < c.members().length; i++) {
          assertTrue(seen.add(c.members()[i]), "seed=" + seed + ": member twice");
          assertEquals(label[c.members()[0]], label[c.members()[i]], "seed=" + seed);
          if (i > 0) {
            assertTrue(scores[c.members()[i - 1]] >= scores[c.members()[i]], "seed=" + seed);
          }
        }
      }
      assertEquals(n, seen.size());
    }
  }

  /** Stage 1 takes one representative per best cluster, stage 2 fills by score. */
  @Test
  void packTakesRepresentativesThenScores() {
    float[] scores = {0.9f, 0.85f, 0.8f, 0.3f, 0.2f};
    // 0,1,2 form one cluster; 3 and 4 are alone.
    List<IntentionalClustering.Cluster> cs = IntentionalClustering.clusterCandidates(scores, new int[] {0, 1},
        new int[] {1, 2}, new float[] {1, 1}, 0.4f);
    int[] cost = {10, 10, 10, 10, 10};
    assertArrayEquals(new int[] {0, 3, 4, 1, 2},
        IntentionalClustering.packWithClusters(cs, scores, cost, 100, 3, true));
    assertArrayEquals(new int[] {0, 3, 1}, IntentionalClustering.packWithClusters(cs, scores, cost, 30, 2, true));
    assertArrayEquals(new int[] {0, 1, 2}, IntentionalClustering.packWithClusters(cs, scores, cost, 30, 1, true));
    assertArrayEquals(new int[] {0, 1, 2, 3, 4}, IntentionalClustering.packWithClusters(cs, scores, cost, 100, 0,
        true), "no diversity target: pure score order");
  }

  /** A representative that does not fit ends stage 1 with fallback, or is skipped without it. */
  @Test
  void fallbackToScore() {
    float[] scores = {0.9f, 0.5f, 0.4f, 0.3f};
    List<IntentionalClustering.Cluster> cs = IntentionalClustering.clusterCandidates(scores, new int[0],
        new int[0], new float[0], 0.4f);
    int[] cost = {10, 50, 10, 10};
    // Cluster 1's representative (cost 50) does not fit in 40 tokens.
    assertArrayEquals(new int[] {0, 2, 3}, IntentionalClustering.packWithClusters(cs, scores, cost, 40, 3, true));
    assertArrayEquals(new int[] {0, 2, 3}, IntentionalClustering.packWithClusters(cs, scores, cost, 40, 3, false));
    // With fallback, stage 1 stops at cluster 1; stage 2 then fills by score: 2 then 3.
    // Without it, stage 1 skips cluster 1 and takes 2 and 3 as representatives: same set here, but the
    // difference shows when stage 2 would prefer another member.
    float[] s2 = {0.9f, 0.8f, 0.7f, 0.1f};
    List<IntentionalClustering.Cluster> c2 = IntentionalClustering.clusterCandidates(s2, new int[] {0},
        new int[] {2}, new float[] {1f}, 0.4f); // clusters: {0,2}, {1}, {3}
    int[] cost2 = {10, 50, 10, 10};
    assertArrayEquals(new int[] {0, 2}, IntentionalClustering.packWithClusters(c2, s2, cost2, 20, 3, true));
    assertArrayEquals(new int[] {0, 3}, IntentionalClustering.packWithClusters(c2, s2, cost2, 20, 3, false));
  }

  /** Mismatched edge arrays and a negative target are refused. */
  @Test
  void badArguments() {
    assertThrows(IllegalArgumentException.class, () -> IntentionalClustering.clusterCandidates(new float[2],
        new int[] {0}, new int[0], new float[0], 0.4f));
    assertThrows(IllegalArgumentException.class, () -> IntentionalClustering.packWithClusters(List.of(),
        new float[0], new int[0], 10, -1, true));
  }
}

package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The walk on candidate-driven relevance ({@link LeafRelevance#candidates}) and the per-query map it uses,
 * on {@link RandomTrees}.
 */
class CandidateWalkTest {
  private static final ContextFormat FORMAT = new ContextFormat(RandomTrees.COUNTER);
  private static final int CASES = 200;

  private static TreeCoverWalk walk(Random r) {
    return new TreeCoverWalk(new CapabilityScore(r.nextBoolean() ? 0f : 0.5f, 0f), r.nextBoolean() ? 0f : 0.3f,
        r.nextBoolean() ? 0.2f : Float.POSITIVE_INFINITY, FORMAT);
  }

  private static float[] relevance(Random r, int leaves) {
    float[] rel = new float[leaves];
    for (int v = 0; v < leaves; v++) {
      rel[v] = r.nextFloat() * 2 - 0.5f;
    }
    return rel;
  }

  /** The {@code m} best leaves by {@code rel} as candidates, the next one's value the bound of the others. */
  private static LeafRelevance best(float[] rel, int m, LeafRelevance.LeafScore others) {
    int[] order = Ranking.descending(rel);
    int[] leaves = java.util.Arrays.copyOf(order, m);
    float[] values = new float[m];
    for (int i = 0; i < m; i++) {
      values[i] = rel[leaves[i]];
    }
    return LeafRelevance.candidates(leaves, values, m < rel.length ? rel[order[m]] : Float.NEGATIVE_INFINITY, others);
  }

  /** Every leaf a candidate: the very cover of the exact form, whatever the walk's settings. */
  @Test
  void allLeavesAsCandidatesGiveTheExactCover() {
    Random r = new Random(11);
    for (int c = 0; c < CASES; c++) {
      Tree tree = RandomTrees.tree(r.nextLong());
      TreeCoverWalk w = walk(r);
      float[] rel = relevance(r, tree.leafCount());
      int[] all = new int[tree.leafCount()];
      for (int v = 0; v < all.length; v++) {
        all[v] = v;
      }
      LeafRelevance cand = LeafRelevance.candidates(all, rel, Float.NEGATIVE_INFINITY, v -> {
        throw new AssertionError("every leaf is a candidate; leaf " + v + " was asked");
      });
      float[] q = RandomTrees.unit(r);
      int budget = 1 + r.nextInt(400);
      WalkTables tables = WalkTables.of(tree, FORMAT);
      assertEquals(w.walk(tree, rel, q, budget), w.walk(tree, cand, cand, q, budget, tables), "case " + c);
    }
  }

  /**
   * Candidates the best leaves and a true bound for the others: the cover keeps the walk's invariants (within
   * budget, as complete as the exact one) and shows the best candidate whenever it fits alone.
   */
  @Test
  void boundedCandidatesKeepTheInvariants() {
    Random r = new Random(12);
    for (int c = 0; c < CASES; c++) {
      Tree tree = RandomTrees.tree(r.nextLong());
      TreeCoverWalk w = walk(r);
      int n = tree.leafCount();
      float[] rel = relevance(r, n);
      LeafRelevance cand = best(rel, 1 + r.nextInt(n), v -> rel[v]);
      float[] q = RandomTrees.unit(r);
      int budget = 1 + r.nextInt(400);
      Cover exact = w.walk(tree, rel, q, budget);
      Cover got = w.walk(tree, cand, cand, q, budget, WalkTables.of(tree, FORMAT));
      assertTrue(got.tokensUsed() <= budget, "case " + c);
      int sum = got.items().stream().mapToInt(Cover.Item::cost).sum();
      assertEquals(sum, got.tokensUsed(), "case " + c);
      assertEquals(exact.complete(), got.complete(), "case " + c);
    }
  }

  /**
   * A leaf child that is not a candidate gets its relevance from the cosine the walk computed for its capability
   * score (the same bits as {@link Tree#embeddingDot}), not from a second dot product; with {@code beta} 0 the
   * walk reads no centroid, so it computes no cosine for it either. The cover is the one a single-form score
   * gives.
   */
  @Test
  void aNonCandidateLeafIsScoredFromTheCosineTheWalkComputed() {
    Random r = new Random(14);
    int asked = 0;
    for (int c = 0; c < CASES; c++) {
      Tree tree = RandomTrees.tree(r.nextLong());
      boolean readsCentroids = r.nextBoolean();
      TreeCoverWalk w = new TreeCoverWalk(new CapabilityScore(readsCentroids ? 0.5f : 0f, 0f), 0.3f, 0.2f, FORMAT);
      float[] q = RandomTrees.unit(r);
      int n = tree.leafCount();
      float[] rel = new float[n];
      for (int v = 0; v < n; v++) {
        rel[v] = tree.embeddingDot(v, q);
      }
      int m = 1 + r.nextInt(n);
      int[] calls = new int[1];
      LeafRelevance.LeafScore fromCosine = new LeafRelevance.LeafScore() {
        @Override
        public float of(int v) { // a leaf requeued when its carrying summary went: no cosine at hand
          return rel[v];
        }

        @Override
        public float of(int v, float cosine) {
          if (!readsCentroids) {
            throw new AssertionError("a cosine computed for leaf " + v + " that the walk's score does not read");
          }
          assertEquals(Float.floatToIntBits(rel[v]), Float.floatToIntBits(cosine), "leaf " + v);
          calls[0]++;
          return cosine;
        }
      };
      LeafRelevance cand = best(rel, m, fromCosine);
      LeafRelevance single = best(rel, m, v -> rel[v]);
      int budget = 1 + r.nextInt(400);
      WalkTables tables = WalkTables.of(tree, FORMAT);
      assertEquals(w.walk(tree, single, single, q, budget, tables), w.walk(tree, cand, cand, q, budget, tables),
          "case " + c);
      asked += calls[0];
    }
    assertTrue(asked > 0, "some leaf that is not a candidate was scored from the cosine the walk computed");
  }

  /** The per-query map agrees with a HashMap under random puts, maxima and growth. */
  @Test
  void intFloatMapBehavesLikeAMap() {
    Random r = new Random(13);
    IntFloatMap map = new IntFloatMap(4);
    Map<Integer, Float> ref = new HashMap<>();
    for (int i = 0; i < 20_000; i++) {
      int key = r.nextInt(5_000);
      float value = r.nextFloat();
      if (r.nextBoolean()) {
        map.put(key, value);
        ref.put(key, value);
      } else {
        map.max(key, value);
        ref.merge(key, value, Math::max);
      }
      int probe = r.nextInt(6_000);
      assertEquals(ref.getOrDefault(probe, -1f), map.get(probe, -1f), "key " + probe);
    }
  }
}

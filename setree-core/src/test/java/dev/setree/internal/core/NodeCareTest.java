package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link NodeCare} of candidate-driven relevance against a reference that walks every candidate's ancestors
 * with plain maps: the best candidate under each node, and whether the bound stands for leaves under it that
 * are not candidates.
 */
class NodeCareTest {

  @Test
  void candidateCareIsTheBestCandidateUnderTheNodeRaisedToTheBound() {
    Random r = new Random(5);
    for (int c = 0; c < 300; c++) {
      Tree tree = c % 3 == 0 ? RandomTrees.tree(r, 1 + r.nextInt(3000)) : RandomTrees.tree(r.nextLong());
      int n = tree.leafCount();
      int m = r.nextInt(n + 1);
      int[] leaves = r.ints(0, n).distinct().limit(m).toArray();
      float[] values = new float[leaves.length];
      for (int i = 0; i < values.length; i++) {
        values[i] = r.nextInt(4) == 0 ? 0.5f : r.nextFloat(); // ties too
      }
      float bound = r.nextBoolean() ? Float.NEGATIVE_INFINITY : r.nextFloat();
      LeafRelevance rel = LeafRelevance.candidates(leaves, values, bound, v -> -1f);
      NodeCare care = NodeCare.of(tree, rel);

      Map<Integer, Float> best = new HashMap<>();
      Map<Integer, Integer> count = new HashMap<>();
      for (int i = 0; i < leaves.length; i++) {
        for (int a = tree.parent(leaves[i]); a >= 0; a = tree.parent(a)) {
          best.merge(a, values[i], Math::max);
          count.merge(a, 1, Integer::sum);
        }
      }
      for (int v = 0; v < tree.size(); v++) {
        if (tree.isLeaf(v)) {
          continue;
        }
        boolean others = count.getOrDefault(v, 0) < tree.leavesUnder(v);
        float b = best.getOrDefault(v, Float.NEGATIVE_INFINITY);
        float want = others && bound > b ? bound : b;
        assertEquals(want, care.of(v), "case " + c + ", node " + v);
        assertEquals(others && bound > b, care.bounded(v), "case " + c + ", node " + v + " bounded");
      }
    }
  }
}

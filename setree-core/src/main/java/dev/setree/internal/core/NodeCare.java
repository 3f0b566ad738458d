package dev.setree.internal.core;

import java.util.Arrays;

/**
 * Care of every node for one prompt: the best leaf relevance under it (see {@link CapabilityScore}). From
 * exact relevance it is one ascending pass over the tree; from candidate-driven relevance it is the best
 * candidate under the node, raised to the bound of the other leaves when the node holds one, computed by
 * walking each candidate's ancestors only.
 */
abstract class NodeCare {

  /** The care of node {@code v}. */
  abstract float of(int v);

  /**
   * The care of leaf {@code leaf} whose cosine with the prompt is known ({@link LeafRelevance#leaf(int, float)}):
   * the same value as {@link #of}.
   */
  float ofLeaf(int leaf, float cosine) {
    return of(leaf);
  }

  /** True when {@code v}'s care is the bound of its non-candidate leaves, not a leaf's value. */
  boolean bounded(int v) {
    return false;
  }

  static NodeCare of(Tree tree, LeafRelevance relevance) {
    return relevance.isExact() ? new Exact(tree, relevance.exact()) : new Candidates(tree, relevance);
  }

  /** Every node's care in one array. */
  private static final class Exact extends NodeCare {
    private final float[] care;

    Exact(Tree tree, float[] leafRelevance) {
      int n = tree.size();
      int leaves = tree.leafCount();
      if (leafRelevance.length != leaves) {
        throw new IllegalArgumentException(
            "leaf relevance has " + leafRelevance.length + " entries for " + leaves + " leaves");
      }
      care = new float[n];
      Arrays.fill(care, leaves, n, Float.NEGATIVE_INFINITY);
      System.arraycopy(leafRelevance, 0, care, 0, leaves);
      for (int v = 0; v < n; v++) {
        int p = tree.parent(v);
        if (p >= 0 && care[v] > care[p]) {
          care[p] = care[v];
        }
      }
    }

    @Override
    float of(int v) {
      return care[v];
    }
  }

  /** Care from the candidates' ancestors; the bound stands for every other leaf. */
  private static final class Candidates extends NodeCare {
    private final Tree tree;
    private final LeafRelevance relevance;
    private final IntFloatMap best;
    private final IntFloatMap count;

    Candidates(Tree tree, LeafRelevance relevance) {
      this.tree = tree;
      this.relevance = relevance;
      int[] leaves = relevance.candidateLeaves();
      float[] values = relevance.candidateValues();
      int expected = 2 * leaves.length + 16; // candidates share most ancestors; the maps grow if needed
      best = new IntFloatMap(expected);
      count = new IntFloatMap(expected);
      for (int i = 0; i < leaves.length; i++) {
        for (int a = tree.parent(leaves[i]); a >= 0; a = tree.parent(a)) {
          best.max(a, values[i]);
          count.put(a, count.get(a, 0f) + 1f);
        }
      }
    }

    @Override
    boolean bounded(int v) {
      return !tree.isLeaf(v) && count.get(v, 0f) < tree.leavesUnder(v)
          && relevance.others() > best.get(v, Float.NEGATIVE_INFINITY);
    }

    @Override
    float ofLeaf(int leaf, float cosine) {
      return relevance.leaf(leaf, cosine);
    }

    @Override
    float of(int v) {
      if (tree.isLeaf(v)) {
        return relevance.leaf(v);
      }
      float c = best.get(v, Float.NEGATIVE_INFINITY);
      if (count.get(v, 0f) < tree.leavesUnder(v) && relevance.others() > c) {
        c = relevance.others();
      }
      return c;
    }
  }
}

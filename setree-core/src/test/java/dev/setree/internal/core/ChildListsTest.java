package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ChildLists} against each node's children sorted by their first leaf, found by a walk up from every leaf, and
 * the tree's leaves under each node and subtree depths, which {@link SubtreeSizes} sums over those lists, against the
 * same walk.
 */
class ChildListsTest {

  /** Runs {@code check} on 60 random trees, the first ten of at most three leaves, with a label naming the seed. */
  private static void onRandomTrees(java.util.function.BiConsumer<Tree, String> check) {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    for (int round = 0; round < 60; round++) {
      check.accept(RandomTrees.tree(r, 1 + r.nextInt(round < 10 ? 3 : 400)), "seed=" + seed + " round " + round);
    }
  }

  @Test
  void listsEachNodesChildrenByFirstLeaf() {
    onRandomTrees((tree, where) -> {
      int n = tree.size();
      int[] parent = new int[n];
      for (int v = 0; v < n; v++) {
        parent[v] = tree.parent(v);
      }
      int[] firstLeaf = new int[n];
      java.util.Arrays.fill(firstLeaf, Integer.MAX_VALUE);
      for (int leaf = tree.leafCount() - 1; leaf >= 0; leaf--) {
        for (int v = leaf; v >= 0; v = parent[v]) {
          firstLeaf[v] = leaf;
        }
      }
      List<List<Integer>> expected = new ArrayList<>();
      for (int v = 0; v < n; v++) {
        expected.add(new ArrayList<>());
      }
      for (int v = 0; v < n; v++) {
        if (parent[v] >= 0) {
          expected.get(parent[v]).add(v);
        }
      }
      int[] offsets = new int[n + 1];
      List<Integer> all = new ArrayList<>();
      for (int v = 0; v < n; v++) {
        expected.get(v).sort(Comparator.comparingInt(c -> firstLeaf[c]));
        all.addAll(expected.get(v));
        offsets[v + 1] = all.size();
      }
      ChildLists lists = ChildLists.inTreeOrder(parent, tree.leafCount());
      // Rows per internal node only: a leaf has none (its entries in the per-node offsets are all 0).
      assertArrayEquals(java.util.Arrays.copyOfRange(offsets, tree.leafCount(), n + 1), lists.offsets(), where);
      assertArrayEquals(all.stream().mapToInt(Integer::intValue).toArray(), lists.children(), where);
      for (int v = 0; v < n; v++) { // the tree's answers, a leaf's included (no row, no children)
        assertEquals(expected.get(v).size(), tree.childCount(v), where + ": node " + v + "'s child count");
        for (int i = 0; i < expected.get(v).size(); i++) {
          assertEquals(expected.get(v).get(i), tree.child(v, i), where + ": node " + v + "'s child " + i);
        }
      }
    });
  }

  @Test
  void leavesUnderAndDepthsAgreeWithAWalkUpFromEveryLeaf() {
    onRandomTrees((tree, round) -> {
      int n = tree.size();
      int[] under = new int[n];
      int[] depth = new int[n];
      for (int leaf = 0; leaf < tree.leafCount(); leaf++) {
        int d = 0;
        for (int v = leaf; v >= 0; v = tree.parent(v), d++) {
          under[v]++;
          depth[v] = Math.max(depth[v], d);
        }
      }
      for (int v = 0; v < n; v++) {
        String where = round + " node " + v;
        org.junit.jupiter.api.Assertions.assertEquals(under[v], tree.leavesUnder(v), where);
        org.junit.jupiter.api.Assertions.assertEquals(depth[v], tree.subtreeDepth(v), where);
      }
    });
  }
}

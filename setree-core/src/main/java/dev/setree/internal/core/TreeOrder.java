package dev.setree.internal.core;

import java.util.Arrays;
import java.util.List;

/**
 * Puts a few nodes of a tree in tree order (pre-order: a node before its descendants, siblings in their order), from
 * each node's path of child positions, without a table over every node. A cover lists a few hundred nodes, so its
 * order costs each of them a walk to the root; a rank table would cost the snapshot a pass over every node, made for
 * every snapshot whether or not a prompt comes (about a third of {@link WalkTables} at a million leaves).
 */
final class TreeOrder {
  private TreeOrder() {}

  /** Sorts {@code nodes[0..m)} into tree order; a node listed twice stays twice, side by side. */
  static void sort(Tree tree, int[] nodes, int m) {
    int[][] paths = new int[m][];
    Integer[] order = new Integer[m];
    for (int i = 0; i < m; i++) {
      paths[i] = path(tree, nodes[i]);
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Arrays.compare(paths[a], paths[b]));
    int[] sorted = new int[m];
    for (int i = 0; i < m; i++) {
      sorted[i] = nodes[order[i]];
    }
    System.arraycopy(sorted, 0, nodes, 0, m);
  }

  /**
   * The positions among their siblings of the nodes from the root's child down to {@code v}: empty for the root.
   * An ancestor's path is a prefix of its descendants', and {@link Arrays#compare} puts a prefix first.
   */
  static int[] path(Tree tree, int v) {
    int depth = 0;
    for (int a = v; tree.parent(a) >= 0; a = tree.parent(a)) {
      depth++;
    }
    int[] path = new int[depth];
    for (int a = v, d = depth - 1; d >= 0; a = tree.parent(a), d--) {
      path[d] = position(tree, tree.parent(a), a);
    }
    return path;
  }

  private static int position(Tree tree, int parent, int child) {
    for (int i = 0, k = tree.childCount(parent); i < k; i++) {
      if (tree.child(parent, i) == child) {
        return i;
      }
    }
    throw new IllegalStateException("node " + child + " is not among its parent's children");
  }

  /** Adds the leaves under {@code v} to {@code out}, in tree order. */
  static void collectLeaves(Tree tree, int v, List<Integer> out) {
    if (tree.isLeaf(v)) {
      out.add(v);
      return;
    }
    for (int i = 0; i < tree.childCount(v); i++) {
      collectLeaves(tree, tree.child(v, i), out);
    }
  }
}

package dev.setree.internal.core;

import java.util.Arrays;

/**
 * The children of every node as compressed sparse rows, in tree order: a node's children are ordered by
 * their first leaf (ties in index order), so that reading them left to right visits the leaves in order.
 * Built in time linear in the nodes.
 *
 * @param offsets node {@code v}'s children are {@code children[offsets[v] .. offsets[v + 1])}
 * @param children the children of all nodes, row after row
 */
record ChildLists(int[] offsets, int[] children) {

  /** The child lists of the tree given by {@code parent} (-1 for the root), leaves being {@code 0..leafCount-1}. */
  static ChildLists inTreeOrder(int[] parent, int leafCount) {
    int n = parent.length;
    int[] count = new int[n + 1];
    for (int v = 0; v < n; v++) {
      if (parent[v] >= 0) {
        count[parent[v] + 1]++;
      }
    }
    for (int v = 0; v < n; v++) {
      count[v + 1] += count[v];
    }
    int[] firstLeaf = new int[n];
    Arrays.fill(firstLeaf, Integer.MAX_VALUE);
    for (int v = 0; v < n; v++) {
      if (v < leafCount) {
        firstLeaf[v] = v;
      }
      if (parent[v] >= 0) {
        firstLeaf[parent[v]] = Math.min(firstLeaf[parent[v]], firstLeaf[v]);
      }
    }
    int[] order = byFirstLeaf(firstLeaf, leafCount);
    int[] children = new int[Math.max(0, n - 1)];
    int[] fill = Arrays.copyOf(count, n);
    for (int v : order) {
      if (parent[v] >= 0) {
        children[fill[parent[v]]++] = v;
      }
    }
    return new ChildLists(count, children);
  }

  /**
   * The nodes ordered by their first leaf, ties in index order: a stable counting sort (first leaves are
   * leaf indexes, or {@code Integer.MAX_VALUE} for a node without leaves), linear in the nodes.
   */
  private static int[] byFirstLeaf(int[] firstLeaf, int leafCount) {
    int n = firstLeaf.length;
    int[] start = new int[leafCount + 2];
    for (int v = 0; v < n; v++) {
      start[bucket(firstLeaf[v], leafCount) + 1]++;
    }
    for (int b = 0; b <= leafCount; b++) {
      start[b + 1] += start[b];
    }
    int[] order = new int[n];
    for (int v = 0; v < n; v++) {
      order[start[bucket(firstLeaf[v], leafCount)]++] = v;
    }
    return order;
  }

  private static int bucket(int firstLeaf, int leafCount) {
    return firstLeaf == Integer.MAX_VALUE ? leafCount : firstLeaf;
  }
}

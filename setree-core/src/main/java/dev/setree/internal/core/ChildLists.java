package dev.setree.internal.core;

import java.util.Arrays;

/**
 * The children of every node as compressed sparse rows, in tree order: a node's children are ordered by
 * their first leaf, so that reading them left to right visits the leaves in order. Built in time linear in the
 * nodes, by one walk up from the leaves in order: a node is listed under its parent when the walk first reaches it,
 * which is at its first leaf. A counting sort by first leaf, which it replaced, read every node's entry in two more
 * arrays: in profiles of 30 maintenance runs at a million leaves, 331 of the freeze's 1,351 samples against 183.
 *
 * @param offsets node {@code v}'s children are {@code children[offsets[v] .. offsets[v + 1])}
 * @param children the children of all nodes, row after row
 */
record ChildLists(int[] offsets, int[] children) {

  /**
   * The child lists of the tree given by {@code parent} (-1 for the root), leaves being {@code 0..leafCount-1}. A node
   * with no leaf under it is not listed: then some internal node has no children, which the caller refuses.
   */
  static ChildLists inTreeOrder(int[] parent, int leafCount) {
    int n = parent.length;
    int[] offsets = new int[n + 1];
    for (int v = 0; v < n; v++) {
      if (parent[v] >= 0) {
        offsets[parent[v] + 1]++;
      }
    }
    for (int v = 0; v < n; v++) {
      offsets[v + 1] += offsets[v];
    }
    // fill[p]: where p's next child goes; p's first child is listed when the walk first reaches p.
    int[] fill = Arrays.copyOf(offsets, n);
    int[] children = new int[Math.max(0, n - 1)];
    for (int leaf = 0; leaf < leafCount; leaf++) {
      int v = leaf;
      int p = parent[v];
      while (p >= 0) {
        boolean reached = fill[p] > offsets[p]; // listed under its own parent already
        children[fill[p]++] = v;
        if (reached) {
          break;
        }
        v = p;
        p = parent[v];
      }
    }
    return new ChildLists(offsets, children);
  }
}

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
   * {@link #inTreeOrder} of the tree given by {@code parent} when it is {@code base}'s tree (given by
   * {@code baseParent}, with {@code baseLeaves} leaves) with leaves appended and nothing else changed: every node of
   * the base keeps its parent (internal nodes moved up by the new leaves), and each new leaf, whose first leaf is the
   * largest, goes last among its parent's children. The base's rows are copied, internal children shifted, without
   * the two counting sorts: a maintenance run that inserts a fact changes no other parent. Null when the tree is not
   * such.
   */
  static ChildLists appended(ChildLists base, int[] baseParent, int baseLeaves, int[] parent, int leafCount) {
    int n = parent.length;
    int shift = leafCount - baseLeaves;
    if (shift < 0 || baseParent.length + shift != n || baseLeaves == baseParent.length) {
      return null;
    }
    for (int v = 0; v < n; v++) {
      if (v >= baseLeaves && v < leafCount) {
        if (parent[v] < leafCount) {
          return null; // a new leaf's parent is an internal node
        }
      } else {
        int p = baseParent[v < baseLeaves ? v : v - shift];
        if (parent[v] != (p < 0 ? -1 : p + shift)) {
          return null;
        }
      }
    }
    int[] offsets = new int[n + 1];
    int[] bo = base.offsets();
    for (int v = leafCount; v < n; v++) {
      offsets[v + 1] = bo[v - shift + 1] - bo[v - shift];
    }
    for (int v = baseLeaves; v < leafCount; v++) {
      offsets[parent[v] + 1]++;
    }
    for (int v = 0; v < n; v++) {
      offsets[v + 1] += offsets[v];
    }
    int[] children = new int[Math.max(0, n - 1)];
    int[] bc = base.children();
    int[] fill = new int[n];
    for (int v = leafCount; v < n; v++) {
      int at = offsets[v];
      for (int e = bo[v - shift]; e < bo[v - shift + 1]; e++) {
        int c = bc[e];
        children[at++] = c < baseLeaves ? c : c + shift;
      }
      fill[v] = at;
    }
    for (int v = baseLeaves; v < leafCount; v++) {
      children[fill[parent[v]]++] = v;
    }
    ChildLists lists = new ChildLists(offsets, children);
    assert lists.equals(inTreeOrder(parent, leafCount)) : "the appended lists are not the tree's";
    return lists;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ChildLists c && Arrays.equals(offsets, c.offsets) && Arrays.equals(children, c.children);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(offsets) + Arrays.hashCode(children);
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

package dev.setree.internal.core;

import java.util.Arrays;

/**
 * The leaves under each internal node of a tree and its subtree depth, summed over its child lists
 * ({@link ChildLists}), children before parents (every node's parent has a larger index). A leaf counts 1 and has
 * depth 0, and is not kept: node v's entries are at {@code v - leafCount}. A pass in which each node added itself into
 * its parent's entries wrote to every leaf's parent, all over the arrays, in each maintenance run's freeze; arrays
 * with an entry per leaf were made and filled in each one.
 *
 * @param leaves per internal node, the leaves under it
 * @param depths per internal node, the longest path down to a leaf
 */
record SubtreeSizes(int[] leaves, int[] depths) {

  /** The sizes of the tree of {@code n} nodes whose first {@code leafCount} are leaves, with these child lists. */
  static SubtreeSizes of(ChildLists lists, int leafCount, int n) {
    int[] offsets = lists.offsets(); // internal node v's row at v - leafCount
    int[] children = lists.children();
    int[] leaves = new int[n - leafCount];
    int[] depths = new int[n - leafCount];
    for (int v = leafCount; v < n; v++) {
      int under = 0;
      int depth = 0;
      for (int e = offsets[v - leafCount]; e < offsets[v - leafCount + 1]; e++) {
        int c = children[e];
        if (c < leafCount) {
          under++;
          depth = Math.max(depth, 1);
        } else {
          under += leaves[c - leafCount];
          depth = Math.max(depth, depths[c - leafCount] + 1);
        }
      }
      leaves[v - leafCount] = under;
      depths[v - leafCount] = depth;
    }
    return new SubtreeSizes(leaves, depths);
  }

  /**
   * The sizes of the tree of these child lists from {@code shape}: each internal node outside {@link ShapeFrom#redo}
   * has its base node's, each node of it its own, summed over its children. What {@link #of} gives (checked under
   * assertions).
   */
  static SubtreeSizes derived(ShapeFrom shape, ChildLists lists, int leafCount, int n) {
    Tree base = shape.base();
    int[] previous = shape.previous();
    int[] redo = shape.redo();
    int[] leaves = new int[n - leafCount];
    int[] depths = new int[n - leafCount];
    int baseLeaves = base.leafCount();
    SubtreeSizes old = base.sizes();
    for (int v = leafCount, r = 0; v < n; ) {
      if (r < redo.length && redo[r] == v) {
        r++;
        v++;
        continue;
      }
      int o = previous[v - leafCount] - baseLeaves;
      int end = shape.runEnd(v, r < redo.length ? redo[r] : n, leafCount);
      System.arraycopy(old.leaves, o, leaves, v - leafCount, end - v);
      System.arraycopy(old.depths, o, depths, v - leafCount, end - v);
      v = end;
    }
    int[] children = lists.children();
    for (int v : redo) { // children before parents
      int under = 0;
      int depth = 0;
      for (int e = lists.start(v); e < lists.end(v); e++) {
        int c = children[e];
        under += c < leafCount ? 1 : leaves[c - leafCount];
        depth = Math.max(depth, c < leafCount ? 1 : depths[c - leafCount] + 1);
      }
      leaves[v - leafCount] = under;
      depths[v - leafCount] = depth;
    }
    SubtreeSizes sizes = new SubtreeSizes(leaves, depths);
    assert sizes.same(of(lists, leafCount, n)) : "the sizes copied from the base are not the tree's";
    return sizes;
  }

  /** Whether {@code other} holds the same sizes. */
  boolean same(SubtreeSizes other) {
    return Arrays.equals(leaves, other.leaves) && Arrays.equals(depths, other.depths);
  }
}

package dev.setree.internal.core;

import java.util.function.IntFunction;

/**
 * The leaves each internal node's summary quotes whole, as compressed sparse rows over the internal nodes (as
 * {@link ChildLists} holds the children); a leaf quotes none, and has no row.
 *
 * @param leafCount the tree's leaf count: internal node {@code v}'s row is row {@code v - leafCount}
 * @param offsets row {@code r}'s quoted leaves are {@code leaves[offsets[r] .. offsets[r + 1])}
 * @param leaves the quoted leaves of all internal nodes, row after row
 */
record SourceLists(int leafCount, int[] offsets, int[] leaves) {

  /** Number of leaves node {@code v} quotes. */
  int count(int v) {
    return v < leafCount ? 0 : offsets[v - leafCount + 1] - offsets[v - leafCount];
  }

  /** The {@code i}-th leaf node {@code v} quotes. */
  int get(int v, int i) {
    return leaves[offsets[v - leafCount] + i];
  }

  /** The leaves node {@code v} quotes: a new array. */
  int[] copy(int v) {
    return v < leafCount ? new int[0]
        : java.util.Arrays.copyOfRange(leaves, offsets[v - leafCount], offsets[v - leafCount + 1]);
  }

  /**
   * The rows of {@code perNode} (null, or per node its quoted leaves, null for none; or the same per internal node,
   * {@code n - leafCount} entries, which says that no leaf quotes) for {@code n} nodes.
   *
   * @throws IllegalArgumentException when a leaf quotes a leaf, or a quoted index is not a leaf's
   *     ({@code 0..leafCount-1}); the message names the node by its id, {@code ids} gives it
   */
  static SourceLists of(int[][] perNode, int n, int leafCount, IntFunction<String> ids) {
    int inner = Math.max(0, n - leafCount);
    int[] offsets = new int[inner + 1];
    if (perNode == null) {
      return new SourceLists(leafCount, offsets, new int[0]);
    }
    int at = first(perNode, n, leafCount); // node v's entry at v - at
    for (int v = at; v < n; v++) {
      if (perNode[v - at] == ShapeFrom.BASE_SOURCES) {
        throw new IllegalArgumentException(ids.apply(v) + " takes its quoted leaves from a base tree, and none is"
            + " given");
      }
      if (v < leafCount && perNode[v - at] != null && perNode[v - at].length > 0) {
        throw new IllegalArgumentException("leaf " + ids.apply(v) + " quotes leaves: only a summary quotes");
      }
    }
    for (int r = 0; r < inner; r++) {
      int[] own = perNode[leafCount + r - at];
      offsets[r + 1] = offsets[r] + (own == null ? 0 : own.length);
    }
    int[] leaves = new int[offsets[inner]];
    for (int r = 0; r < inner; r++) {
      copyChecked(perNode[leafCount + r - at], leaves, offsets[r], leafCount, ids.apply(leafCount + r));
    }
    return new SourceLists(leafCount, offsets, leaves);
  }

  /**
   * The first node {@code perNode} has an entry for: 0 when it has one per node, the leaf count when it has one per
   * internal node.
   */
  private static int first(int[][] perNode, int n, int leafCount) {
    if (perNode.length != n && perNode.length != n - leafCount) {
      throw new IllegalArgumentException("sourceLeafIndex has length " + perNode.length + ", expected " + n
          + " (per node) or " + (n - leafCount) + " (per internal node)");
    }
    return n - perNode.length;
  }

  /**
   * {@link #of} for a tree given its shape from the tree before ({@link ShapeFrom}), reading the internal nodes'
   * entries only (a leaf quotes none): an internal node whose entry is {@link ShapeFrom#BASE_SOURCES} quotes the
   * leaves its base node quotes, copied from the base's rows one run of such nodes at a time (nodes the base holds one
   * after another), with no per-node array made or read. A maintenance run's freeze at a million leaves had made an
   * array for each of the base's internal nodes, and read an entry for each of its million leaves, here.
   *
   * @throws IllegalArgumentException as {@link #of} does, and for {@link ShapeFrom#BASE_SOURCES} given to a node
   *     made since the base
   */
  static SourceLists derived(ShapeFrom shape, int[][] perNode, int n, int leafCount, IntFunction<String> ids) {
    if (perNode == null) {
      return of(null, n, leafCount, ids);
    }
    int at = first(perNode, n, leafCount); // node v's entry at v - at; a leaf's is not read
    SourceLists base = shape.base().sourceLists();
    int inner = Math.max(0, n - leafCount);
    int[] offsets = new int[inner + 1];
    int[] runs = new int[16]; // start and end row of each run of rows copied from the base
    int count = 0;
    for (int r = 0; r < inner; ) {
      int[] own = perNode[leafCount + r - at];
      if (own != ShapeFrom.BASE_SOURCES) {
        offsets[r + 1] = offsets[r] + (own == null ? 0 : own.length);
        r++;
        continue;
      }
      int stop = r + 1; // the rows up to stop take the base's; runs of them lie one after another there
      while (stop < inner && perNode[leafCount + stop - at] == ShapeFrom.BASE_SOURCES) {
        stop++;
      }
      for (int u = r; u < stop; ) {
        if (shape.previous()[u] < 0) {
          throw new IllegalArgumentException(ids.apply(leafCount + u) + " takes its quoted leaves from a base node it"
              + " does not have");
        }
        int end = shape.runEnd(leafCount + u, leafCount + stop, leafCount) - leafCount;
        int o = shape.previous()[u] - base.leafCount - u; // the base's row of row x is o + x within the run
        for (int x = u; x < end; x++) {
          offsets[x + 1] = offsets[x] + base.offsets[o + x + 1] - base.offsets[o + x];
        }
        if (count == runs.length) {
          runs = java.util.Arrays.copyOf(runs, 2 * count);
        }
        runs[count++] = u;
        runs[count++] = end;
        u = end;
      }
      r = stop;
    }
    int[] leaves = new int[offsets[inner]];
    for (int r = 0; r < inner; r++) {
      int[] own = perNode[leafCount + r - at];
      if (own != ShapeFrom.BASE_SOURCES) {
        copyChecked(own, leaves, offsets[r], leafCount, ids.apply(leafCount + r));
      }
    }
    for (int x = 0; x < count; x += 2) { // a run's rows in one copy
      int u = runs[x];
      // The base's quoted leaves are its first leaves, this tree's too (ShapeFrom): no index to check.
      System.arraycopy(base.leaves, base.offsets[shape.previous()[u] - base.leafCount], leaves, offsets[u],
          offsets[runs[x + 1]] - offsets[u]);
    }
    SourceLists lists = new SourceLists(leafCount, offsets, leaves);
    assert lists.sameAs(of(expanded(shape, perNode, n, leafCount), n, leafCount, ids))
        : "quoted leaves copied from the base differ from the lists given";
    return lists;
  }

  /** Copies {@code own} (null: none) to {@code leaves} at {@code at}, each checked to be a leaf's index. */
  private static void copyChecked(int[] own, int[] leaves, int at, int leafCount, String id) {
    if (own == null) {
      return;
    }
    for (int leaf : own) {
      if (leaf < 0 || leaf >= leafCount) {
        throw new IllegalArgumentException("summary source " + leaf + " of " + id + " is not a leaf");
      }
    }
    System.arraycopy(own, 0, leaves, at, own.length);
  }

  /**
   * The lists given, the base's copied in for each internal node that takes them from there, the leaves' left out
   * (for the check under assertions).
   */
  private static int[][] expanded(ShapeFrom shape, int[][] perNode, int n, int leafCount) {
    int[][] out = new int[n][];
    int at = n - perNode.length;
    for (int v = leafCount; v < n; v++) {
      out[v] = perNode[v - at] == ShapeFrom.BASE_SOURCES ? shape.base().sources(shape.previous()[v - leafCount])
          : perNode[v - at];
    }
    return out;
  }

  /** Whether these lists hold the same rows as {@code other}'s. */
  boolean sameAs(SourceLists other) {
    return leafCount == other.leafCount && java.util.Arrays.equals(offsets, other.offsets)
        && java.util.Arrays.equals(leaves, other.leaves);
  }
}

package dev.setree.internal.core;

/**
 * The leaves each node's summary quotes whole, as compressed sparse rows (as {@link ChildLists} holds the
 * children).
 *
 * @param offsets node {@code v}'s quoted leaves are {@code leaves[offsets[v] .. offsets[v + 1])}
 * @param leaves the quoted leaves of all nodes, row after row
 */
record SourceLists(int[] offsets, int[] leaves) {

  /**
   * The rows of {@code perNode} (null, or per node its quoted leaves, null for none) for {@code n} nodes.
   *
   * @throws IllegalArgumentException when a quoted index is not a leaf's ({@code 0..leafCount-1}); the message
   *     names the node by its id in {@code ids}
   */
  static SourceLists of(int[][] perNode, int n, int leafCount, String[] ids) {
    int[] offsets = new int[n + 1];
    if (perNode == null) {
      return new SourceLists(offsets, new int[0]);
    }
    TreeChecks.length("sourceLeafIndex", perNode.length, n);
    for (int v = 0; v < n; v++) {
      if (perNode[v] == ShapeFrom.BASE_SOURCES) {
        throw new IllegalArgumentException(ids[v] + " takes its quoted leaves from a base tree, and none is given");
      }
      offsets[v + 1] = offsets[v] + (perNode[v] == null ? 0 : perNode[v].length);
    }
    int[] leaves = new int[offsets[n]];
    for (int v = 0; v < n; v++) {
      if (perNode[v] != null) {
        for (int leaf : perNode[v]) {
          if (leaf < 0 || leaf >= leafCount) {
            throw new IllegalArgumentException("summary source " + leaf + " of " + ids[v] + " is not a leaf");
          }
        }
        System.arraycopy(perNode[v], 0, leaves, offsets[v], perNode[v].length);
      }
    }
    return new SourceLists(offsets, leaves);
  }

  /**
   * {@link #of} for a tree given its shape from the tree before ({@link ShapeFrom}): an internal node whose entry is
   * {@link ShapeFrom#BASE_SOURCES} quotes the leaves its base node quotes, copied from the base's rows one run of
   * such nodes at a time (nodes the base holds one after another), with no per-node array made or read. A maintenance
   * run's freeze at a million leaves had made an array for each of the base's internal nodes and read each again here.
   *
   * @throws IllegalArgumentException as {@link #of} does, and for {@link ShapeFrom#BASE_SOURCES} given to a leaf or a
   *     node made since the base
   */
  static SourceLists derived(ShapeFrom shape, int[][] perNode, int n, int leafCount, String[] ids) {
    if (perNode == null) {
      return of(null, n, leafCount, ids);
    }
    TreeChecks.length("sourceLeafIndex", perNode.length, n);
    SourceLists base = shape.base().sourceLists();
    int[] offsets = new int[n + 1];
    for (int v = 0; v < n; ) {
      int[] own = perNode[v];
      if (own != ShapeFrom.BASE_SOURCES) {
        offsets[v + 1] = offsets[v] + (own == null ? 0 : own.length);
        v++;
        continue;
      }
      int end = baseRun(shape, perNode, v, n, leafCount, ids);
      int o = shape.previous()[v - leafCount] - v;
      for (int u = v; u < end; u++) {
        offsets[u + 1] = offsets[u] + base.offsets[o + u + 1] - base.offsets[o + u];
      }
      v = end;
    }
    int[] leaves = new int[offsets[n]];
    for (int v = 0; v < n; ) {
      int[] own = perNode[v];
      if (own != ShapeFrom.BASE_SOURCES) {
        if (own != null) {
          for (int leaf : own) {
            if (leaf < 0 || leaf >= leafCount) {
              throw new IllegalArgumentException("summary source " + leaf + " of " + ids[v] + " is not a leaf");
            }
          }
          System.arraycopy(own, 0, leaves, offsets[v], own.length);
        }
        v++;
        continue;
      }
      int end = baseRun(shape, perNode, v, n, leafCount, ids);
      int o = shape.previous()[v - leafCount];
      // The base's quoted leaves are its first leaves, this tree's too (ShapeFrom): no index to check.
      System.arraycopy(base.leaves, base.offsets[o], leaves, offsets[v], offsets[end] - offsets[v]);
      v = end;
    }
    assert new SourceLists(offsets, leaves).sameAs(of(expanded(shape, perNode, leafCount), n, leafCount, ids))
        : "quoted leaves copied from the base differ from the lists given";
    return new SourceLists(offsets, leaves);
  }

  /**
   * The end of the run of nodes from {@code v} that take the base's quoted leaves from base nodes one after another.
   *
   * @throws IllegalArgumentException when {@code v} is a leaf or a node made since the base
   */
  private static int baseRun(ShapeFrom shape, int[][] perNode, int v, int n, int leafCount, String[] ids) {
    if (v < leafCount || shape.previous()[v - leafCount] < 0) {
      throw new IllegalArgumentException(ids[v] + " takes its quoted leaves from a base node it does not have");
    }
    int o = shape.previous()[v - leafCount];
    int end = v + 1;
    while (end < n && perNode[end] == ShapeFrom.BASE_SOURCES && shape.previous()[end - leafCount] == o + end - v) {
      end++;
    }
    return end;
  }

  /** The lists given, the base's copied in for each node that takes them from there (for the check under assertions). */
  private static int[][] expanded(ShapeFrom shape, int[][] perNode, int leafCount) {
    int[][] out = perNode.clone();
    for (int v = leafCount; v < out.length; v++) {
      if (out[v] == ShapeFrom.BASE_SOURCES) {
        out[v] = shape.base().sources(shape.previous()[v - leafCount]);
      }
    }
    return out;
  }

  /** Whether these lists hold the same rows as {@code other}'s. */
  boolean sameAs(SourceLists other) {
    return java.util.Arrays.equals(offsets, other.offsets) && java.util.Arrays.equals(leaves, other.leaves);
  }
}

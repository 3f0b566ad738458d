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
    for (int v = 0; v < n; v++) {
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
}

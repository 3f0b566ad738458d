package dev.setree.internal.core;

/**
 * The leaves each node's summary quotes whole, as compressed sparse rows: node {@code v}'s are
 * {@code leaves[offsets[v] .. offsets[v + 1])}.
 *
 * @param offsets per node and one more, where its sources start
 * @param leaves the sources of all nodes, row after row
 */
record SourceLists(int[] offsets, int[] leaves) {

  /**
   * The rows of {@code sourceLeafIndex} (per node, its sources or null; may itself be null for none), each
   * checked to be a leaf; {@code ids} name the node in the error.
   */
  static SourceLists of(int[][] sourceLeafIndex, int n, int leafCount, String[] ids) {
    int[] offsets = new int[n + 1];
    if (sourceLeafIndex == null) {
      return new SourceLists(offsets, new int[0]);
    }
    if (sourceLeafIndex.length != n) {
      throw new IllegalArgumentException("sourceLeafIndex has length " + sourceLeafIndex.length + ", expected " + n);
    }
    for (int v = 0; v < n; v++) {
      offsets[v + 1] = offsets[v] + (sourceLeafIndex[v] == null ? 0 : sourceLeafIndex[v].length);
    }
    int[] leaves = new int[offsets[n]];
    for (int v = 0; v < n; v++) {
      if (sourceLeafIndex[v] != null) {
        for (int leaf : sourceLeafIndex[v]) {
          if (leaf < 0 || leaf >= leafCount) {
            throw new IllegalArgumentException("summary source " + leaf + " of " + ids[v] + " is not a leaf");
          }
        }
        System.arraycopy(sourceLeafIndex[v], 0, leaves, offsets[v], sourceLeafIndex[v].length);
      }
    }
    return new SourceLists(offsets, leaves);
  }
}

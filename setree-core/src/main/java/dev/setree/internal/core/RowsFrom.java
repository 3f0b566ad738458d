package dev.setree.internal.core;

/**
 * What the maker of a {@link Tree} knows of its rows: which internal nodes have, bit for bit, the summary
 * embedding and leaf-centroid rows of an internal node of an earlier tree. For internal node {@code v} of the new
 * tree, {@code baseIndex[v - leafCount]} is that node's index in {@code base}, or -1 when it is not known. The new
 * tree keeps only {@code base}'s {@linkplain Tree#serial() serial} and these indexes, never {@code base} itself.
 *
 * @param base the earlier tree
 * @param baseIndex per internal node of the new tree, an internal node of {@code base}, or -1
 */
public record RowsFrom(Tree base, int[] baseIndex) {
  /** Checks that there is an entry per internal node and that each names an internal node of the base. */
  int[] checked(int internalCount) {
    if (baseIndex.length != internalCount) {
      throw new IllegalArgumentException("baseIndex has length " + baseIndex.length + ", expected " + internalCount);
    }
    for (int o : baseIndex) {
      if (o != -1 && (o < base.leafCount() || o >= base.size())) {
        throw new IllegalArgumentException("rows from node " + o + ", not an internal node of the earlier tree");
      }
    }
    return baseIndex;
  }
}

package dev.setree.internal.core;

import java.util.List;

/**
 * The per-level hierarchy oracle ({@code PerLevelHierarchyState}): what the clustering saw and decided at
 * each level of the last build or maintenance run. The incremental rebuild compares the current members
 * against it to find dirty levels, patches its kNN graphs, and reuses its assignments. Saved atomically
 * with the tree.
 *
 * @param levels level 0 (members are the leaves) first
 */
public record HierarchyState(List<Level> levels) {

  /** The empty oracle: forces a full build. */
  public static HierarchyState empty() {
    return new HierarchyState(List.of());
  }

  /** True when the oracle holds no level. */
  public boolean isEmpty() {
    return levels.isEmpty();
  }

  /**
   * One clustering level.
   *
   * @param memberIds ids of the level's members (node ids)
   * @param centroids {@code members * dim}: each member's leaf-centroid
   * @param parentIds per member, the id of the node it was given at the next level (itself when carried)
   * @param assignment per member, its Leiden community (dense, 0-based)
   * @param knnOffsets CSR offsets into {@code knnNeighbors}, length {@code members + 1}
   * @param knnNeighbors member indexes of each member's exact k nearest neighbours, nearest first
   * @param knnWeights cosine similarity of each kNN edge
   * @param resolution the CPM resolution Leiden used at this level (NaN when the level was wrapped under
   *     the root without Leiden, or unknown); the incremental rebuild re-runs Leiden at it
   */
  public record Level(
      String[] memberIds,
      float[] centroids,
      String[] parentIds,
      int[] assignment,
      int[] knnOffsets,
      int[] knnNeighbors,
      float[] knnWeights,
      double resolution) {

    /** Number of members. */
    public int size() {
      return memberIds.length;
    }
  }
}

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

  /** One clustering level: its members and what the clustering saw and decided for them. */
  public static final class Level {
    private final String[] memberIds;
    private final float[] centroids;
    private final String[] parentIds;
    private final int[] assignment;
    private final int[] knnOffsets;
    private final int[] knnNeighbors;
    private final float[] knnWeights;
    private final double resolution;
    /** Built on first use: a run looks up the old level's members, and so does the save that follows. */
    private volatile IdIndex memberIndex;

    /**
     * A level of these arrays (taken over, not copied; none may change afterwards).
     *
     * @param memberIds ids of the level's members (node ids)
     * @param centroids at least {@code members * dim}: each member's leaf-centroid, member i at {@code i * dim}
     *     (level 0's may be the tree's leaf rows, with spare rows after the members': read no further)
     * @param parentIds per member, the id of the node it was given at the next level (itself when carried)
     * @param assignment per member, its Leiden community (dense, 0-based)
     * @param knnOffsets CSR offsets into {@code knnNeighbors}, length {@code members + 1}
     * @param knnNeighbors member indexes of each member's exact k nearest neighbours, nearest first
     * @param knnWeights cosine similarity of each kNN edge
     * @param resolution the CPM resolution Leiden used at this level (NaN when the level was wrapped under
     *     the root without Leiden, or unknown); the incremental rebuild re-runs Leiden at it
     */
    public Level(String[] memberIds, float[] centroids, String[] parentIds, int[] assignment, int[] knnOffsets,
        int[] knnNeighbors, float[] knnWeights, double resolution) {
      this.memberIds = memberIds;
      this.centroids = centroids;
      this.parentIds = parentIds;
      this.assignment = assignment;
      this.knnOffsets = knnOffsets;
      this.knnNeighbors = knnNeighbors;
      this.knnWeights = knnWeights;
      this.resolution = resolution;
    }

    /** Number of members. */
    public int size() {
      return memberIds.length;
    }

    /**
     * Whether this level's first members are all of {@code other}'s, in order: a level that only gained members
     * since. Ids are compared by reference first (a maintenance run copies them), so no characters are read then.
     */
    public boolean startsWithMembersOf(Level other) {
      return NodeIds.samePrefix(other.memberIds, memberIds, other.memberIds.length);
    }

    /**
     * The index of member {@code id}, -1 when it is not a member; looked for at {@code hint} first (see
     * {@link IdIndex#indexOf(String, int)}). The index over the members is built on the first lookup that
     * needs it and kept with the level.
     *
     * @throws IllegalArgumentException when the level lists a member twice
     */
    public int indexOf(String id, int hint) {
      // The same string first: no call when a run copied the id (a call per member costs a first run, interpreted)
      if (hint >= 0 && hint < memberIds.length && (memberIds[hint] == id || memberIds[hint].equals(id))) {
        return hint;
      }
      IdIndex index = memberIndex;
      if (index == null) {
        index = IdIndex.of(memberIds, "member id"); // two threads may both build it: the same index
        memberIndex = index;
      }
      return index.indexOf(id);
    }

    public String[] memberIds() {
      return memberIds;
    }

    public float[] centroids() {
      return centroids;
    }

    public String[] parentIds() {
      return parentIds;
    }

    public int[] assignment() {
      return assignment;
    }

    public int[] knnOffsets() {
      return knnOffsets;
    }

    public int[] knnNeighbors() {
      return knnNeighbors;
    }

    public float[] knnWeights() {
      return knnWeights;
    }

    public double resolution() {
      return resolution;
    }
  }
}

package dev.setree.internal.core;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

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
    /** Serial numbers of levels, so that a log names the level it is relative to without holding it. */
    private static final AtomicLong SERIALS = new AtomicLong();

    private final long serial = SERIALS.incrementAndGet();
    private final String[] memberIds;
    private final float[] centroids;
    private final String[] parentIds;
    private final int[] assignment;
    /** The kNN rows, flat or paged ({@link KnnRows}); null when the level lacks them (a corrupt store). */
    private final KnnRows knn;
    private final double resolution;
    /**
     * Whether the assignment is the one derived from the parent ids, which a store may then leave out: 0 not known yet,
     * 1 yes, 2 no ({@link #assignmentDerived}).
     */
    private volatile byte assignmentDerived;
    /** One more than the largest community number of {@link #assignment}; -1 until counted or told. */
    private volatile int communityCount = -1;
    /** Built on first use: a run looks up the old level's members, and so does the save that follows. */
    private volatile IdIndex memberIndex;
    /**
     * The index of the level this one was logged against ({@link #withChangesSince}), if it had one then: its members
     * are this level's first ones, at the same indexes, so {@link #memberIndex} is that index extended by the members
     * after them instead of every id hashed again (level 1 of a million leaves has about 125,000 members, and a run
     * looks some of them up, NearAncestors). Dropped once used.
     */
    private IdIndex baseIndex;
    /** The serial of the level {@link #changesSince} is relative to; 0: none. */
    private final long loggedSince;
    private final int[] centroidRowsLogged;
    private final int[] knnRowsLogged;

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
      this(memberIds, centroids, parentIds, assignment, KnnRows.flat(knnOffsets, knnNeighbors, knnWeights),
          resolution);
    }

    /**
     * A level whose kNN rows are {@code knn} (a maintenance run's, usually paged), the other arrays as for
     * {@link #Level(String[], float[], String[], int[], int[], int[], float[], double)}.
     */
    public Level(String[] memberIds, float[] centroids, String[] parentIds, int[] assignment, KnnRows knn,
        double resolution) {
      this(memberIds, centroids, parentIds, assignment, knn, resolution, 0, null, null);
    }

    private Level(String[] memberIds, float[] centroids, String[] parentIds, int[] assignment, KnnRows knn,
        double resolution, long loggedSince, int[] centroidRows, int[] knnRows) {
      this.memberIds = memberIds;
      this.centroids = centroids;
      this.parentIds = parentIds;
      this.assignment = assignment;
      this.knn = knn;
      this.resolution = resolution;
      this.loggedSince = loggedSince;
      this.centroidRowsLogged = centroidRows;
      this.knnRowsLogged = knnRows;
    }

    /**
     * This level with a log of the rows that may differ from {@code base}'s (ADR 0034, step 1, for the oracle): a
     * maintenance run that kept every member of {@code base} at its index knows which of their rows it changed,
     * so that the save's plan and the next snapshot compare those alone instead of every row. At an index below
     * both sizes that a list does not name, this level's row is {@code base}'s: its centroid row (every
     * component, bit for bit) for {@code centroidRows}, its kNN row (neighbours and weights, as many) for
     * {@code knnRows}. A list may name rows that did not change, and indexes past {@code base}'s members; null
     * says nothing of that array. The arrays are taken over. {@code base}'s members must be this level's first ones,
     * at the same indexes (checked under assertions), so that this level's index of its members extends
     * {@code base}'s, when it has one ({@link #indexOf}).
     */
    public Level withChangesSince(Level base, int[] centroidRows, int[] knnRows) {
      assert startsWithMembersOf(base) : "a level logged against one whose members are not its first";
      Level logged = new Level(memberIds, centroids, parentIds, assignment, knn, resolution, base.serial,
          centroidRows, knnRows);
      logged.memberIndex = memberIndex;
      logged.communityCount = communityCount;
      logged.assignmentDerived = assignmentDerived;
      logged.baseIndex = memberIndex == null ? base.memberIndex : null;
      return logged;
    }

    /** The index of the members, if a lookup has built it yet (for tests). */
    IdIndex builtIndex() {
      return memberIndex;
    }

    /**
     * The rows that may differ from {@code base}'s ({@link #withChangesSince}): {@code knn} false for the centroid
     * rows, true for the kNN rows; null when this level keeps no such log relative to {@code base}, the very
     * object (a log is never taken from another level with equal rows).
     */
    public int[] changesSince(Level base, boolean knn) {
      return base == null || loggedSince != base.serial ? null : knn ? knnRowsLogged : centroidRowsLogged;
    }

    /**
     * Whether this level keeps a log relative to {@code base}, the very object ({@link #withChangesSince}): then
     * {@code base}'s members are this level's first ones, at the same indexes, without a look at their ids.
     */
    public boolean loggedAgainst(Level base) {
      return base != null && loggedSince == base.serial;
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
      if (index == null) { // two threads may both build it: the same answers
        IdIndex base = baseIndex;
        index = base != null ? base.extendedTo(memberIds, memberIds.length, "member id")
            : IdIndex.of(memberIds, "member id");
        memberIndex = index;
        baseIndex = null;
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

    /**
     * How many communities the assignment numbers: one more than its largest number (0 for none). Counted on first
     * use and kept, unless the run that made the level told it ({@link #rememberCommunityCount}): a run asks it of
     * the old level twice, and at level 0 of a million leaves each count was a pass over every member.
     */
    public int communityCount() {
      int count = communityCount;
      if (count < 0) { // two threads may both count: the same number
        count = count(assignment);
        communityCount = count;
      }
      return count;
    }

    /** Keeps {@code count} as {@link #communityCount()}, which the caller knows (checked under assertions). */
    public void rememberCommunityCount(int count) {
      assert count == count(assignment) : "told " + count + " communities, the assignment numbers " + count(assignment);
      communityCount = count;
    }

    private static int count(int[] assignment) {
      int count = 0;
      for (int c : assignment) {
        if (c >= count) {
          count = c + 1;
        }
      }
      return count;
    }

    /**
     * A store's memo: whether the assignment is the one derived from the parent ids (so that the store leaves it out),
     * or null when not known yet. A level is saved, and compared with the next one, once each: the check is a pass
     * over every member, made once per level instead of three times per run.
     */
    public Boolean assignmentDerived() {
      byte known = assignmentDerived;
      return known == 0 ? null : known == 1;
    }

    /** Keeps what {@link #assignmentDerived()} says from now on. */
    public void rememberAssignmentDerived(boolean derived) {
      assignmentDerived = (byte) (derived ? 1 : 2);
    }

    /** The kNN rows, read row by row on a run's path; null when the level lacks them. */
    public KnnRows knn() {
      return knn;
    }

    /** The kNN rows' CSR offsets (made and kept on first use when the rows are paged: {@link KnnRows#offsets}). */
    public int[] knnOffsets() {
      return knn == null ? null : knn.offsets();
    }

    /** Every kNN row's member indexes, row after row ({@link KnnRows#neighbours}). */
    public int[] knnNeighbors() {
      return knn == null ? null : knn.neighbours();
    }

    /** Every kNN row's weights ({@link KnnRows#weights}). */
    public float[] knnWeights() {
      return knn == null ? null : knn.weights();
    }

    public double resolution() {
      return resolution;
    }
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;

/**
 * The parent each community of a level got in the last run over a draft, by community number, and that parent's
 * index among the next level's members, so that the next run's parent preservation keeps the parent of a community
 * the re-clustering left alone, and lists it among the next members, without reading a member or the parent
 * ({@link ParentPreservation}, {@link NextMembers}): at 50,000 leaves, a look at the first leaf of each of about
 * 6,000 communities of level 0, all over the heap, was a third of the pass's reads; at a million leaves, reading
 * each of about 125,000 parents was most of level 0's pass, and reading the first member and the parent of each of
 * level 1's 15,086 communities took a median of 11.7 ms a run. Valid for the level whose assignment is
 * {@link #assignment}, the very array the run recorded: the next run's old level, unless the level was read back
 * from the file since.
 *
 * @param assignment the recorded level's assignment: member i is in community {@code assignment[i]}
 * @param parentOf per community, the node it was given (null for a member carried alone)
 * @param nextIndex per community, the index of its parent among the next level's members as the run listed them,
 *     or of its member for one carried up alone; or null when not known
 */
record CommunityParents(int[] assignment, DraftNode[] parentOf, int[] nextIndex) {

  /** A record to fill for {@code count} communities numbered as in {@code assignment}. */
  static CommunityParents toFill(int[] assignment, int count) {
    return new CommunityParents(assignment, new DraftNode[count], new int[count]);
  }

  /** {@code draft}'s record of level {@code level} when it is of {@code old}, the oracle's level; else null. */
  static CommunityParents of(DraftTree draft, HierarchyState.Level old, int level) {
    CommunityParents r = draft.records.parents(level);
    return r != null && r.assignment == old.assignment() ? r : null;
  }
}

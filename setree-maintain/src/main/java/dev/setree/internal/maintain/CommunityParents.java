package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;

/**
 * The parent each community of level 0 got in the last run over a draft, by community number, and that parent's
 * index among the next level's members, so that the next run's parent preservation keeps the parent of a community
 * the re-clustering left alone, and lists it among the next members, without reading a leaf or the parent
 * ({@link ParentPreservation}, {@link NextMembers}): at 50,000 leaves, a look at the first leaf of each of about
 * 6,000 communities, all over the heap, was a third of the pass's reads; at a million leaves, reading each of about
 * 125,000 parents was most of the pass. Valid for the level whose assignment is {@link #assignment}, the very array
 * the run recorded: the next run's old level 0, unless the level was read back from the file since.
 *
 * @param assignment the recorded level 0's assignment: member i is in community {@code assignment[i]}
 * @param parentOf per community, the node it was given (null for a member carried alone)
 * @param nextIndex per community, the index of its parent among the next level's members as the run listed them,
 *     -1 for none; or null when not known
 */
record CommunityParents(int[] assignment, DraftNode[] parentOf, int[] nextIndex) {

  /** A record to fill for {@code count} communities numbered as in {@code assignment}. */
  static CommunityParents toFill(int[] assignment, int count) {
    return new CommunityParents(assignment, new DraftNode[count], new int[count]);
  }

  /** {@code draft}'s record when it is of {@code old}, the oracle's level 0; else null. */
  static CommunityParents of(DraftTree draft, HierarchyState.Level old) {
    CommunityParents r = draft.records.communityParents;
    return r != null && r.assignment == old.assignment() ? r : null;
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;

/**
 * The parent each community of level 0 got in the last run over a draft, by community number, so that the next
 * run's parent preservation finds the parent of a community the re-clustering left alone without reading a leaf
 * ({@link ParentPreservation}): at 50,000 leaves, a look at the first leaf of each of about 6,000 communities, all
 * over the heap, was a third of the pass's reads. Valid for the level whose assignment is {@link #assignment}, the
 * very array the run recorded: the next run's old level 0, unless the level was read back from the file since.
 *
 * @param assignment the recorded level 0's assignment: member i is in community {@code assignment[i]}
 * @param parentOf per community, the node it was given (null for a member carried alone)
 */
record CommunityParents(int[] assignment, DraftNode[] parentOf) {

  /** {@code draft}'s record when it is of {@code old}, the oracle's level 0; else null. */
  static DraftNode[] of(DraftTree draft, HierarchyState.Level old) {
    CommunityParents r = draft.records.communityParents;
    return r != null && r.assignment == old.assignment() ? r.parentOf : null;
  }
}

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

  /**
   * The record a run would have left of {@code level}'s parents, read from the oracle: each community's parent is the
   * draft's node of its first member's parent id, or none when that member is carried up alone (its parent id is
   * its own), and its index among the next level's members is that of the parent's id, or of the member's, in
   * {@code next}. Made ahead of a draft's first run ({@link Maintainer#prepare}), whose parent preservation then keeps
   * the parents of the communities the re-clustering left alone by record, as later runs do. Null when an id is not
   * found where it should be, or a community number has no member.
   */
  static CommunityParents ofOracle(DraftTree draft, HierarchyState.Level level, HierarchyState.Level next) {
    int[] a = level.assignment();
    String[] members = level.memberIds();
    String[] parentIds = level.parentIds();
    if (a == null || parentIds == null || next == null || a.length != members.length) {
      return null;
    }
    int count = 0;
    for (int c : a) {
      if (c < 0) {
        return null;
      }
      count = Math.max(count, c + 1);
    }
    CommunityParents r = toFill(a, count);
    boolean[] done = new boolean[count];
    int seen = 0;
    for (int i = 0; i < a.length && seen < count; i++) {
      int c = a[i];
      if (done[c]) {
        continue;
      }
      done[c] = true;
      seen++;
      boolean alone = parentIds[i] != null && parentIds[i].equals(members[i]);
      String id = alone ? members[i] : parentIds[i];
      DraftNode parent = alone ? null : draft.byId.get(id);
      int at = id == null ? -1 : next.indexOf(id, c);
      if (at < 0 || !alone && (parent == null || parent.leaf)) {
        return null;
      }
      r.parentOf[c] = parent;
      r.nextIndex[c] = at;
    }
    return seen == count ? r : null; // a community of no member: not a level a run records
  }

  /** {@code draft}'s record of level {@code level} when it is of {@code old}, the oracle's level; else null. */
  static CommunityParents of(DraftTree draft, HierarchyState.Level old, int level) {
    CommunityParents r = draft.records.parents(level);
    return r != null && r.assignment == old.assignment() ? r : null;
  }
}

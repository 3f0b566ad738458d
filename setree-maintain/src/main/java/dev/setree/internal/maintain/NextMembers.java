package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The next level's members after {@link ParentPreservation} gave a level's communities their parents: the members
 * carried alone (communities in order of first appearance) and the parents, in the oracle's order where they were
 * members of its next level, the others by creation order after. The oracle's members are taken from the draft's
 * record of that level ({@link RecordedRows}) when it is the record of that very level, instead of being looked up
 * by id: about 6,000 lookups at level 1 of 50,000 leaves. A parent that {@link ParentPreservation} placed by its index
 * there (a community left alone at level 0) is listed without being read: at level 0 of a million leaves, marking
 * and then finding about 125,000 such parents, each a node read from anywhere in the heap, took about 30 ms a run.
 * So is a member carried up alone again, placed by its index there ({@link LeftAlone}).
 */
final class NextMembers {
  private NextMembers() {}

  /**
   * The next level's members, each one's index among the oracle's next level (-1: not a member of it), and which
   * were placed by index: parents of communities left alone and members carried up alone again, the very nodes the
   * draft's record of that level names at that index, whose sums have not changed since it was taken (the next
   * level's match reads none of them, {@link RecordedRows#match}).
   *
   * @param members the next level's members
   * @param fromOld per member, its index in {@code of} (-1: none)
   * @param placed per member, whether it was placed by index; null when none was
   * @param of the oracle's next level the indexes are of, or null
   */
  record Listed(List<DraftNode> members, int[] fromOld, boolean[] placed, HierarchyState.Level of) {}

  /**
   * The next level's members.
   *
   * @param mem the level's members
   * @param comms the level's communities (indexes into {@code mem})
   * @param parents the parents given, in the order they were given
   * @param level the next level
   * @param nextOld the oracle's next level, or null
   * @param keptAt null, or per member of {@code nextOld}, 1 + the community whose parent it is, a parent not in
   *     {@code parents}, or whose one member it is, carried up alone again (0: none such); given only when
   *     {@link #recorded} names {@code nextOld}'s members
   * @param placedAlone null, or per community, true for one that the pass over the communities left alone is done
   *     with ({@link LeftAlone}): for a community of one member, that {@code keptAt} places the member
   * @param made null, or the record of the parents given ({@link CommunityParents#parentOf}), whose
   *     {@link CommunityParents#nextIndex} is filled: per community, its parent's index in the list returned
   */
  static Listed of(DraftTree draft, List<DraftNode> mem, Communities comms, List<DraftNode> parents,
      Map<String, DraftNode> byId, int level, HierarchyState.Level nextOld, int[] keptAt, boolean[] placedAlone,
      CommunityParents made) {
    int[] nextIndex = made == null ? null : made.nextIndex();
    if (nextIndex != null) {
      Arrays.fill(nextIndex, -1);
    }
    long stamp = ParentPreservation.STAMPS.incrementAndGet();
    List<DraftNode> carried = new ArrayList<>();
    int count = comms.count();
    for (int k = 0; k < count; k++) {
      if (comms.start[k + 1] - comms.start[k] == 1 && (placedAlone == null || !placedAlone[k])) {
        mark(mem.get(comms.members[comms.start[k]]), stamp, carried);
      }
    }
    for (DraftNode p : parents) {
      mark(p, stamp, carried);
    }
    List<DraftNode> next = new ArrayList<>(carried.size() + (keptAt == null ? 0 : keptAt.length));
    int[] fromOld = new int[carried.size() + (nextOld == null ? 0 : nextOld.size())]; // room for every member
    boolean[] placed = keptAt == null ? null : new boolean[fromOld.length];
    if (nextOld != null) {
      DraftNode[] recorded = recorded(draft, level, nextOld);
      assert keptAt == null || recorded != null && keptAt.length == recorded.length;
      String[] ids = nextOld.memberIds();
      for (int o = 0; o < ids.length; o++) {
        if (keptAt != null && keptAt[o] > 0) {
          assert recorded[o] == byId.get(ids[o]) && recorded[o].nextBy != stamp : ids[o] + " placed by index";
          if (nextIndex != null) {
            nextIndex[keptAt[o] - 1] = next.size();
          }
          placed[next.size()] = true;
          fromOld[next.size()] = o;
          next.add(recorded[o]);
          continue;
        }
        // An internal node is the node of its id for life; a leaf may have been removed, and added again since, which
        // it says. A lookup by id of each recorded leaf (the level's members carried alone) took 192 of the 435
        // samples of this pass in a profile of 30 runs at a million leaves; the flag's read of the node gives part of
        // that back (338 samples after).
        DraftNode r = recorded == null ? null : recorded[o];
        DraftNode n = r != null && !r.removed ? r : byId.get(ids[o]);
        assert n == byId.get(ids[o]) : ids[o] + " is recorded as another node";
        if (n != null && n.nextBy == stamp) {
          n.nextBy = 0;
          n.nextAt = next.size();
          fromOld[next.size()] = o;
          next.add(n);
        }
      }
    }
    List<DraftNode> rest = new ArrayList<>();
    for (DraftNode n : carried) {
      if (n.nextBy == stamp) {
        rest.add(n);
      }
    }
    rest.sort((a, b) -> Long.compare(a.order, b.order));
    for (DraftNode n : rest) {
      n.nextAt = next.size();
      fromOld[next.size()] = -1;
      next.add(n);
    }
    if (nextIndex != null) { // a parent or a member carried alone not placed by index was listed just now, index noted
      DraftNode[] parentOf = made.parentOf();
      for (int k = 0; k < nextIndex.length; k++) {
        if (nextIndex[k] < 0) { // else placed by index: a member carried alone again is not read
          nextIndex[k] = listedFor(k, parentOf, mem, comms).nextAt;
        }
        assert next.get(nextIndex[k]) == listedFor(k, parentOf, mem, comms) : "community " + k;
      }
    }
    int m = next.size();
    return new Listed(next, Arrays.copyOf(fromOld, m), placed == null ? null : Arrays.copyOf(placed, m), nextOld);
  }

  /**
   * The members of {@code nextOld} by index, as the last run over {@code draft} recorded them, when its record of
   * {@code level} is of {@code nextOld} (entries may be null: a record made on open names only some); else null.
   */
  static DraftNode[] recorded(DraftTree draft, int level, HierarchyState.Level nextOld) {
    RecordedRows r = draft.records.rows(level);
    return r != null && r.rows() == nextOld.centroids() && r.members().length == nextOld.size() ? r.members() : null;
  }

  /** What community {@code k} is listed as among the next members: its parent, or its one member carried alone. */
  private static DraftNode listedFor(int k, DraftNode[] parentOf, List<DraftNode> mem, Communities comms) {
    return parentOf[k] != null ? parentOf[k] : mem.get(comms.members[comms.start[k]]);
  }

  private static void mark(DraftNode n, long stamp, List<DraftNode> marked) {
    if (n.nextBy != stamp) {
      n.nextBy = stamp;
      marked.add(n);
    }
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The next level's members after {@link ParentPreservation} gave a level's communities their parents: the members
 * carried alone (communities in order of first appearance) and the parents, in the oracle's order where they were
 * members of its next level, the others by creation order after. The oracle's members are taken from the draft's
 * record of that level ({@link RecordedRows}) when it is the record of that very level, instead of being looked up
 * by id: about 6,000 lookups at level 1 of 50,000 leaves.
 */
final class NextMembers {
  private NextMembers() {}

  /**
   * The next level's members.
   *
   * @param mem the level's members
   * @param comms the level's communities (indexes into {@code mem})
   * @param parents the parents given, in the order they were given
   * @param level the next level
   * @param nextOld the oracle's next level, or null
   */
  static List<DraftNode> of(DraftTree draft, DraftNode[] mem, Communities comms, List<DraftNode> parents,
      Map<String, DraftNode> byId, int level, HierarchyState.Level nextOld) {
    long stamp = ParentPreservation.STAMPS.incrementAndGet();
    List<DraftNode> carried = new ArrayList<>();
    int count = comms.count();
    for (int k = 0; k < count; k++) {
      if (comms.start[k + 1] - comms.start[k] == 1) {
        mark(mem[comms.members[comms.start[k]]], stamp, carried);
      }
    }
    for (DraftNode p : parents) {
      mark(p, stamp, carried);
    }
    List<DraftNode> next = new ArrayList<>(carried.size());
    if (nextOld != null) {
      DraftNode[] recorded = recorded(draft, level, nextOld);
      String[] ids = nextOld.memberIds();
      for (int o = 0; o < ids.length; o++) {
        // An internal node is the node of its id for life; a leaf may have been removed and added again since.
        DraftNode r = recorded == null ? null : recorded[o];
        DraftNode n = r != null && !r.leaf ? r : byId.get(ids[o]);
        assert n == byId.get(ids[o]) : ids[o] + " is recorded as another node";
        if (n != null && n.nextBy == stamp) {
          n.nextBy = 0;
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
    next.addAll(rest);
    return next;
  }

  /**
   * The members of {@code nextOld} by index, as the last run over {@code draft} recorded them, when its record of
   * {@code level} is of {@code nextOld} (entries may be null: a record made on open names only some); else null.
   */
  private static DraftNode[] recorded(DraftTree draft, int level, HierarchyState.Level nextOld) {
    RecordedRows r = draft.records.rows(level);
    return r != null && r.rows() == nextOld.centroids() && r.members().length == nextOld.size() ? r.members() : null;
  }

  private static void mark(DraftNode n, long stamp, List<DraftNode> marked) {
    if (n.nextBy != stamp) {
      n.nextBy = stamp;
      marked.add(n);
    }
  }
}

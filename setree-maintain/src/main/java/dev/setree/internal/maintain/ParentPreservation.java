package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Passes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Parent preservation, the last step of an {@link IncrementalRebuild} level: the level's new communities get
 * the parents they had where they can, so unchanged communities keep their node, id and summary and need no
 * summariser work (docs/adr/0006-incremental-rebuild.md).
 *
 * <p>A level 0 has as many members as the knowledge base has leaves, and a run changes a few of its
 * communities: the pass works on arrays (communities grouped by a counting sort in {@link Communities}, an old
 * parent resolved once per old community and only for the members whose community is looked at, nodes marked with
 * a per-call stamp instead of kept in hash sets), and a community the re-clustering left alone keeps its parent
 * from a look at its first member and that parent (from the last run's record of the parents without either, when
 * the draft has it: {@link CommunityParents}), so that the members of the other communities are all that is read
 * member by member. Above level 0 the same holds for a community none of whose members' sums changed since
 * the oracle was recorded ({@link RecordedRows} tells): at level 1 of a million leaves, about 15,000 communities
 * had each been read member by member and summed again in every run.
 */
final class ParentPreservation {
  /** Stamps for {@link DraftNode#claimedBy} and {@link DraftNode#nextBy}: fresh for every call. */
  static final AtomicLong STAMPS = new AtomicLong();

  private ParentPreservation() {}

  /**
   * Gives every community of >= 2 members a parent, preserving old parents: an unchanged community keeps
   * its parent; a changed one reuses the old parent it overlaps most; otherwise a new node. Singletons are
   * carried forward (detached from a parent they had at this level). Returns the next level's members in
   * the oracle's order where they existed, new ones after, with their indexes there ({@link NextMembers.Listed}),
   * and fills {@code parentIds} with the id of each member's parent (null for a member carried alone), so that the
   * caller need not read it from every member.
   *
   * <p>At level 0, a community that is all that stayed of an old one, none of it moved, keeps its old parent
   * without its children or sum being looked at ({@link #keptFamily}). A community the re-clustering did not
   * touch is known to be such a remainder (its assignment is below {@code unaffected}): those are looked at first,
   * in order of their first member, and only their first member and its parent are read ({@link LeftAlone}),
   * or, with the draft's record of the last run's parents ({@link CommunityParents}) when it is of {@code old},
   * nothing but arrays. A run that changes a few communities reads the members of those only, and sorts only those
   * by size; each member's old parent is resolved only when asked ({@link OldParents}).
   *
   * <p>Above level 0 the communities left alone are looked at so only when {@code reread} says which members' sums
   * may have changed since the oracle was recorded: true for a member whose sum array is not the one its recorded
   * row was taken from ({@link RecordedRows}), null when unknown. Then a community the re-clustering left alone,
   * none of whose members was reread, keeps its old parent from a look at its first member and that parent, as at
   * level 0, or from the draft's record of the last run's parents when it is of {@code old}: the parent's sum is the
   * sum of its children's, and none of theirs changed. Without it every community is read member by member.
   *
   * @param match the members matched to {@code old}'s: each one's old index, and which moved
   * @param oldCommunityOf each member's community in {@code old}, -1 for a new one ({@link AffectedCommunities})
   * @param comms the communities of {@code assignment}, grouped ({@link Communities#of})
   * @param unaffected assignments below it are old communities the re-clustering left alone, each exactly the
   *     members of one old community that are members still (0: none is known to be)
   * @param made null, or the record to fill for the next run: the parent each community is given (null:
   *     a member carried alone) and that parent's index among the next members returned
   */
  static NextMembers.Listed regroup(DraftTree draft, List<DraftNode> members, LevelMatch match, boolean[] reread,
      int[] oldCommunityOf, int[] assignment, Communities comms, int unaffected, HierarchyState.Level old,
      Map<String, DraftNode> byId, int parentLevel, TreeBuilder.IdSource ids, HierarchyState.Level nextOld,
      String[] parentIds, CommunityParents made) {
    DraftNode[] parentOf = made == null ? null : made.parentOf();
    // Read in place, not copied into a DraftNode[]: that copy checks the class of every member, a read of each node
    // (about 16 ms at level 0 of a million leaves).
    List<DraftNode> mem = members instanceof RandomAccess ? members : new ArrayList<>(members);
    OldParents oldParent = new OldParents(mem, match.newToOld(), old, byId);
    long claimed = STAMPS.incrementAndGet();
    List<DraftNode> parents = new ArrayList<>();
    boolean leavesBelow = parentLevel == 1;
    int[] stayed = leavesBelow ? OldCommunities.stayed(oldCommunityOf) : null;
    boolean[] done = new boolean[comms.count()];
    int[] keptAt = null; // per member of nextOld, 1 + the community left alone that kept it, placed by index
    boolean[] keptOld = null; // per old community, whether its parent was kept by the last run's record, unstamped
    if (unaffected > 0 && (leavesBelow || reread != null && reread.length == mem.size())) {
      // The communities the re-clustering left alone first, in order of their first member, which is the order of
      // the arrays read: each keeps its parent when the family is whole. No other community can claim that parent
      // (only its old community's members had it, and they are all here), so the order of claims is unchanged.
      // A leaf's sum is its embedding, so a leaf that did not move kept it; above, a member kept its sum when its
      // row was not reread.
      boolean[] changed = leavesBelow ? match.moved() : reread;
      int[] stayedHere = leavesBelow ? stayed : OldCommunities.stayed(oldCommunityOf);
      boolean[] movedIn = OldCommunities.movedIn(changed, leavesBelow ? match.inPlace() : 0, oldCommunityOf,
          stayedHere.length);
      // Above the leaves a member can leave its old community unmarked: a regroup below gave it a parent (attach
      // does not flag the parent it left) or emptied it. A leaf leaves only when removed, which flags its parent
      // and makes its community affected (AffectedCommunities), so not one left alone.
      boolean[] lost = leavesBelow ? null : OldCommunities.lostMembers(old.assignment(), stayedHere);
      CommunityParents last = CommunityParents.of(draft, old, parentLevel - 1);
      // With the last run's parents, those kept are found among the next level's old members by the index that run
      // gave them, where the draft's record of that level names the same node: no parent is read to place it.
      DraftNode[] recordedNext = last == null || last.nextIndex() == null || nextOld == null ? null
          : NextMembers.recorded(draft, parentLevel, nextOld);
      keptAt = recordedNext == null ? null : new int[recordedNext.length];
      // With the last run's parents, every old member's parent id is what the level recorded, so the kept
      // communities' members are named by one copy in member order (written per community, they were stores all
      // over a million-entry array); the others are named again below, and members carried alone unnamed.
      if (last != null && parentOf != null) {
        match.byOldIndex(old.parentIds(), null, parentIds);
        keptOld = new boolean[last.parentOf().length];
      }
      Passes.range(0, comms.count(), new LeftAlone(draft, comms, mem, assignment, unaffected, old.parentIds(),
          match.newToOld(), oldCommunityOf, movedIn, lost, claimed, parentIds, parents, done, oldParent, changed,
          stayedHere, last == null ? null : last.parentOf(), parentOf, recordedNext == null ? null : last.nextIndex(),
          recordedNext, keptAt, keptOld));
      assert noOtherClaim(comms, done, oldParent, claimed, keptOld != null ? parentOf : null);
    }
    // The other communities in order of size, largest first, so the biggest overlap claims an old parent first.
    for (int k : comms.bySizeDescending(done)) {
      int from = comms.start[k];
      int size = comms.start[k + 1] - from;
      if (size == 1) {
        int i = comms.members[from];
        parentIds[i] = null; // carried alone (named with its old parent id above, with the last run's parents)
        DraftNode x = mem.get(i);
        DraftNode was = oldParent.of(i);
        if (was != null && x.parent == was) {
          x.parent.children.remove(x);
          x.parent.structural = true;
          x.parent.touch();
          x.parent = null;
          x.touch();
        }
        continue;
      }
      DraftNode kept = stayed == null ? null
          : keptFamily(comms, k, mem, oldParent, match.moved(), oldCommunityOf, stayed, claimed);
      if (kept != null) {
        kept.claimedBy = claimed;
        name(parentIds, comms, k, kept, parentOf);
        parents.add(kept);
        continue;
      }
      DraftNode parent = claimOldParent(comms, k, oldParent, claimed);
      if (parent == null) {
        parent = draft.addInternal(ids.next(), parentLevel);
        byId.put(parent.id, parent);
      }
      parent.claimedBy = claimed;
      if (!sameChildren(parent, comms, k, mem)) {
        adopt(parent, comms, k, mem);
      }
      name(parentIds, comms, k, parent, parentOf);
      float[] sum = draft.canonicalSum(parent);
      if (!Arrays.equals(sum, parent.sum)) {
        parent.sum = sum;
        parent.centroidChanged = true;
        parent.touch();
      }
      parents.add(parent);
    }
    // Old parents of this level that no community claimed lose their children (then get pruned). A community
    // whose members' old parents were not asked for kept its own: the others are among those resolved. A parent
    // kept by the last run's record is not stamped: it is told by its old community, also kept.
    List<DraftNode> resolved = oldParent.resolved();
    for (int j = 0; j < resolved.size(); j++) {
      DraftNode p = resolved.get(j);
      int was = oldParent.resolvedFor(j);
      if (p.claimedBy != claimed && !p.children.isEmpty() && !(keptOld != null && was >= 0 && keptOld[was])) {
        for (DraftNode c : p.children) {
          c.parent = null;
          c.touch();
        }
        p.children.clear();
        p.touch(); // to be pruned
      }
    }
    return NextMembers.of(draft, mem, comms, parents, byId, parentLevel, nextOld, keptAt, keptAt == null ? null : done,
        made);
  }

  /**
   * Remembers that {@code level}, made by a run from {@code old}, has the assignment derived from its parent ids
   * ({@link HierarchyState.Level#assignmentDerived}) when {@code old}'s is known to be: a store leaves such an
   * assignment out, and otherwise checks it by a pass over every member (at level 0 of a million leaves, about 4 ms
   * of each save). It holds by construction:
   * <ul>
   *   <li>the run numbers the level's communities densely in order of first appearance;</li>
   *   <li>{@link #regroup} names each member of a community of two or more with the id of that community's parent,
   *     a parent no other community has (claims are stamped; {@link #noOtherClaim});</li>
   *   <li>a community left alone may be named with its members' old parent ids, which are one id when {@code old}'s
   *     assignment was derived;</li>
   *   <li>a member carried alone is named with its own id, which no parent has: a parent is a node of the level
   *     above, and a member carried alone keeps its lower level.</li>
   * </ul>
   * A store checks the memo against a pass under assertions.
   */
  static void carryDerived(HierarchyState.Level old, HierarchyState.Level level) {
    if (Boolean.TRUE.equals(old.assignmentDerived())) {
      level.rememberAssignmentDerived(true);
    }
  }

  /** Gives every member of community {@code k} its parent's id, and notes the parent in {@code parentOf}, if any. */
  static void name(String[] parentIds, Communities comms, int k, DraftNode parent, DraftNode[] parentOf) {
    name(parentIds, comms, k, parent, parent.id, parentOf);
  }

  /** {@link #name} with the parent's id given, so that the parent is not read. */
  static void name(String[] parentIds, Communities comms, int k, DraftNode parent, String id,
      DraftNode[] parentOf) {
    if (parentOf != null) {
      parentOf[k] = parent;
    }
    for (int x = comms.start[k]; x < comms.start[k + 1]; x++) {
      parentIds[comms.members[x]] = id;
    }
  }

  /**
   * Whether no member of a community not yet given a parent had an old parent that a community left alone kept
   * (claimed by then, or, with {@code keptOf}, the parent noted there for a community done): the condition under
   * which keeping those first leaves every claim as the order by size makes it. Throws otherwise (called under
   * assertions).
   */
  private static boolean noOtherClaim(Communities comms, boolean[] done, OldParents oldParent, long claimed,
      DraftNode[] keptOf) {
    java.util.Set<DraftNode> kept = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (int k = 0; keptOf != null && k < comms.count(); k++) {
      if (done[k]) {
        kept.add(keptOf[k]);
      }
    }
    for (int k = 0; k < comms.count(); k++) {
      for (int x = comms.start[k]; x < comms.start[k + 1] && !done[k]; x++) {
        DraftNode q = oldParent.of(comms.members[x]);
        if (q != null && (q.claimedBy == claimed || kept.contains(q))) {
          throw new AssertionError("member " + comms.members[x] + " of community " + k + " had the parent "
              + q.id + ", kept by a community left alone");
        }
      }
    }
    return true;
  }

  /**
   * The old parent of community {@code k} of leaves when the community is exactly what stayed of an old community,
   * none of it moved, and that parent lost nothing this run; else null. Then the parent's children are the
   * community's members and its sum is theirs already: a removed leaf leaves its parent structurally changed
   * (with a sum not yet recomputed), no member of the old community was taken into another community (whose
   * parent would have adopted it), the first member's parent is checked against the oracle's, and a leaf that did
   * not move has the embedding that is its sum.
   */
  static DraftNode keptFamily(Communities comms, int k, List<DraftNode> mem, OldParents oldParent,
      boolean[] moved, int[] oldCommunity, int[] stayed, long claimed) {
    int from = comms.start[k];
    int to = comms.start[k + 1];
    int first = comms.members[from];
    int c = oldCommunity[first];
    DraftNode p = oldParent.of(first);
    if (c < 0 || stayed[c] != to - from || p == null || p.claimedBy == claimed || p.structural
        || p.children.size() != to - from || mem.get(first).parent != p) {
      return null;
    }
    for (int x = from; x < to; x++) {
      int i = comms.members[x];
      if (oldCommunity[i] != c || oldParent.of(i) != p || moved[i]) {
        return null;
      }
    }
    return p;
  }

  /**
   * The old parent community {@code k} keeps: the unclaimed old parent of most of its members, ties to the
   * smaller id; null when none is left.
   */
  private static DraftNode claimOldParent(Communities comms, int k, OldParents oldParent,
      long claimed) {
    int from = comms.start[k];
    int to = comms.start[k + 1];
    DraftNode only = oldParent.of(comms.members[from]);
    boolean oneOldParent = only != null;
    for (int x = from + 1; x < to && oneOldParent; x++) {
      oneOldParent = oldParent.of(comms.members[x]) == only;
    }
    if (oneOldParent) { // the usual community: all of it under one old parent
      return only.claimedBy == claimed ? null : only;
    }
    Map<DraftNode, Integer> overlap = new LinkedHashMap<>();
    for (int x = from; x < to; x++) {
      DraftNode p = oldParent.of(comms.members[x]);
      if (p != null) {
        overlap.merge(p, 1, Integer::sum);
      }
    }
    DraftNode parent = null;
    int best = 0;
    for (Map.Entry<DraftNode, Integer> e : overlap.entrySet()) {
      DraftNode cand = e.getKey();
      if (cand.claimedBy != claimed && (e.getValue() > best
          || (e.getValue() == best && parent != null && cand.id.compareTo(parent.id) < 0))) {
        best = e.getValue();
        parent = cand;
      }
    }
    return parent;
  }

  /**
   * Whether {@code parent}'s children are exactly community {@code k}'s members: as many, and each member's
   * parent is {@code parent} (a node is among its parent's children: {@link DraftTree#attach} keeps both).
   */
  private static boolean sameChildren(DraftNode parent, Communities comms, int k, List<DraftNode> mem) {
    int from = comms.start[k];
    int to = comms.start[k + 1];
    if (parent.children.size() != to - from) {
      return false;
    }
    for (int x = from; x < to; x++) {
      if (mem.get(comms.members[x]).parent != parent) {
        return false;
      }
    }
    return true;
  }

  /**
   * Makes community {@code k}'s members {@code parent}'s children, releasing the others it had; called only when
   * they differ ({@link #sameChildren} false).
   */
  private static void adopt(DraftNode parent, Communities comms, int k, List<DraftNode> mem) {
    int from = comms.start[k];
    int to = comms.start[k + 1];
    Set<DraftNode> want = new HashSet<>();
    for (int x = from; x < to; x++) {
      want.add(mem.get(comms.members[x]));
    }
    parent.structural = true; // called when the children differ (sameChildren), so some change below
    parent.touch();
    for (DraftNode c : new ArrayList<>(parent.children)) {
      if (!want.contains(c)) {
        c.parent = null;
        c.touch();
        parent.children.remove(c);
      }
    }
    for (int x = from; x < to; x++) { // in member order: a set of nodes iterates in identity-hash order
      DraftNode c = mem.get(comms.members[x]);
      if (c.parent != parent) {
        DraftTree.attach(c, parent);
      }
    }
  }
}

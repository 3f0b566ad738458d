package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Parent preservation, the last step of an {@link IncrementalRebuild} level: the level's new communities get
 * the parents they had where they can, so unchanged communities keep their node, id and summary and need no
 * summariser work (docs/adr/0006-incremental-rebuild.md).
 *
 * <p>A level 0 has as many members as the knowledge base has leaves, and a run changes a few of its
 * communities: the pass over the members works on arrays (communities grouped by a counting sort in
 * {@link Communities}, an old parent resolved once per old community, nodes marked with a per-call stamp instead
 * of kept in hash sets), and a family that stayed whole and unmoved keeps its parent without its leaves being
 * read, so that it costs little more than reading the arrays.
 */
final class ParentPreservation {
  /** Stamps for {@link DraftNode#claimedBy} and {@link DraftNode#nextBy}: fresh for every call. */
  private static final AtomicLong STAMPS = new AtomicLong();

  private ParentPreservation() {}

  /**
   * Gives every community of >= 2 members a parent, preserving old parents: an unchanged community keeps
   * its parent; a changed one reuses the old parent it overlaps most; otherwise a new node. Singletons are
   * carried forward (detached from a parent they had at this level). Returns the next level's members in
   * the oracle's order where they existed, new ones after, and fills {@code parentOf} with each member's parent
   * (null for a member carried alone), so that the caller need not read it from every member. At level 0, a
   * community that is all that stayed of an old one, none of it moved, keeps its old parent without its children
   * or sum being looked at ({@link #keptFamily}).
   *
   * @param match the members matched to {@code old}'s: each one's old index, and which moved
   * @param oldCommunityOf each member's community in {@code old}, -1 for a new one ({@link AffectedCommunities})
   */
  static List<DraftNode> regroup(DraftTree draft, List<DraftNode> members, LevelMatch match, int[] oldCommunityOf,
      int[] assignment, HierarchyState.Level old, Map<String, DraftNode> byId, int parentLevel,
      TreeBuilder.IdSource ids, HierarchyState.Level nextOld, DraftNode[] parentOf) {
    int[] newToOld = match.newToOld();
    DraftNode[] mem = members.toArray(new DraftNode[0]);
    DraftNode[] oldParent = oldParents(mem, newToOld, old, byId);
    Communities comms = Communities.of(assignment);
    long claimed = STAMPS.incrementAndGet();
    List<DraftNode> parents = new ArrayList<>();
    int[] stayed = parentLevel == 1 ? stayed(oldCommunityOf) : null;
    // Communities in order of size, largest first, so the biggest overlap claims an old parent first.
    for (int k : comms.bySizeDescending()) {
      int from = comms.start[k];
      int size = comms.start[k + 1] - from;
      if (size == 1) {
        int i = comms.members[from];
        DraftNode x = mem[i];
        if (oldParent[i] != null && x.parent == oldParent[i]) {
          x.parent.children.remove(x);
          x.parent.structural = true;
          x.parent = null;
        }
        continue;
      }
      DraftNode kept = stayed == null ? null
          : keptFamily(comms, k, mem, oldParent, match.moved(), oldCommunityOf, stayed, claimed);
      if (kept != null) {
        kept.claimedBy = claimed;
        for (int x = from; x < from + size; x++) {
          parentOf[comms.members[x]] = kept;
        }
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
      for (int x = from; x < from + size; x++) {
        parentOf[comms.members[x]] = parent;
      }
      float[] sum = draft.canonicalSum(parent);
      if (!Arrays.equals(sum, parent.sum)) {
        parent.sum = sum;
        parent.centroidChanged = true;
      }
      parents.add(parent);
    }
    // Old parents of this level that no community claimed lose their children (then get pruned).
    for (DraftNode p : oldParent) {
      if (p != null && p.claimedBy != claimed && !p.children.isEmpty()) {
        for (DraftNode c : p.children) {
          c.parent = null;
        }
        p.children.clear();
      }
    }
    return nextMembers(mem, comms, parents, byId, nextOld);
  }

  /**
   * The parent each member had at this level (null when new or carried). Members of one old community share
   * their parent id, so it is resolved once per old community: a member whose parent id equals the one
   * resolved for its community (and which is not that parent itself) takes the same node.
   */
  private static DraftNode[] oldParents(DraftNode[] mem, int[] newToOld, HierarchyState.Level old,
      Map<String, DraftNode> byId) {
    int m = mem.length;
    DraftNode[] out = new DraftNode[m];
    String[] parentIds = old.parentIds();
    String[] memberIds = old.memberIds();
    int[] oldCommunity = old.assignment();
    int communities = 0;
    for (int c : oldCommunity) {
      communities = Math.max(communities, c + 1);
    }
    String[] resolvedId = new String[communities];
    DraftNode[] resolved = new DraftNode[communities];
    for (int i = 0; i < m; i++) {
      int o = newToOld[i];
      if (o < 0) {
        continue;
      }
      String pid = parentIds[o];
      if (pid == null) {
        continue;
      }
      int c = oldCommunity[o];
      DraftNode known = c >= 0 ? resolved[c] : null;
      if (known != null && known != mem[i] && (pid == resolvedId[c] || pid.equals(resolvedId[c]))) {
        out[i] = known; // ids are unique among the draft's nodes: not this member, so not carried
        continue;
      }
      if (!pid.equals(memberIds[o])) {
        DraftNode p = mem[i].parent; // usually still that parent: no lookup
        out[i] = p != null && p.id.equals(pid) ? p : byId.get(pid);
        if (c >= 0 && out[i] != null) {
          resolvedId[c] = pid;
          resolved[c] = out[i];
        }
      }
    }
    return out;
  }

  /**
   * The old parent of community {@code k} of leaves when the community is exactly what stayed of an old community,
   * none of it moved, and that parent lost nothing this run; else null. Then the parent's children are the
   * community's members and its sum is theirs already: a removed leaf leaves its parent structurally changed
   * (with a sum not yet recomputed), no member of the old community was taken into another community (whose
   * parent would have adopted it), the first member's parent is checked against the oracle's, and a leaf that did
   * not move has the embedding that is its sum.
   */
  private static DraftNode keptFamily(Communities comms, int k, DraftNode[] mem, DraftNode[] oldParent,
      boolean[] moved, int[] oldCommunity, int[] stayed, long claimed) {
    int from = comms.start[k];
    int to = comms.start[k + 1];
    int first = comms.members[from];
    int c = oldCommunity[first];
    DraftNode p = oldParent[first];
    if (c < 0 || stayed[c] != to - from || p == null || p.claimedBy == claimed || p.structural
        || p.children.size() != to - from || mem[first].parent != p) {
      return null;
    }
    for (int x = from; x < to; x++) {
      int i = comms.members[x];
      if (oldCommunity[i] != c || oldParent[i] != p || moved[i]) {
        return null;
      }
    }
    return p;
  }

  /** Per old community, how many of its members are members still. */
  private static int[] stayed(int[] oldCommunityOf) {
    int communities = 0;
    for (int c : oldCommunityOf) {
      communities = Math.max(communities, c + 1);
    }
    int[] count = new int[communities];
    for (int c : oldCommunityOf) {
      if (c >= 0) {
        count[c]++;
      }
    }
    return count;
  }

  /**
   * The old parent community {@code k} keeps: the unclaimed old parent of most of its members, ties to the
   * smaller id; null when none is left.
   */
  private static DraftNode claimOldParent(Communities comms, int k, DraftNode[] oldParent,
      long claimed) {
    int from = comms.start[k];
    int to = comms.start[k + 1];
    DraftNode only = oldParent[comms.members[from]];
    boolean oneOldParent = only != null;
    for (int x = from + 1; x < to && oneOldParent; x++) {
      oneOldParent = oldParent[comms.members[x]] == only;
    }
    if (oneOldParent) { // the usual community: all of it under one old parent
      return only.claimedBy == claimed ? null : only;
    }
    Map<DraftNode, Integer> overlap = new LinkedHashMap<>();
    for (int x = from; x < to; x++) {
      DraftNode p = oldParent[comms.members[x]];
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
  private static boolean sameChildren(DraftNode parent, Communities comms, int k, DraftNode[] mem) {
    int from = comms.start[k];
    int to = comms.start[k + 1];
    if (parent.children.size() != to - from) {
      return false;
    }
    for (int x = from; x < to; x++) {
      if (mem[comms.members[x]].parent != parent) {
        return false;
      }
    }
    return true;
  }

  /**
   * Makes community {@code k}'s members {@code parent}'s children, releasing the others it had; called only when
   * they differ ({@link #sameChildren} false).
   */
  private static void adopt(DraftNode parent, Communities comms, int k, DraftNode[] mem) {
    int from = comms.start[k];
    int to = comms.start[k + 1];
    Set<DraftNode> want = new HashSet<>();
    for (int x = from; x < to; x++) {
      want.add(mem[comms.members[x]]);
    }
    parent.structural = true; // called when the children differ (sameChildren), so some change below
    for (DraftNode c : new ArrayList<>(parent.children)) {
      if (!want.contains(c)) {
        c.parent = null;
        parent.children.remove(c);
      }
    }
    for (int x = from; x < to; x++) { // in member order: a set of nodes iterates in identity-hash order
      DraftNode c = mem[comms.members[x]];
      if (c.parent != parent) {
        DraftTree.attach(c, parent);
      }
    }
  }

  /**
   * The next level's members: carried singletons (communities in order of first appearance) and parents,
   * in the oracle's order where they were members of its next level, the others by creation order after.
   */
  private static List<DraftNode> nextMembers(DraftNode[] mem, Communities comms,
      List<DraftNode> parents, Map<String, DraftNode> byId, HierarchyState.Level nextOld) {
    long stamp = STAMPS.incrementAndGet();
    List<DraftNode> carried = new ArrayList<>();
    for (int k = 0; k < comms.count(); k++) {
      if (comms.start[k + 1] - comms.start[k] == 1) {
        mark(mem[comms.members[comms.start[k]]], stamp, carried);
      }
    }
    for (DraftNode p : parents) {
      mark(p, stamp, carried);
    }
    List<DraftNode> next = new ArrayList<>(carried.size());
    if (nextOld != null) {
      for (String id : nextOld.memberIds()) {
        DraftNode n = byId.get(id);
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

  private static void mark(DraftNode n, long stamp, List<DraftNode> marked) {
    if (n.nextBy != stamp) {
      n.nextBy = stamp;
      marked.add(n);
    }
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The reference for {@link ParentPreservationTest}: parent preservation as it was written first, with
 * boxed maps and sets (commit 5bc99af), which the array form of {@link ParentPreservation} must equal.
 *
 * <p>Parent preservation, the last step of an {@link IncrementalRebuild} level: the level's new communities get
 * the parents they had where they can, so unchanged communities keep their node, id and summary and need no
 * summariser work (docs/adr/0006-incremental-rebuild.md).
 */
final class ReferenceParentPreservation {
  private ReferenceParentPreservation() {}

  /**
   * Gives every community of >= 2 members a parent, preserving old parents: an unchanged community keeps
   * its parent; a changed one reuses the old parent it overlaps most; otherwise a new node. Singletons are
   * carried forward (detached from a parent they had at this level). Returns the next level's members in
   * the oracle's order where they existed, new ones after.
   */
  static List<DraftNode> regroup(DraftTree draft, List<DraftNode> members, int[] newToOld,
      int[] assignment, HierarchyState.Level old, Map<String, DraftNode> byId, int parentLevel,
      TreeBuilder.IdSource ids, HierarchyState.Level nextOld) {
    int m = members.size();
    // The parent each member had at this level (null when new or carried).
    DraftNode[] oldParent = new DraftNode[m];
    for (int i = 0; i < m; i++) {
      int o = newToOld[i];
      String pid = o < 0 ? null : old.parentIds()[o];
      if (pid != null && !pid.equals(old.memberIds()[o])) {
        DraftNode p = members.get(i).parent; // usually still that parent: no lookup
        oldParent[i] = p != null && p.id.equals(pid) ? p : byId.get(pid);
      }
    }
    Map<Integer, List<Integer>> communities = new LinkedHashMap<>();
    for (int i = 0; i < m; i++) {
      communities.computeIfAbsent(assignment[i], k -> new ArrayList<>()).add(i);
    }
    Set<DraftNode> claimed = new HashSet<>();
    List<DraftNode> parents = new ArrayList<>();
    // Communities in order of size, largest first, so the biggest overlap claims an old parent first.
    List<List<Integer>> order = new ArrayList<>(communities.values());
    order.sort((a, b) -> Integer.compare(b.size(), a.size()));
    for (List<Integer> comm : order) {
      if (comm.size() == 1) {
        int i = comm.get(0);
        DraftNode x = members.get(i);
        if (oldParent[i] != null && x.parent == oldParent[i]) {
          x.parent.children.remove(x);
          x.parent.structural = true;
          x.parent = null;
        }
        continue;
      }
      DraftNode only = oldParent[comm.get(0)];
      boolean oneOldParent = only != null;
      for (int x = 1; x < comm.size() && oneOldParent; x++) {
        oneOldParent = oldParent[comm.get(x)] == only;
      }
      DraftNode parent = null;
      int best = 0;
      // The usual community: all of it under one old parent, which then is its only overlap.
      Map<DraftNode, Integer> overlap = oneOldParent ? Map.of(only, comm.size()) : new HashMap<>();
      for (int x = 0; x < comm.size() && !oneOldParent; x++) {
        if (oldParent[comm.get(x)] != null) {
          overlap.merge(oldParent[comm.get(x)], 1, Integer::sum);
        }
      }
      for (Map.Entry<DraftNode, Integer> e : overlap.entrySet()) {
        DraftNode cand = e.getKey();
        if (!claimed.contains(cand) && (e.getValue() > best
            || (e.getValue() == best && parent != null && cand.id.compareTo(parent.id) < 0))) {
          best = e.getValue();
          parent = cand;
        }
      }
      if (parent == null) {
        parent = draft.addInternal(ids.next(), parentLevel);
        byId.put(parent.id, parent);
      }
      claimed.add(parent);
      Set<DraftNode> want = sameChildren(parent, comm, members) ? null : new HashSet<>();
      for (int x = 0; want != null && x < comm.size(); x++) {
        want.add(members.get(comm.get(x)));
      }
      if (want != null && !want.equals(new HashSet<>(parent.children))) {
        parent.structural = true;
        // Release children that no longer belong here.
        for (DraftNode c : new ArrayList<>(parent.children)) {
          if (!want.contains(c)) {
            c.parent = null;
            parent.children.remove(c);
          }
        }
        for (int i : comm) { // in member order: a set of nodes iterates in identity-hash order, run to run
          DraftNode c = members.get(i);
          if (c.parent != parent) {
            DraftTree.attach(c, parent);
          }
        }
      }
      float[] sum = draft.canonicalSum(parent);
      if (!Arrays.equals(sum, parent.sum)) {
        parent.sum = sum;
        parent.centroidChanged = true;
      }
      parents.add(parent);
    }
    // Old parents of this level that no community claimed lose their children (then get pruned).
    for (int i = 0; i < m; i++) {
      DraftNode p = oldParent[i];
      if (p != null && !claimed.contains(p)) {
        for (DraftNode c : new ArrayList<>(p.children)) {
          c.parent = null;
        }
        p.children.clear();
      }
    }
    // Next level's members: carried singletons and parents, in the oracle's order, new ones after.
    Set<DraftNode> nextSet = new java.util.LinkedHashSet<>();
    for (List<Integer> comm : communities.values()) {
      if (comm.size() == 1) {
        nextSet.add(members.get(comm.get(0)));
      }
    }
    nextSet.addAll(parents);
    List<DraftNode> next = new ArrayList<>();
    if (nextOld != null) {
      for (String id : nextOld.memberIds()) {
        DraftNode n = byId.get(id);
        if (n != null && nextSet.remove(n)) {
          next.add(n);
        }
      }
    }
    List<DraftNode> rest = new ArrayList<>(nextSet);
    rest.sort((a, b) -> Long.compare(a.order, b.order));
    next.addAll(rest);
    return next;
  }

  /**
   * Whether {@code parent}'s children are exactly the community's members: as many, and each member's
   * parent is {@code parent} (a node is among its parent's children: {@link DraftTree#attach} keeps both).
   */
  private static boolean sameChildren(DraftNode parent, List<Integer> comm, List<DraftNode> members) {
    if (parent.children.size() != comm.size()) {
      return false;
    }
    for (int i : comm) {
      if (members.get(i).parent != parent) {
        return false;
      }
    }
    return true;
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The parent each member of a level had in the oracle, for {@link ParentPreservation} (null when new or carried
 * alone), resolved when first asked. Members of one old community share their parent id, so it is looked up once per
 * old community: a member whose parent id equals the one resolved for its community (and which is not that parent
 * itself) takes the same node. The answers are kept by member in a map while few members were asked (a one-fact run
 * asks about the members of a few communities), in arrays as long as the level once more than an eighth of it was.
 */
final class OldParents {
  private final List<DraftNode> mem;
  private final int[] newToOld;
  private final String[] parentIds;
  private final String[] memberIds;
  private final int[] oldCommunity;
  private final Map<String, DraftNode> byId;
  /** The answers by member while few were asked; null once they are in {@link #of}. */
  private Map<Integer, DraftNode> few = new HashMap<>();
  /** The answers by member ({@link #asked} tells a null answer from none), once many members were asked. */
  private DraftNode[] of;
  private boolean[] asked;
  private final String[] resolvedId;
  private final DraftNode[] resolved;
  private final List<DraftNode> found = new ArrayList<>();
  /** Per entry of {@link #found}, the old community of the member it was resolved for (-1: none). */
  private int[] foundFor = new int[16];

  /**
   * @param mem the level's members
   * @param newToOld each member's index in {@code old} (-1: new)
   * @param old the oracle's level
   * @param byId the draft's nodes by id
   */
  OldParents(List<DraftNode> mem, int[] newToOld, HierarchyState.Level old, Map<String, DraftNode> byId) {
    this.mem = mem;
    this.newToOld = newToOld;
    this.parentIds = old.parentIds();
    this.memberIds = old.memberIds();
    this.oldCommunity = old.assignment();
    this.byId = byId;
    int communities = old.communityCount();
    this.resolvedId = new String[communities];
    this.resolved = new DraftNode[communities];
  }

  /** Member {@code i}'s parent in the oracle, or null. */
  DraftNode of(int i) {
    if (of != null) {
      if (!asked[i]) {
        asked[i] = true;
        of[i] = ask(i);
      }
      return of[i];
    }
    DraftNode p = few.get(i);
    if (p != null || few.containsKey(i)) {
      return p;
    }
    p = ask(i);
    few.put(i, p);
    int m = mem.size();
    if (few.size() > m / 8 + 16) { // many asked: arrays cost less than the map from here on
      of = new DraftNode[m];
      asked = new boolean[m];
      for (Map.Entry<Integer, DraftNode> e : few.entrySet()) {
        of[e.getKey()] = e.getValue();
        asked[e.getKey()] = true;
      }
      few = null;
    }
    return p;
  }

  /** Resolves member {@code i}'s old parent, asked for the first time, and lists it when there is one. */
  private DraftNode ask(int i) {
    DraftNode p = resolve(i);
    if (p != null) {
      if (found.size() == foundFor.length) {
        foundFor = java.util.Arrays.copyOf(foundFor, 2 * foundFor.length);
      }
      foundFor[found.size()] = newToOld[i] >= 0 ? oldCommunity[newToOld[i]] : -1;
      found.add(p);
    }
    return p;
  }

  /** Every old parent resolved so far (a node may be listed more than once). */
  List<DraftNode> resolved() {
    return found;
  }

  /** The old community of the member that the {@code j}th of {@link #resolved} was resolved for (-1: none). */
  int resolvedFor(int j) {
    return foundFor[j];
  }

  private DraftNode resolve(int i) {
    int o = newToOld[i];
    if (o < 0) {
      return null;
    }
    String pid = parentIds[o];
    if (pid == null) {
      return null;
    }
    int c = oldCommunity[o];
    DraftNode known = c >= 0 ? resolved[c] : null;
    if (known != null && known != mem.get(i) && (pid == resolvedId[c] || pid.equals(resolvedId[c]))) {
      return known; // ids are unique among the draft's nodes: not this member, so not carried
    }
    if (pid.equals(memberIds[o])) {
      return null;
    }
    DraftNode p = mem.get(i).parent; // usually still that parent: no lookup
    DraftNode out = p != null && p.id.equals(pid) ? p : byId.get(pid);
    if (c >= 0 && out != null) {
      resolvedId[c] = pid;
      resolved[c] = out;
    }
    return out;
  }
}

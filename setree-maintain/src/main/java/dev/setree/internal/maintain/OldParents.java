package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The parent each member of a level had in the oracle, for {@link ParentPreservation} (null when new or carried
 * alone), resolved when first asked. Members of one old community share their parent id, so it is looked up once per
 * old community: a member whose parent id equals the one resolved for its community (and which is not that parent
 * itself) takes the same node.
 */
final class OldParents {
  private final List<DraftNode> mem;
  private final int[] newToOld;
  private final String[] parentIds;
  private final String[] memberIds;
  private final int[] oldCommunity;
  private final Map<String, DraftNode> byId;
  private final DraftNode[] of;
  private final boolean[] asked;
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
    this.of = new DraftNode[mem.size()];
    this.asked = new boolean[mem.size()];
    int communities = old.communityCount();
    this.resolvedId = new String[communities];
    this.resolved = new DraftNode[communities];
  }

  /** Member {@code i}'s parent in the oracle, or null. */
  DraftNode of(int i) {
    if (!asked[i]) {
      asked[i] = true;
      of[i] = resolve(i);
      if (of[i] != null) {
        if (found.size() == foundFor.length) {
          foundFor = java.util.Arrays.copyOf(foundFor, 2 * foundFor.length);
        }
        foundFor[found.size()] = newToOld[i] >= 0 ? oldCommunity[newToOld[i]] : -1;
        found.add(of[i]);
      }
    }
    return of[i];
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

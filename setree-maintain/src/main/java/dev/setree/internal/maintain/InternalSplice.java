package dev.setree.internal.maintain;

import dev.setree.internal.core.Tree;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The internal nodes of a {@link DraftTree} in the order its freeze gives them (by level, then creation order, the
 * root last; {@link DraftFreeze#byLevel}), found from the run's log ({@link Touched}) instead of a look at every
 * node: the base tree's internal nodes that are still in the draft keep their relative order, and the few the run
 * made are spliced in at the end of their level. In a profile of 30 runs at a million leaves, the sort by level and
 * the columns written node by node, in the runs that made or dropped an internal node, took 933 of the freeze's 3,158
 * samples (ADR 0034, amendment of 2026-12-06, late evening).
 *
 * <p>It holds when the draft's internal nodes are the base's still in it, in the base's order, followed by the nodes
 * made since (in creation order; {@link DraftTree#addInternal} appends, and a drop keeps the order of the others), the
 * base's internal nodes are by level with the root last, and the root is the last of the base's nodes still in the
 * draft (the base's root, or the node left on top when that was dropped) or a node made since above the base's root
 * (a run whose top level grew a level). Each node the run made or dropped is in the log. {@link #of} checks what it
 * can without a look at every node, and gives null otherwise.
 */
final class InternalSplice {
  private InternalSplice() {}

  /**
   * The internal nodes in the freeze's order, and how many lead it at their places among the base's internal nodes:
   * those before the first node made or dropped, which keep their {@link DraftNode#index}.
   */
  record Spliced(List<DraftNode> order, int unmoved) {}

  /**
   * The internal nodes of {@code d} in the freeze's order, or null when they cannot be found so.
   *
   * @param base the tree {@code d} last froze or was copied from, whose leaves {@code d} kept in place
   */
  static Spliced of(DraftTree d, Tree base) {
    int baseLeaves = base.leafCount();
    int baseInner = base.size() - baseLeaves;
    if (baseInner == 0 || !byLevel(base)) {
      return null;
    }
    long firstNew = DraftTree.INTERNAL_ORDER + baseInner; // the orders of the nodes made since
    List<DraftNode> made = new ArrayList<>();
    int dropped = 0;
    int[] droppedAt = new int[8]; // the dropped nodes' places among the base's internal nodes
    for (DraftNode n : d.touched.nodes()) {
      boolean in = d.byId.get(n.id) == n;
      if (n.order >= firstNew) {
        if (in) {
          made.add(n);
        }
      } else if (!in) {
        if (dropped == droppedAt.length) {
          droppedAt = Arrays.copyOf(droppedAt, 2 * dropped);
        }
        droppedAt[dropped++] = n.index;
      }
    }
    int kept = baseInner - dropped;
    List<DraftNode> internal = d.internal;
    if (internal.size() != kept + made.size() || kept == 0) {
      return null; // a node was made or dropped that the log does not show
    }
    // The root is the last of the base's nodes kept (the base's root, or, when that was dropped, the node left on
    // top), or one made above the base's root (the hierarchy grew a level): the base's root is then one of the
    // others, above every other node of the base, and the nodes made at its level or lower go by level around it.
    DraftNode last = internal.get(kept - 1);
    int lastPlace = last.index;
    DraftNode root = d.root();
    boolean newRoot = root != last;
    if (newRoot && (root.order < firstNew || lastPlace != baseInner - 1
        || lastPlace > 0 && base.level(baseLeaves + lastPlace) < base.level(baseLeaves + lastPlace - 1))) {
      return null; // another node is the root: the freeze moves it last
    }
    if (newRoot) {
      made.remove(root);
    }
    int top = newRoot ? baseInner : lastPlace; // the places before the root, which are by level
    droppedAt = Arrays.copyOf(droppedAt, dropped);
    Arrays.sort(droppedAt);
    // The nodes made, by level: in creation order within one, as they come in the draft (a stable insertion sort of
    // a few nodes, with no lambda for a writer's first run to link: ADR 0045).
    for (int i = 1; i < made.size(); i++) {
      DraftNode n = made.get(i);
      int j = i;
      for (; j > 0 && made.get(j - 1).level > n.level; j--) {
        made.set(j, made.get(j - 1));
      }
      made.set(j, n);
    }
    List<DraftNode> out = new ArrayList<>(internal.size());
    int unmoved = dropped > 0 ? droppedAt[0] : kept; // the base's nodes kept before the first made or dropped
    int taken = 0; // the base's nodes still in the draft taken so far
    for (int i = 0; i < made.size(); ) {
      int level = made.get(i).level;
      int at = keptBefore(firstAbove(base, level, top), droppedAt); // the first kept node of a higher level, or top
      unmoved = Math.min(unmoved, at);
      out.addAll(internal.subList(taken, at));
      taken = at;
      for (; i < made.size() && made.get(i).level == level; i++) {
        out.add(made.get(i));
      }
    }
    out.addAll(internal.subList(taken, kept));
    if (newRoot) {
      out.add(root);
    }
    assert out.equals(rootLast(DraftFreeze.byLevel(internal))) : "the spliced order is not the freeze's";
    assert unmovedInPlace(out, unmoved) : "a node before the first made or dropped is not at its base place";
    return new Spliced(out, unmoved);
  }

  /** Whether each of the first {@code count} nodes is at its place among the base's internal nodes (assertions). */
  private static boolean unmovedInPlace(List<DraftNode> order, int count) {
    for (int p = 0; p < count; p++) {
      if (order.get(p).index != p) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code base}'s internal nodes before the root are in non-decreasing levels (one pass over an array). */
  private static boolean byLevel(Tree base) {
    for (int v = base.leafCount() + 1; v < base.size() - 1; v++) {
      if (base.level(v) < base.level(v - 1)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The first of {@code base}'s internal nodes (by place among them) above {@code level} among the first {@code top},
   * which are by level, or {@code top}.
   */
  private static int firstAbove(Tree base, int level, int top) {
    int lo = 0;
    int hi = top;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (base.level(base.leafCount() + mid) > level) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** How many of the base's internal nodes before place {@code at} are still in the draft. */
  private static int keptBefore(int at, int[] droppedAt) {
    int before = 0;
    while (before < droppedAt.length && droppedAt[before] < at) {
      before++;
    }
    return at - before;
  }

  private static List<DraftNode> rootLast(List<DraftNode> nodes) {
    DraftNode root = nodes.stream().filter(n -> n.parent == null).findFirst().orElseThrow();
    nodes.remove(root);
    nodes.add(root);
    return nodes;
  }
}

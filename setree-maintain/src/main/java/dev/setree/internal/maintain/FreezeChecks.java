package dev.setree.internal.maintain;

import dev.setree.internal.core.Tree;
import java.util.List;

/**
 * The checks a {@link DraftFreeze} makes of its leaves: under assertions, of the leaves it kept in place, that they are
 * where it takes them to be and that copying their columns from the base froze them as a look at each would have;
 * and whether every leaf is plain, so that four columns are kept per internal node; and, of the draft it freezes, that
 * it has one root.
 */
final class FreezeChecks {
  private FreezeChecks() {}

  /** Whether the first {@code count} nodes are leaves whose index is their place (checked under assertions). */
  static boolean keptInPlace(List<DraftNode> order, int count) {
    for (int i = 0; i < count; i++) {
      DraftNode v = order.get(i);
      if (!v.leaf || v.index != i) {
        throw new AssertionError("kept leaf " + v.id + " has index " + v.index + " at " + i);
      }
    }
    return true;
  }

  /**
   * Whether the first {@code count} leaves were frozen as a look at each would have frozen them: their parents as
   * in the draft, and nothing left unlogged (checked under assertions).
   */
  static boolean keptLeavesFrozen(List<DraftNode> order, int count, int[] parent, int leafCount) {
    for (int i = 0; i < count; i++) {
      DraftNode v = order.get(i);
      int p = v.parent == null ? -1 : leafCount + v.parent.index;
      if (parent[i] != p || v.rowChanged()) {
        throw new AssertionError("kept leaf " + v.id + " frozen with parent " + parent[i] + ", its parent is " + p
            + (v.rowChanged() ? ", and its row change was not logged" : ""));
      }
    }
    return true;
  }

  /**
   * Whether every leaf of the new tree is plain (no summariser kind, {@link Tree#LEAF_FAITHFULNESS}; a leaf's level
   * and loss are 0): the {@code from} leaves kept from {@code base} when the base's are ({@link Tree#leavesPlain},
   * known at once for a tree a run froze), and each leaf after them, written from its node (a one-fact run has one).
   */
  static boolean leavesPlain(List<DraftNode> leaves, int from, int leafCount, Tree base) {
    if (from > 0 && !base.leavesPlain()) {
      return false;
    }
    for (int i = from; i < leafCount; i++) {
      DraftNode v = leaves.get(i);
      if (v.kind != null || v.faithfulness != Tree.LEAF_FAITHFULNESS) {
        return false;
      }
    }
    return true;
  }

  /** The only internal node without a parent, found by a look at every one (checked under assertions). */
  static DraftNode onlyRoot(List<DraftNode> internal) {
    DraftNode root = null;
    for (DraftNode n : internal) {
      if (n.parent == null) {
        if (root != null) {
          throw new IllegalStateException("two roots: " + root + " and " + n);
        }
        root = n;
      }
    }
    return root;
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.ShapeFrom;
import dev.setree.internal.core.Tree;
import java.util.Arrays;
import java.util.List;

/**
 * What a spliced freeze ({@link DraftFreeze}, with {@link InternalSplice}) knows of the new tree's shape
 * ({@link ShapeFrom}, ADR 0034): the internal nodes the run touched and every node above them get their child lists,
 * leaf counts and depths afresh, from their children; every other internal node's are the base tree's, renumbered.
 * A node that lost or gained a child, or whose sum changed, is touched (a freeze checks that an untouched node's row
 * is the base's under assertions, and the tree checks the shape it derives against the one from every parent). At a
 * million leaves, deriving the child lists and sizes from every node's parent took about 10 ms of each one-fact run's
 * freeze.
 */
final class FrozenShape {
  private FrozenShape() {}

  /**
   * The shape of the tree frozen from {@code order} (the nodes in the new tree's order, their indexes set).
   *
   * @param touched the internal nodes the run touched, the nodes it made among them
   * @param leafCount the new tree's leaves
   * @param base the tree the draft last froze, whose leaves are the new tree's first ones
   * @param previous per internal node of the new tree, its index in {@code base} (-1: made since), taken over
   * @param now per internal node of {@code base}, its index in the new tree (-1: gone)
   */
  static ShapeFrom of(List<DraftNode> order, DraftNode[] touched, int leafCount, Tree base, int[] previous,
      int[] now) {
    int n = order.size();
    boolean[] marked = new boolean[n - leafCount];
    int[] redo = new int[Math.max(16, 8 * touched.length)];
    int count = 0;
    for (DraftNode t : touched) {
      for (DraftNode v = t; v != null && !marked[v.index]; v = v.parent) {
        marked[v.index] = true;
        if (count == redo.length) {
          redo = Arrays.copyOf(redo, 2 * count);
        }
        redo[count++] = leafCount + v.index;
      }
    }
    redo = Arrays.copyOf(redo, count);
    Arrays.sort(redo);
    int[][] children = new int[count][];
    for (int r = 0; r < count; r++) {
      List<DraftNode> kids = order.get(redo[r]).children;
      children[r] = new int[kids.size()];
      for (int i = 0; i < children[r].length; i++) {
        children[r][i] = kids.get(i).indexAmong(leafCount);
      }
    }
    return new ShapeFrom(base, previous, now, redo, children);
  }
}

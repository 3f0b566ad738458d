package dev.setree.internal.maintain;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * The nodes of the tree a {@link DraftFreeze} makes, in its order: the draft's leaves, then the internal nodes in the
 * order the freeze gives them. A view of the two lists, which the freeze does not change, so that it does not copy a
 * reference per leaf into a list of every node (at a million leaves, two copies of 4 MB a run).
 */
final class FrozenOrder extends AbstractList<DraftNode> implements RandomAccess {
  private final List<DraftNode> leaves;
  private final List<DraftNode> internal;
  private final int leafCount;

  /** The view of {@code leaves} then {@code internal}, both random access. */
  FrozenOrder(List<DraftNode> leaves, List<DraftNode> internal) {
    if (!(leaves instanceof RandomAccess) || !(internal instanceof RandomAccess)) {
      throw new IllegalArgumentException("the freeze's lists must be random access");
    }
    this.leaves = leaves;
    this.internal = internal;
    this.leafCount = leaves.size();
  }

  @Override
  public DraftNode get(int i) {
    return i < leafCount ? leaves.get(i) : internal.get(i - leafCount);
  }

  @Override
  public int size() {
    return leafCount + internal.size();
  }
}

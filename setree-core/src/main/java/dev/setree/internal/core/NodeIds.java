package dev.setree.internal.core;

/**
 * Each node's index by id in a {@link Tree}: the leaves' table and the internal nodes' apart, so that a tree whose
 * first leaves are those of the tree before it extends that tree's leaf table by its new leaves instead of hashing
 * every id again (a maintenance run that kept every old leaf in place, ADR 0034), and takes that tree's internal
 * nodes' table, positions shifted, when its internal nodes are that tree's in the same order. Immutable; refuses an
 * id listed twice, within either part or across them.
 */
final class NodeIds {
  private final String[] ids;
  private final int leafCount;
  private final IdIndex leaves;
  private final IdIndex inner;
  /**
   * Added to a position {@link #inner} gives: the internal nodes' table may be an earlier tree's, whose internal
   * nodes were these in the same order, before leaves were appended.
   */
  private final int innerShift;

  private NodeIds(String[] ids, int leafCount, IdIndex leaves, IdIndex inner, int innerShift) {
    this.ids = ids;
    this.leafCount = leafCount;
    this.leaves = leaves;
    this.inner = inner;
    this.innerShift = innerShift;
  }

  /**
   * Whether {@code a} and {@code b} hold the same ids in their first {@code count} places (both at least that long).
   * The same strings in the usual case, where one list was copied from the other: no characters compared. One
   * loop, not an accessor call per id: the check reads every leaf's id in a process's first maintenance run, before
   * any of it is compiled.
   */
  static boolean samePrefix(String[] a, String[] b, int count) {
    if (count > a.length || count > b.length) {
      return false;
    }
    for (int i = 0; i < count; i++) {
      if (a[i] != b[i] && !a[i].equals(b[i])) {
        return false;
      }
    }
    return true;
  }

  /**
   * The index of {@code ids}, whose first {@code leafCount} are leaves. {@code leading}: null, or the index of a
   * tree whose leaves are the first of these, with the same ids, and no more of them.
   *
   * @throws IllegalArgumentException for an id listed twice
   */
  static NodeIds of(String[] ids, int leafCount, NodeIds leading) {
    return of(ids, leafCount, leading, null);
  }

  /**
   * {@link #of(String[], int, NodeIds)}, told by {@code previous} (null, or per internal node its index in
   * {@code leading}'s tree, -1 for a node made since: {@link ShapeFrom#previous}) which internal nodes were that
   * tree's. Such a node, under the same id string, is not looked for among the leaves: its id was checked against
   * that tree's leaves, and the leaves added since are checked against the internal nodes instead. A maintenance
   * run's freeze at a million leaves had looked each of about 140,000 internal ids up in the leaves' table.
   */
  static NodeIds of(String[] ids, int leafCount, NodeIds leading, int[] previous) {
    IdIndex leaves;
    if (leading != null && leading.leafCount <= leafCount) {
      assert sameLeadingIds(leading, ids) : "the leading leaves are not the given tree's";
      leaves = leading.leaves.extendedTo(ids, leafCount, "node id");
      if (sameInternalNodes(leading, ids, leafCount)) {
        // The usual one-fact run: the same internal nodes in the same order, the same strings. Their table is the
        // leading tree's, which was checked against its leaves; only the leaves added since are checked against it.
        for (int v = leading.leafCount; v < leafCount; v++) {
          if (leading.inner.indexOf(ids[v]) >= 0) {
            throw new IllegalArgumentException("duplicate node id " + ids[v]);
          }
        }
        return new NodeIds(ids, leafCount, leaves, leading.inner,
            leading.innerShift + leafCount - leading.leafCount);
      }
    } else {
      leaves = IdIndex.of(ids, 0, leafCount, "node id");
      previous = null;
    }
    IdIndex inner = IdIndex.of(ids, leafCount, ids.length, "node id");
    if (previous != null) {
      for (int v = leading.leafCount; v < leafCount; v++) {
        if (inner.indexOf(ids[v]) >= 0) {
          throw new IllegalArgumentException("duplicate node id " + ids[v]);
        }
      }
    }
    for (int v = leafCount; v < ids.length; v++) {
      int o = previous == null ? -1 : previous[v - leafCount];
      boolean checked = o >= 0 && o >= leading.leafCount && o < leading.ids.length && ids[v] == leading.ids[o];
      if (!checked && leaves.indexOf(ids[v]) >= 0) {
        throw new IllegalArgumentException("duplicate node id " + ids[v]);
      }
    }
    return new NodeIds(ids, leafCount, leaves, inner, 0);
  }

  /** Whether the nodes after the leaves are {@code leading}'s internal nodes, in order, by the same strings. */
  private static boolean sameInternalNodes(NodeIds leading, String[] ids, int leafCount) {
    int count = ids.length - leafCount;
    if (count != leading.ids.length - leading.leafCount) {
      return false;
    }
    for (int i = 0; i < count; i++) {
      if (ids[leafCount + i] != leading.ids[leading.leafCount + i]) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameLeadingIds(NodeIds leading, String[] ids) {
    for (int v = 0; v < leading.leafCount; v++) {
      if (!leading.ids[v].equals(ids[v])) {
        return false;
      }
    }
    return true;
  }

  /** The node's index for an id, or -1 (also for null). */
  int indexOf(String id) {
    int v = inner.indexOf(id); // the smaller table first: a leaf's lookup misses it cheaply
    return v >= 0 ? v + innerShift : leaves.indexOf(id);
  }

  /** The node's index for an id, looked for at {@code hint} first. */
  int indexOf(String id, int hint) {
    return hint >= 0 && hint < ids.length && ids[hint].equals(id) ? hint : indexOf(id);
  }
}

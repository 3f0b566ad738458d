package dev.setree.internal.core;

/**
 * Each node's index by id in a {@link Tree}: the leaves' table and the internal nodes' apart, so that a tree whose
 * first leaves are those of the tree before it extends that tree's leaf table by its new leaves instead of hashing
 * every id again (a maintenance run that kept every old leaf in place, ADR 0034), and takes that tree's internal
 * nodes' table when its internal nodes are that tree's in the same order. Immutable; refuses an id listed twice,
 * within either part or across them.
 */
final class NodeIds {
  /** The leaves' ids (leaf v's at v; entries past the leaves are not this index's) and the internal nodes'. */
  private final String[] leafIds;
  private final String[] innerIds;
  private final int leafCount;
  private final IdIndex leaves;
  /** Positions among the internal nodes: node {@code leafCount + position}. */
  private final IdIndex inner;

  private NodeIds(String[] leafIds, String[] innerIds, int leafCount, IdIndex leaves, IdIndex inner) {
    this.leafIds = leafIds;
    this.innerIds = innerIds;
    this.leafCount = leafCount;
    this.leaves = leaves;
    this.inner = inner;
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
   * The index of the leaves' ids ({@code leafIds}, the first {@code leafCount} entries; entries after them are not
   * read) and the internal nodes' ({@code innerIds}); both arrays are kept, not copied. {@code leading}: null, or the
   * index of a tree whose leaves are the first of these, with the same ids, and no more of them. {@code previous}:
   * null, or per internal node its index in {@code leading}'s tree, -1 for a node made since
   * ({@link ShapeFrom#previous}). Such a node, under the same id string, is not looked for among the leaves: its id
   * was checked against that tree's leaves, and the leaves added since are checked against the internal nodes instead.
   * A maintenance run's freeze at a million leaves had looked each of about 140,000 internal ids up in the leaves'
   * table.
   *
   * @throws IllegalArgumentException for an id listed twice
   */
  static NodeIds of(String[] leafIds, int leafCount, String[] innerIds, NodeIds leading, int[] previous) {
    IdIndex leaves;
    if (leading != null && leading.leafCount <= leafCount) {
      assert sameLeadingIds(leading, leafIds) : "the leading leaves are not the given tree's";
      leaves = leading.leaves.extendedTo(leafIds, leafCount, "node id");
      if (sameInternalNodes(leading, innerIds)) {
        // The usual one-fact run: the same internal nodes in the same order, the same strings. Their table is the
        // leading tree's, which was checked against its leaves; only the leaves added since are checked against it.
        for (int v = leading.leafCount; v < leafCount; v++) {
          if (leading.inner.indexOf(leafIds[v]) >= 0) {
            throw new IllegalArgumentException("duplicate node id " + leafIds[v]);
          }
        }
        return new NodeIds(leafIds, innerIds, leafCount, leaves, leading.inner);
      }
    } else {
      leaves = IdIndex.of(leafIds, 0, leafCount, "node id");
      previous = null;
    }
    IdIndex inner = IdIndex.of(innerIds, "node id");
    if (previous != null) {
      for (int v = leading.leafCount; v < leafCount; v++) {
        if (inner.indexOf(leafIds[v]) >= 0) {
          throw new IllegalArgumentException("duplicate node id " + leafIds[v]);
        }
      }
    }
    for (int i = 0; i < innerIds.length; i++) {
      int o = previous == null ? -1 : previous[i];
      boolean checked = o >= 0 && o >= leading.leafCount && o - leading.leafCount < leading.innerIds.length
          && innerIds[i] == leading.innerIds[o - leading.leafCount];
      if (!checked && leaves.indexOf(innerIds[i]) >= 0) {
        throw new IllegalArgumentException("duplicate node id " + innerIds[i]);
      }
    }
    return new NodeIds(leafIds, innerIds, leafCount, leaves, inner);
  }

  /** Whether the internal nodes are {@code leading}'s, in order, by the same strings. */
  private static boolean sameInternalNodes(NodeIds leading, String[] innerIds) {
    if (innerIds.length != leading.innerIds.length) {
      return false;
    }
    for (int i = 0; i < innerIds.length; i++) {
      if (innerIds[i] != leading.innerIds[i]) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameLeadingIds(NodeIds leading, String[] leafIds) {
    for (int v = 0; v < leading.leafCount; v++) {
      if (!leading.leafIds[v].equals(leafIds[v])) {
        return false;
      }
    }
    return true;
  }

  /** The node's index for an id, or -1 (also for null). */
  int indexOf(String id) {
    int v = inner.indexOf(id); // the smaller table first: a leaf's lookup misses it cheaply
    return v >= 0 ? v + leafCount : leaves.indexOf(id);
  }

  /** The node's index for an id, looked for at {@code hint} first. */
  int indexOf(String id, int hint) {
    String at = hint < 0 ? null : hint < leafCount ? leafIds[hint]
        : hint - leafCount < innerIds.length ? innerIds[hint - leafCount] : null;
    return at != null && at.equals(id) ? hint : indexOf(id);
  }
}

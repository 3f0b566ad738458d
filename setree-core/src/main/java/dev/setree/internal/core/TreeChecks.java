package dev.setree.internal.core;

/**
 * The structural checks a {@link Tree} makes of the arrays it is made from: every column as long as the tree has
 * nodes, a valid leaf count, enough leaf rows, a text per node, and each node's parent after it and internal (the
 * root last, without one). Each failure names the array or the node.
 */
final class TreeChecks {
  private TreeChecks() {}

  /** Fails unless {@code actual} is {@code expected}, naming {@code what}. */
  static void length(String what, int actual, int expected) {
    if (actual != expected) {
      throw new IllegalArgumentException(what + " has length " + actual + ", expected " + expected);
    }
  }

  /**
   * Fails unless each per-node column has {@code n} entries (the columns that may be per internal node are checked
   * by {@link InternalColumns}).
   */
  static void columns(int n, String[] texts, String[] times, int[] tokens, int[] parent) {
    length("texts", texts.length, n);
    if (times != null) {
      length("times", times.length, n);
    }
    length("tokens", tokens.length, n);
    length("parent", parent.length, n);
  }

  /** The leaves' rows of {@code embeddings}, every node's row ({@code n * dim}, checked), in a new array. */
  static float[] leafRows(float[] embeddings, int leafCount, int n, int dim) {
    length("embeddings", embeddings.length, n * dim);
    return java.util.Arrays.copyOf(embeddings, Math.max(0, Math.min(leafCount, n)) * dim);
  }

  /** Fails unless the leaf count fits {@code n} nodes: not above it, and below it unless the one node is a leaf. */
  static void leafCount(int n, int leafCount) {
    if (leafCount < 0 || leafCount > n || (leafCount == n && n > 1)) {
      throw new IllegalArgumentException("bad leaf count " + leafCount + " for " + n + " nodes");
    }
  }

  /** Fails unless the leaf count fits {@code n} nodes, and the leaf and internal rows are there for them. */
  static void rows(int n, int leafCount, int dim, float[] leafEmbeddings, InternalRows internalRows) {
    leafCount(n, leafCount);
    if (leafEmbeddings.length < leafCount * dim) {
      throw new IllegalArgumentException("leafEmbeddings has length " + leafEmbeddings.length + ", expected at least "
          + leafCount * dim);
    }
    length("internal rows", internalRows.count(), n - leafCount);
  }

  /**
   * Fails unless {@code parent} has an entry per node, and every node has a text and a parent after it among the
   * internal nodes, the last node none. The texts of the first {@code checkedLeaves} leaves are not read: they are an
   * earlier tree's, checked when it was made, in arrays shared with it (ADR 0050).
   */
  static void textsAndParents(NodeTexts texts, int[] parent, int checkedLeaves) {
    int n = texts.size();
    int leafCount = texts.leafCount();
    length("parent", parent.length, n);
    for (int v = Math.min(checkedLeaves, leafCount); v < n; v++) {
      if (texts.text(v) == null) {
        throw new NullPointerException("text of node " + texts.id(v));
      }
    }
    for (int v = 0; v < n; v++) {
      int p = parent[v];
      boolean isRoot = v == n - 1;
      if (isRoot ? p != -1 : (p <= v || p >= n || p < leafCount)) {
        throw new IllegalArgumentException("node " + texts.id(v) + " has invalid parent index " + p);
      }
    }
  }

  /** Fails unless every internal node has a child in {@code lists}. */
  static void everyInternalHasChildren(ChildLists lists, NodeTexts texts) {
    for (int v = texts.leafCount(); v < texts.size(); v++) {
      if (lists.end(v) == lists.start(v)) {
        throw new IllegalArgumentException("internal node " + texts.id(v) + " has no children");
      }
    }
  }
}

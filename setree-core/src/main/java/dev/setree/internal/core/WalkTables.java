package dev.setree.internal.core;

/**
 * What the tree-cover walk needs of a snapshot that does not depend on the prompt: each node's cost in a
 * context format and the cheapest leaf under it. Computed once per snapshot and format, so a walk does no work
 * proportional to the knowledge base. Immutable and thread-safe. The cover's nodes are put in tree order (the
 * order of the rendered context) by their paths ({@link TreeOrder}), not by a rank table over every node.
 */
public final class WalkTables {
  private final Tree tree;
  private final ContextFormat format;
  final int[] cost;
  final int[] minCost;

  private WalkTables(Tree tree, ContextFormat format) {
    this.tree = tree;
    this.format = format;
    int n = tree.size();
    int leaves = tree.leafCount();
    cost = new int[n];
    minCost = new int[n];
    java.util.Arrays.fill(minCost, leaves, n, Integer.MAX_VALUE);
    for (int v = 0; v < n; v++) {
      cost[v] = format.cost(tree, v);
      if (v < leaves) {
        minCost[v] = cost[v];
      }
      int p = tree.parent(v);
      if (p >= 0 && minCost[v] < minCost[p]) {
        minCost[p] = minCost[v];
      }
    }
  }

  /** The tables of {@code tree} in {@code format}. */
  public static WalkTables of(Tree tree, ContextFormat format) {
    return new WalkTables(tree, format);
  }

  /** True when these are the tables of {@code t} in {@code f}. */
  public boolean belongsTo(Tree t, ContextFormat f) {
    return tree == t && format == f;
  }

  /** The tokens node {@code v} costs when visible. */
  public int cost(int v) {
    return cost[v];
  }
}

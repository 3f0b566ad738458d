package dev.setree.internal.core;

import java.util.List;

/**
 * The result of one tree-cover walk: the visible nodes in tree order and how the walk got there.
 *
 * @param items the visible nodes, in tree order (pre-order), each with its rendering depth
 * @param tokensUsed the sum of the items' costs (text plus its line marker)
 * @param complete true when every leaf is covered by itself or a visible ancestor; false only when the
 *     budget could not hold the cover (for example a budget below the root summary's cost)
 * @param pops heap pops
 * @param nodesScored capability scores computed
 */
public record Cover(List<Item> items, int tokensUsed, boolean complete, int pops, int nodesScored) {

  /**
   * One visible node.
   *
   * @param node the node index in the tree
   * @param depth how many visible ancestors it has (for indentation)
   * @param cost its tokens in the context, marker included
   */
  public record Item(int node, int depth, int cost) {}
}

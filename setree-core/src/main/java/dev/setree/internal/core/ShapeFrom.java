package dev.setree.internal.core;

/**
 * What a tree frozen from a maintenance run's draft knows of its shape from the tree the draft last froze, its base
 * (ADR 0034): every internal node's index in the base, and the few internal nodes whose children, leaves under them
 * or subtree depth may differ from the base's, with their children. A {@link Tree} given it copies every other
 * internal node's child list, leaf count and depth from the base, renumbered, instead of deriving them from the
 * parents of every node. The base's leaves must be the tree's first leaves, at the same indexes.
 *
 * @param base the tree the draft last froze
 * @param previous per internal node of the new tree ({@code v - leafCount}), its index in {@code base}; -1 for a node
 *     made since, which must be in {@code redo}
 * @param now per internal node of {@code base} ({@code o - base.leafCount()}), its index in the new tree, -1 when it
 *     is gone (then no node outside {@code redo} had it as a child)
 * @param redo the internal nodes (indexes in the new tree, ascending) whose child lists, leaves under and depth are
 *     derived afresh: the nodes the run touched and every node above them
 * @param redoChildren per entry of {@code redo}, its children (indexes in the new tree, in any order)
 */
public record ShapeFrom(Tree base, int[] previous, int[] now, int[] redo, int[][] redoChildren) {
  /**
   * Given as a node's quoted leaves to a {@link Tree} with a shape, this array stands for the leaves its base node
   * ({@link #previous}) quotes, copied from the base's rows. An internal node that was the base's and whose row the run
   * did not change quotes what it quoted there, kept leaves at the same indexes.
   */
  public static final int[] BASE_SOURCES = new int[0];


  /**
   * Where the run of internal nodes from {@code v} (not redone) ends that the base holds one after another, at
   * {@code stop} (the next redone node, or the tree's size) at the latest: their rows lie one after another in the
   * base too, so a run is copied at once.
   */
  int runEnd(int v, int stop, int leafCount) {
    int o = previous[v - leafCount];
    int end = v + 1;
    while (end < stop && previous[end - leafCount] == o + end - v) {
      end++;
    }
    return end;
  }
}

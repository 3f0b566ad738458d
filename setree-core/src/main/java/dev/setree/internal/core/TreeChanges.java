package dev.setree.internal.core;

import java.util.Arrays;

/**
 * The change log of a maintenance run (docs/adr/0034): which nodes of the tree it made may have a stored row
 * other than in the tree it started from, {@link #from}, so that its save compares those rows only instead of
 * every node's. A superset, never a subset: it lists the nodes the run added, those whose own fields (parent,
 * text, summary embedding, sum, tokens, level, faithfulness, summariser kind, quoted leaves) it replaced, and
 * the former parents of nodes it moved. The fields a tree derives from its shape (leaves under a node, subtree
 * depth) change only on the path above a listed node or a removed one, which the reader adds
 * ({@link #pathsOf}). Ids that are not in the new tree are ignored.
 *
 * @param from the tree the run started from: the log says nothing about any other
 * @param ids the ids of the listed nodes, in no order, possibly repeated
 */
public record TreeChanges(Tree from, String[] ids) {

  /**
   * This log followed by {@code later}, the log of a run over the tree this one's run made ({@code made}): the
   * changes from this log's {@link #from} to later's tree. Null when either is null or later did not start from
   * {@code made} (the log is then unknown: compare every row).
   */
  public static TreeChanges then(TreeChanges first, Tree made, TreeChanges later) {
    if (first == null || later == null || later.from != made) {
      return null;
    }
    String[] ids = Arrays.copyOf(first.ids, first.ids.length + later.ids.length);
    System.arraycopy(later.ids, 0, ids, first.ids.length, later.ids.length);
    return new TreeChanges(first.from, ids);
  }

  /**
   * Which nodes of {@code after} may have a row other than in {@code from}: those listed, the former parents
   * of {@code from}'s nodes that are gone from {@code after}, and every node above either in {@code after}.
   *
   * @param kept per node of {@code from}, whether it is still in {@code after}
   */
  public boolean[] pathsOf(Tree after, boolean[] kept) {
    boolean[] marked = new boolean[after.size()];
    for (String id : ids) {
      markPath(after, after.indexOf(id), marked);
    }
    for (int o = 0; o < kept.length; o++) {
      if (!kept[o] && from.parent(o) >= 0) {
        markPath(after, after.indexOf(from.id(from.parent(o))), marked);
      }
    }
    return marked;
  }

  /** Marks {@code v} and the nodes above it, up to the root or a node marked before (whose path is). */
  private static void markPath(Tree t, int v, boolean[] marked) {
    while (v >= 0 && !marked[v]) {
      marked[v] = true;
      v = t.parent(v);
    }
  }
}

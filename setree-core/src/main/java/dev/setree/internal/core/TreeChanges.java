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
 * <p>The log also says how many leading leaves the new tree shares with {@link #from} ({@link #leafPrefix}), so
 * that what is derived leaf by leaf (the next snapshot's leaf diff, its BM25 forward index) carries those leaves
 * over without comparing them: a run that only inserts keeps every old leaf at its index.
 *
 * @param from the tree the run started from: the log says nothing about any other
 * @param ids the ids of the listed nodes, in no order, possibly repeated
 * @param leafPrefix how many leading leaves of the new tree are {@code from}'s leaves at the same indexes, with
 *     the same ids, texts, times, token counts and embeddings (their parents may differ); 0 says nothing
 * @param orderKept whether the nodes of {@code from} still in the new tree are there in the same relative order and
 *     at the same level, and each node the run added comes after them in its group (the leaves, or the internal
 *     nodes of one level): then a reader that knows which nodes were added and which are gone knows every node's
 *     place without a look at the others ({@code dev.setree.internal.store.NodeRows}); false says nothing
 */
public record TreeChanges(Tree from, String[] ids, int leafPrefix, boolean orderKept) {

  /** Checks the prefix against {@code from}. */
  public TreeChanges {
    if (leafPrefix < 0 || leafPrefix > from.leafCount()) {
      throw new IllegalArgumentException("leaf prefix " + leafPrefix + " for " + from.leafCount() + " leaves");
    }
  }

  /** A log that says nothing of the nodes' order ({@link #orderKept} false). */
  public TreeChanges(Tree from, String[] ids, int leafPrefix) {
    this(from, ids, leafPrefix, false);
  }

  /** The log of a run that changed nothing: every node of {@code tree} is kept. */
  public static TreeChanges none(Tree tree) {
    return new TreeChanges(tree, new String[0], tree.leafCount(), true);
  }

  /**
   * How many leading leaves {@code next}, the tree this log's run made from {@code previous}, shares with it
   * ({@link #leafPrefix}); 0 when the log is null or from another tree.
   */
  public static int leafPrefix(TreeChanges log, Tree previous, Tree next) {
    return log == null || log.from != previous ? 0 : Math.min(log.leafPrefix, next.leafCount());
  }

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
    // Each run kept the order of the nodes it kept and added its own after them: so did the two together.
    return new TreeChanges(first.from, ids, Math.min(first.leafPrefix, later.leafPrefix),
        first.orderKept && later.orderKept);
  }

  /**
   * Which nodes of {@code after} may have a row other than in {@code from}: those listed, the former parents
   * of {@code from}'s nodes that are gone from {@code after}, and every node above either in {@code after}.
   *
   * @param kept per node of {@code from}, whether it is still in {@code after}
   */
  public boolean[] pathsOf(Tree after, boolean[] kept) {
    boolean[] marked = new boolean[after.size()];
    for (int v : pathList(after, kept, 0)) {
      marked[v] = true;
    }
    return marked;
  }

  /**
   * The nodes {@link #pathsOf} marks, as a list of their indexes in {@code after}, in no order: what a reader that
   * compares only those nodes needs, without a pass over every node to find them.
   *
   * @param keptFrom the nodes of {@code from} below it are known to be in {@code after} (not looked at)
   */
  public int[] pathList(Tree after, boolean[] kept, int keptFrom) {
    int[] gone = new int[Math.max(0, kept.length - keptFrom)];
    int count = 0;
    for (int o = keptFrom; o < kept.length; o++) {
      if (!kept[o]) {
        gone[count++] = o;
      }
    }
    return pathList(after, Arrays.copyOf(gone, count));
  }

  /**
   * {@link #pathList(Tree, boolean[], int)} when the nodes of {@code from} that are gone are known, {@code gone}
   * (their indexes in {@code from}): no array as long as either tree, so that a run's save after a one-fact run
   * looks at the few nodes it changed only. The nodes are listed in no order.
   */
  public int[] pathList(Tree after, int[] gone) {
    java.util.BitSet marked = new java.util.BitSet(after.size());
    int[] list = new int[16];
    int n = 0;
    for (String id : ids) {
      list = room(list, n, after);
      n = markPath(after, after.indexOf(id), marked, list, n);
    }
    for (int o : gone) {
      if (from.parent(o) >= 0) {
        list = room(list, n, after);
        n = markPath(after, after.indexOf(from.id(from.parent(o))), marked, list, n);
      }
    }
    return Arrays.copyOf(list, n);
  }

  /** {@code list}, or a copy with room for a path of {@code after} after its first {@code n} entries. */
  private static int[] room(int[] list, int n, Tree after) {
    int need = n + after.depth() + 1;
    return need <= list.length ? list : Arrays.copyOf(list, Math.max(need, 2 * list.length));
  }

  /**
   * Marks {@code v} and the nodes above it, up to the root or a node marked before (whose path is), adding each to
   * {@code list} from {@code n}; returns the list's new length.
   */
  private static int markPath(Tree t, int v, java.util.BitSet marked, int[] list, int n) {
    while (v >= 0 && !marked.get(v)) {
      marked.set(v);
      list[n++] = v;
      v = t.parent(v);
    }
    return n;
  }
}

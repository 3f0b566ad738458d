package dev.setree.internal.maintain;

import java.util.ArrayList;
import java.util.List;

/**
 * The internal nodes of a {@link DraftTree} that a run touched since the draft was copied or last settled (ADR 0034,
 * step 1 for the draft): every node whose row, children or flags a run changed is written here where it changes
 * ({@link DraftNode#touch}), so that the passes looking for such nodes (the sums, the prune, the summary pass's marks,
 * the freeze) read this list instead of every internal node. A list of nodes, each once, in the order they were
 * first touched; a node may be listed that has nothing to show for it.
 *
 * <p>{@link #all} stands for every internal node: a new draft, a draft frozen and not settled since (its nodes are
 * renumbered), and a run that changes nodes without saying which (deletes, which filter every node's quoted leaves;
 * a rebuild from scratch) are read by looking at every node.
 * Under assertions each reader checks that the nodes it skips have nothing it looks for.
 */
final class Touched {
  private final List<DraftNode> nodes = new ArrayList<>();
  /** Marks the nodes listed now (a node's {@link DraftNode#touchedIn}): fresh after each {@link #clear}. */
  private long epoch = 1;
  private boolean all = true;

  /** Lists {@code n} unless it is listed already. */
  void add(DraftNode n) {
    if (n.touchedIn != epoch) {
      n.touchedIn = epoch;
      nodes.add(n);
    }
  }

  /** Whether {@code n} is listed (or the list stands for every node). */
  boolean has(DraftNode n) {
    return all || n.touchedIn == epoch;
  }

  /** The nodes listed, in the order they were first touched; not to be changed. Meaningless when {@link #all}. */
  List<DraftNode> nodes() {
    return nodes;
  }

  /** Whether the list stands for every internal node: readers look at each. */
  boolean all() {
    return all;
  }

  /** Makes the list stand for every internal node until the next {@link #clear}. */
  void touchAll() {
    all = true;
  }

  /** Empties the list: the draft's nodes are as its tree has them, flags cleared (a copy, or a settled draft). */
  void clear() {
    nodes.clear();
    epoch++;
    all = false;
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.InternalRows;
import dev.setree.internal.core.Passes;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The arrays in which a draft's frozen trees keep their internal nodes' rows, shared from one freeze to the next
 * (docs/adr/0036). A freeze writes the rows only of the nodes whose summary embedding or sum array was replaced
 * since their row was written (vectors are replaced, never changed in place), after every row written before;
 * the other nodes keep their rows. Rows once written are never written again, so the trees frozen before keep
 * reading what they read. When the room runs out, every node's row is written into new arrays with room to spare,
 * and the old arrays stay with the trees that read them.
 *
 * <p>A new draft (a copy of a tree) starts with no arrays, so its first freeze writes every row, unless the rows
 * were written ahead ({@link #writeAhead}, on open): a store is only ever extended by the draft that made it,
 * along one line of frozen trees.
 */
final class InternalRowStore {
  /** The room made with new arrays: this share of the nodes' rows, and at least {@link #MIN_SPARE_ROWS}. */
  static final int SPARE_SHARE = 4;
  static final int MIN_SPARE_ROWS = 64;

  private final int dim;
  private float[] embeddings = new float[0];
  private float[] centroids = new float[0];
  /** Rows written so far. */
  private int end;

  InternalRowStore(int dim) {
    this.dim = dim;
  }

  /** The rows of {@code inner} (the frozen tree's internal nodes, in its order), written where needed. */
  InternalRows freeze(List<DraftNode> inner) {
    DraftNode[] nodes = inner.toArray(new DraftNode[0]);
    Stale stale = new Stale();
    Passes.each(nodes, stale);
    if ((long) (end + stale.count) * dim > embeddings.length) {
      int rows = inner.size() + Math.max(MIN_SPARE_ROWS, inner.size() / SPARE_SHARE);
      embeddings = new float[rows * dim];
      centroids = new float[rows * dim];
      end = 0; // every node's row is written again, into the new arrays
    }
    Rows rows = new Rows(nodes);
    Passes.range(0, nodes.length, rows);
    return InternalRows.shared(embeddings, centroids, rows.row, dim);
  }

  /**
   * The rows of {@code inner} when each of them that was an internal node of {@code last}, the rows of the tree frozen
   * before (of {@code lastLeaves} leaves), has its index there in {@code previous} (by its place among the new tree's
   * internal nodes; -1 for a node made since), and only {@code touched} (indexes set by the freeze; every node made
   * since among them) may have vectors replaced since: each other node keeps its row in {@code last}, read from its
   * row map, and is not looked at. Writes as {@link #freeze(List)} does when {@code last} does not read this store's
   * current arrays or the touched nodes' rows do not fit.
   */
  InternalRows freeze(List<DraftNode> inner, InternalRows last, int[] previous, int lastLeaves,
      DraftNode[] touched) {
    if (last.embeddings() != embeddings || last.centroids() != centroids) {
      return freeze(inner);
    }
    int stale = 0;
    for (DraftNode n : touched) {
      if (!n.hasRowIn(embeddings)) {
        stale++;
      }
    }
    if ((long) (end + stale) * dim > embeddings.length) {
      return freeze(inner);
    }
    int[] row = new int[inner.size()];
    for (int i = 0; i < row.length; i++) {
      int was = previous[i];
      if (was >= 0) {
        row[i] = last.row(was - lastLeaves);
      }
    }
    for (DraftNode n : touched) {
      if (!n.hasRowIn(embeddings)) {
        write(n);
      }
      row[n.index] = n.row();
    }
    assert sameRows(inner, row) : "a node not in the run's log has another row than its own";
    return InternalRows.shared(embeddings, centroids, row, dim);
  }

  /** Writes {@code n}'s vectors into the next free row. */
  private void write(DraftNode n) {
    System.arraycopy(n.embedding, 0, embeddings, end * dim, dim);
    System.arraycopy(n.centroidShared(), 0, centroids, end * dim, dim);
    n.wroteRow(embeddings, end);
    end++;
  }

  /** Whether each of {@code inner} has its row at its place of {@code row}, written from its vectors (assertions). */
  private boolean sameRows(List<DraftNode> inner, int[] row) {
    for (int i = 0; i < row.length; i++) {
      DraftNode n = inner.get(i);
      if (!n.hasRowIn(embeddings) || n.row() != row[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The freeze's first pass: counts the nodes without a row in the current arrays. The passes are classes of their
   * own, not lambdas, so that a writer loads them on open, and run a call per node in the loop {@link Passes} shares
   * (ADR 0045).
   */
  private final class Stale implements Consumer<DraftNode> {
    int count;

    @Override
    public void accept(DraftNode n) {
      if (!n.hasRowIn(embeddings)) {
        count++;
      }
    }
  }

  /** The freeze's second pass: each node's row, written first when it has none in the current arrays. */
  private final class Rows implements IntConsumer {
    final DraftNode[] nodes;
    final int[] row;

    Rows(DraftNode[] nodes) {
      this.nodes = nodes;
      row = new int[nodes.length];
    }

    @Override
    public void accept(int i) {
      DraftNode n = nodes[i];
      if (!n.hasRowIn(embeddings)) {
        write(n);
      }
      row[i] = n.row();
    }
  }

  /**
   * Writes the rows of {@code inner} as a freeze would, before any freeze: a writer does it on open for the draft its
   * first run continues from, so that the first freeze writes only the rows of the nodes that run changes. At 50,000
   * leaves that first freeze had written about 6,000 rows, each centroid normalised from its sum, before the code
   * was compiled.
   */
  void writeAhead(List<DraftNode> inner) {
    freeze(inner);
  }

  /** Rows written into the current arrays (for tests). */
  int end() {
    return end;
  }

  /** How many rows the current arrays hold (for tests). */
  int capacity() {
    return dim == 0 ? 0 : embeddings.length / dim;
  }
}

package dev.setree.internal.maintain;

import java.util.Arrays;
import java.util.List;

/**
 * A draft's leaf embeddings in leaf order, one array ({@code leaves * dim}): level 0's centroids, the frozen
 * tree's leaf rows and, through the oracle, the next run's old level 0 (docs/adr/0029). Shared by all three, so
 * an array once handed out is never changed: a change of the leaves makes a new one, extended from the last by
 * one bulk copy when leaves were only added since, else copied row by row.
 */
final class LeafRows {
  private final int dim;
  private float[] rows;
  /** How many leading leaves {@link #rows} holds; all of them unless some were removed since. */
  private int count;
  private boolean removed;
  /** The array {@link #rows} was extended from, and how many of its rows it copied. */
  private float[] extendedFrom;
  private int extendedRows;

  LeafRows(int dim) {
    this.dim = dim;
  }

  /** Starts from {@code rows}, which holds the first {@code count} leaves (a frozen tree's own array). */
  void adopt(float[] rows, int count) {
    this.rows = rows;
    this.count = count;
    this.removed = false;
  }

  /** Notes that leaves were removed: the next array is copied row by row. */
  void leavesRemoved() {
    removed = true;
  }

  /** The rows of {@code leaves} (which are the draft's leaves, in order). */
  float[] of(List<DraftTree.Node> leaves) {
    int n = leaves.size();
    if (rows != null && !removed && count == n) {
      return rows;
    }
    float[] next;
    int from;
    if (rows != null && !removed && count < n) {
      next = Arrays.copyOf(rows, n * dim);
      from = count;
      extendedFrom = rows;
      extendedRows = count;
    } else {
      next = new float[n * dim];
      from = 0;
      extendedFrom = null;
      extendedRows = 0;
    }
    for (int i = from; i < n; i++) {
      System.arraycopy(leaves.get(i).embedding, 0, next, i * dim, dim);
    }
    adopt(next, n);
    return next;
  }

  /**
   * How many leading rows of the last array of {@link #of} are, by construction, the same rows of {@code other}:
   * all when {@code other} is that array, the rows copied when it was extended from {@code other}, else 0.
   */
  int sharedWith(float[] other) {
    if (other == null) {
      return 0;
    }
    if (other == rows) {
      return count;
    }
    return other == extendedFrom ? extendedRows : 0;
  }
}

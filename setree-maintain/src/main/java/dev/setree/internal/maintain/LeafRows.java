package dev.setree.internal.maintain;

import dev.setree.internal.core.Vectors;
import java.util.Arrays;
import java.util.List;

/**
 * A draft's leaf embeddings in leaf order, row i at {@code i * dim}: level 0's centroids, the frozen tree's leaf
 * rows and, through the oracle, the next run's old level 0 (docs/adr/0029). Shared by all three, so a row once
 * handed out is never changed. The array keeps spare rows at its end: when leaves were only added since the
 * last array, their rows are written into that spare room (which no holder reads: each reads only the rows of
 * its own leaves), and the array is handed out again; only when the room runs out, or leaves were removed, is a
 * new array made, with room for an eighth more leaves. So a run that inserts a few leaves copies a few rows, not
 * every leaf's (at 50,000 leaves of dimension 384 the copy was 77 MB per run).
 */
final class LeafRows {
  private final int dim;
  private float[] rows;
  /** How many leading leaves {@link #rows} holds; all of them unless some were removed since. */
  private int count;
  private boolean removed;
  /** The array {@link #rows} was copied from, and how many of its rows it copied. */
  private float[] copiedFrom;
  private int copiedRows;

  LeafRows(int dim) {
    this.dim = dim;
  }

  /** Starts from {@code rows}, whose first {@code count} rows are the leaves' (a frozen tree's own array). */
  void adopt(float[] rows, int count) {
    this.rows = rows;
    this.count = count;
    this.removed = false;
  }

  /** Notes that leaves were removed: the next array is copied row by row. */
  void leavesRemoved() {
    removed = true;
  }

  /** The rows of {@code leaves} (which are the draft's leaves, in order), and maybe spare rows after them. */
  float[] of(List<DraftNode> leaves) {
    int n = leaves.size();
    boolean appended = rows != null && !removed && count <= n;
    if (appended && count == n) {
      return rows;
    }
    int from;
    if (appended && (long) n * dim <= rows.length) {
      from = count; // the new rows go into the spare room: rows below count stay as every holder saw them
      copiedFrom = rows;
      copiedRows = count;
    } else if (appended) {
      float[] next = Arrays.copyOf(rows, capacity(n));
      copiedFrom = rows;
      copiedRows = count;
      from = count;
      rows = next;
    } else {
      copiedFrom = null;
      copiedRows = 0;
      from = 0;
      rows = new float[capacity(n)];
    }
    for (int i = from; i < n; i++) {
      leaves.get(i).copyCentroidInto(rows, i * dim, dim); // a leaf's centroid is its embedding
    }
    count = n;
    removed = false;
    return rows;
  }

  /** Floats for {@code n} leaves and room for more ({@link Vectors#lengthWithRoom}). */
  private int capacity(int n) {
    return Vectors.lengthWithRoom(n, dim);
  }

  /**
   * How many leading rows of the last array of {@link #of} are, by construction, the same rows of {@code other},
   * which holds {@code otherRows} rows: all of those when {@code other} is that array or the one it was copied
   * from (up to the rows copied), else 0.
   */
  int sharedWith(float[] other, int otherRows) {
    if (other == null) {
      return 0;
    }
    if (other == rows) {
      return Math.min(count, otherRows);
    }
    return other == copiedFrom ? Math.min(copiedRows, otherRows) : 0;
  }
}

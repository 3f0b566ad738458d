package dev.setree.internal.core;

/**
 * The rows of a tree's internal nodes: each one's summary embedding and leaf-centroid, in two arrays of rows of
 * {@code dim} floats, internal node {@code i} (node {@code leafCount + i}) at row {@link #row(int) row(i)}.
 *
 * <p><b>Dense</b> rows (row i is internal node i's) are those of a tree built or loaded whole. <b>Shared</b> rows
 * are those of a tree a maintenance run froze (docs/adr/0036): its arrays also hold the rows of the trees frozen
 * before it from the same draft, and rows appended after it by later runs, so that a run writes only the rows of
 * the nodes whose vectors it replaced instead of copying every internal node's. A row a tree reads is never
 * written again; the rows after the last one it reads belong to whoever extends the arrays next (as the leaf rows
 * of ADR 0029). So a tree stays immutable while later runs append to its arrays. Immutable itself.
 */
public final class InternalRows {
  private final float[] embeddings;
  private final float[] centroids;
  /** Per internal node its row, or null when dense. */
  private final int[] row;
  private final int count;
  private final int dim;

  private InternalRows(float[] embeddings, float[] centroids, int[] row, int count, int dim) {
    this.embeddings = embeddings;
    this.centroids = centroids;
    this.row = row;
    this.count = count;
    this.dim = dim;
  }

  /** Dense rows of {@code count} internal nodes: the arrays are {@code count * dim} long, taken over. */
  public static InternalRows dense(float[] embeddings, float[] centroids, int count, int dim) {
    requireLength("internalEmbeddings", embeddings.length, (long) count * dim);
    requireLength("internalCentroids", centroids.length, (long) count * dim);
    return new InternalRows(embeddings, centroids, null, count, dim);
  }

  /**
   * Shared rows: internal node {@code i}'s vectors at row {@code row[i]} of both arrays (of equal length, taken over
   * with {@code row}). Rows may be read by several trees; none may be changed once a tree reads it.
   */
  public static InternalRows shared(float[] embeddings, float[] centroids, int[] row, int dim) {
    if (embeddings.length != centroids.length || embeddings.length % Math.max(1, dim) != 0) {
      throw new IllegalArgumentException("shared row arrays of lengths " + embeddings.length + " and "
          + centroids.length + " for dimension " + dim);
    }
    int rows = dim == 0 ? 0 : embeddings.length / dim;
    for (int i = 0; i < row.length; i++) {
      if (row[i] < 0 || row[i] >= rows) {
        throw new IllegalArgumentException("internal node " + i + " has row " + row[i] + " of " + rows);
      }
    }
    return new InternalRows(embeddings, centroids, row, row.length, dim);
  }

  private static void requireLength(String what, int actual, long expected) {
    if (actual != expected) {
      throw new IllegalArgumentException(what + " has length " + actual + ", expected " + expected);
    }
  }

  /** Number of internal nodes. */
  public int count() {
    return count;
  }

  /** The row of internal node {@code i}. */
  public int row(int i) {
    return row == null ? i : row[i];
  }

  /** Where internal node {@code i}'s row starts in {@link #embeddings()} and {@link #centroids()}. */
  public int offset(int i) {
    return row(i) * dim;
  }

  /** The summary embeddings' array (read internal node i's at {@link #offset}); do not modify. */
  public float[] embeddings() {
    return embeddings;
  }

  /** The leaf-centroids' array (read internal node i's at {@link #offset}); do not modify. */
  public float[] centroids() {
    return centroids;
  }

  /** The summary embeddings as dense rows, internal node i's at row i (a copy). */
  public float[] denseEmbeddings() {
    return dense(embeddings);
  }

  /** The leaf-centroids as dense rows, internal node i's at row i (a copy). */
  public float[] denseCentroids() {
    return dense(centroids);
  }

  private float[] dense(float[] rows) {
    float[] out = new float[count * dim];
    for (int i = 0; i < count; i++) {
      System.arraycopy(rows, offset(i), out, i * dim, dim);
    }
    return out;
  }

  /** True when internal node {@code i} here and {@code j} of {@code other} read the same row of the same arrays. */
  public boolean sameRow(int i, InternalRows other, int j) {
    return embeddings == other.embeddings && centroids == other.centroids && offset(i) == other.offset(j);
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Vectors;
import java.util.Arrays;

/**
 * A level's centroid rows rounded to integers ({@code round(x * 2^14)}), kept beside the float rows so that a
 * scan of an exact level costs a fraction of its float dot products: on Java 17 the JIT compiles an integer
 * multiply-add reduction to vector instructions, never a float one (whose order {@link Vectors#dot} fixes, ADR
 * 0024). The integer dot product of two rows, scaled back, is within {@link #bound} of the float one, so a scan
 * computes the float {@link Vectors#dot} only for the members whose bound lets them into the k nearest
 * ({@link #nearest}): the k nearest it finds are the float scan's, bit for bit.
 *
 * <p>Rows are kept from run to run ({@link #follow}): only the rows of members that moved are rounded again, in
 * place when the level's members kept their indexes. Each mirror knows the float array it mirrors and is used only
 * with that array.
 */
final class IntegerRows {
  /** The scale of the rounded components. */
  static final float SCALE = 1 << 14;
  /** A row longer than this (its rounded components' squares summing above 2^30) could overflow an int sum. */
  private static final long MAX_SQUARES = 1L << 30;
  /** What a float dot product of rows of norm <= 2 may differ from the exact one by (far less, in fact). */
  private static final float FLOAT_SLACK = 1e-4f;

  private final int dim;
  private int[] q;
  private int[] l1;
  private int rows;
  private float[] source;

  private IntegerRows(int dim, int capacity) {
    this.dim = dim;
    this.q = new int[capacity * dim];
    this.l1 = new int[capacity];
  }

  /** The first {@code m} rows of {@code rows} rounded; null when a row is too long for integer sums. */
  static IntegerRows of(float[] rows, int m, int dim) {
    IntegerRows r = new IntegerRows(dim, m);
    r.rows = m;
    r.source = rows;
    for (int i = 0; i < m; i++) {
      if (!r.round(rows, i)) {
        return null;
      }
    }
    return r;
  }

  /**
   * The mirror of {@code rows} (the new level's {@code m} rows), from {@code last}, the mirror of {@code oldRows}
   * (the old level's): a member in its old place that did not move keeps its rounded row, others are rounded
   * again. {@code last} is changed in place and returned when every member that stayed kept its index; else a new
   * mirror is made. Without a usable {@code last}, all rows are rounded. Null when a row is too long.
   *
   * @param newToOld each member's index in the old level (-1: new)
   * @param moved which members are new or moved
   */
  static IntegerRows follow(IntegerRows last, float[] oldRows, float[] rows, int m, int dim, int[] newToOld,
      boolean[] moved) {
    if (last == null || last.source != oldRows || last.dim != dim) {
      return of(rows, m, dim);
    }
    boolean inPlace = true;
    for (int i = 0; i < m && inPlace; i++) {
      inPlace = newToOld[i] == i || newToOld[i] < 0;
    }
    int lastRows = last.rows; // read before an in-place follow changes it
    IntegerRows next;
    if (inPlace) {
      next = last;
      if (m > next.l1.length) {
        int capacity = Math.max(m, next.l1.length + next.l1.length / 4);
        next.q = Arrays.copyOf(next.q, capacity * dim);
        next.l1 = Arrays.copyOf(next.l1, capacity);
      }
    } else {
      next = new IntegerRows(dim, m);
    }
    next.rows = m;
    next.source = rows;
    for (int i = 0; i < m; i++) {
      int o = newToOld[i];
      if (o >= 0 && !moved[i] && o < lastRows) {
        if (next != last) {
          System.arraycopy(last.q, o * dim, next.q, i * dim, dim);
          next.l1[i] = last.l1[o];
        }
      } else if (!next.round(rows, i)) {
        if (next == last) {
          last.source = null; // half followed: mirrors nothing now
        }
        return null;
      }
    }
    return next;
  }

  /** Rounds row {@code i} of {@code rows} into this mirror; false when it is too long. */
  private boolean round(float[] rows, int i) {
    int at = i * dim;
    long squares = 0;
    int sum = 0;
    for (int d = 0; d < dim; d++) {
      float x = rows[at + d];
      if (!(Math.abs(x) <= 2f)) {
        return false; // also NaN
      }
      int v = Math.round(x * SCALE);
      q[at + d] = v;
      squares += (long) v * v;
      sum += Math.abs(v);
    }
    l1[i] = sum;
    return squares <= MAX_SQUARES;
  }

  /** Whether this mirrors {@code rows}. */
  boolean mirrors(float[] rows) {
    return source == rows;
  }

  /**
   * The integer dot products of row {@code a} with every row, scaled back, into {@code out} (length >= rows):
   * each within {@link #bound} of the float one.
   */
  void approximate(int a, float[] out) {
    int[] v = q;
    int d = dim;
    int at = a * d;
    float inv = 1f / (SCALE * SCALE);
    for (int c = 0; c < rows; c++) {
      int s = 0;
      int ct = c * d;
      for (int i = 0; i < d; i++) {
        s += v[at + i] * v[ct + i];
      }
      out[c] = s * inv;
    }
  }

  /**
   * How far the scaled integer dot product of rows {@code a} and {@code b} may be from {@link Vectors#dot} of
   * their float rows: each rounded component is off by at most half a step, which moves the product by at most
   * half a step times the other row's components (their sum in {@link #l1}) plus a quarter step squared per
   * component; and the float sum itself is off by less than {@link #FLOAT_SLACK}.
   */
  float bound(int a, int b) {
    return (0.5f * ((float) l1[a] + (float) l1[b]) + 0.25f * dim) / (SCALE * SCALE) + FLOAT_SLACK;
  }

  /**
   * Writes row {@code i}'s k nearest members of {@code centroids} (itself excluded), best first, ties to the
   * smaller index: what {@link ExactKnn#query} and a scan of {@link Vectors#dot} find, computing that float dot
   * product only for members whose bound could reach the k-th nearest. {@code approx} holds row {@code i}'s
   * {@link #approximate} values.
   *
   * @return how many float dot products it computed
   */
  int nearest(int i, float[] approx, float[] centroids, int k, int[] neighbors, float[] weights) {
    if (k == 0) {
      return 0;
    }
    // The k-th largest lower bound: the k-th nearest is at least that similar.
    ExactKnn.TopK low = new ExactKnn.TopK(k);
    for (int c = 0; c < rows; c++) {
      if (c != i) {
        float lo = approx[c] - bound(i, c);
        if (low.accepts(lo, c)) {
          low.insert(lo, c);
        }
      }
    }
    float floor = low.size < k ? Float.NEGATIVE_INFINITY : low.scores[low.worst];
    ExactKnn.TopK top = new ExactKnn.TopK(k);
    int computed = 0;
    for (int c = 0; c < rows; c++) {
      if (c != i && approx[c] + bound(i, c) >= floor) {
        float s = Vectors.dot(centroids, c * dim, centroids, i * dim, dim);
        computed++;
        if (top.accepts(s, c)) {
          top.insert(s, c);
        }
      }
    }
    top.writeSorted(neighbors, weights, i * k);
    return computed;
  }

  /**
   * The integer mirror of each of {@code oracle}'s levels a run would scan in integers (exact levels of at least
   * {@code integerRowsMin} members; null for the others), each scanned once for one row's nearest members: the
   * loops a first run's scans go through are then compiled.
   */
  static IntegerRows[] mirrors(HierarchyState oracle, int dim, int integerRowsMin, BuildOptions options) {
    IntegerRows[] mirrors = new IntegerRows[oracle.levels().size()];
    for (int lvl = 0; lvl < mirrors.length; lvl++) {
      HierarchyState.Level l = oracle.levels().get(lvl);
      int m = l.size();
      if (m >= integerRowsMin && m <= options.exactKnnLimit() && l.centroids() != null
          && l.centroids().length >= m * dim) {
        mirrors[lvl] = of(l.centroids(), m, dim);
        if (mirrors[lvl] != null) {
          float[] approx = new float[m];
          mirrors[lvl].approximate(0, approx);
          int k = Math.min(options.k(), m - 1);
          mirrors[lvl].nearest(0, approx, l.centroids(), k, new int[k], new float[k]);
        }
      }
    }
    return mirrors;
  }
}

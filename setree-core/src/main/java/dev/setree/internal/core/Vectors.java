package dev.setree.internal.core;

/**
 * Vector arithmetic on plain {@code float[]} rows, the representation of every embedding in SETree.
 * Matrices are row-major {@code float[]} of {@code rows * dim} components.
 */
public final class Vectors {
  private Vectors() {}

  /** Dot product of {@code a[aOff..aOff+dim)} and {@code b[bOff..bOff+dim)}. */
  public static float dot(float[] a, int aOff, float[] b, int bOff, int dim) {
    float s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    int i = 0;
    for (; i + 3 < dim; i += 4) {
      s0 += a[aOff + i] * b[bOff + i];
      s1 += a[aOff + i + 1] * b[bOff + i + 1];
      s2 += a[aOff + i + 2] * b[bOff + i + 2];
      s3 += a[aOff + i + 3] * b[bOff + i + 3];
    }
    for (; i < dim; i++) {
      s0 += a[aOff + i] * b[bOff + i];
    }
    return (s0 + s1) + (s2 + s3);
  }

  /**
   * The Euclidean norm of {@code a[off..off+dim)}, rounded up: never below the exact norm (a bound on products with
   * the row, {@code |x . y| <= |x| |y|}). NaN or infinite when a component is. The squares are summed as
   * {@link #dot} sums products (four sums: as fast as a product, where one sum in double would be a chain of
   * dependent adds), whose rounding, a sum of terms of one sign, is within {@code gamma(dim / 4 + 2)} of it (N. J.
   * Higham, "Accuracy and Stability of Numerical Algorithms", 2nd ed., 2002, section 3.1): taken up by far more here.
   */
  public static float norm(float[] a, int off, int dim) {
    double squares = dot(a, off, a, off, dim);
    double n = Math.sqrt(squares * (1 + 1e-4 + dim * 0x1p-20) + dim * 0x1p-149); // squares lost to underflow too
    float f = (float) n;
    return f < n ? Math.nextUp(f) : f;
  }

  /** Dot product of two whole vectors of equal length. */
  public static float dot(float[] a, float[] b) {
    if (a.length != b.length) {
      throw new IllegalArgumentException("dimension mismatch: " + a.length + " vs " + b.length);
    }
    return dot(a, 0, b, 0, a.length);
  }

  /** Scales {@code v} in place to unit length; a zero vector is left as it is. Returns {@code v}. */
  public static float[] normalize(float[] v) {
    double s = 0;
    for (float x : v) {
      s += (double) x * x;
    }
    if (s > 0) {
      float inv = (float) (1.0 / Math.sqrt(s));
      for (int i = 0; i < v.length; i++) {
        v[i] *= inv;
      }
    }
    return v;
  }

  /** Adds {@code src[off..off+dim)} times {@code w} into {@code acc}. */
  public static void addScaled(float[] acc, float[] src, int off, int dim, float w) {
    for (int i = 0; i < dim; i++) {
      acc[i] += w * src[off + i];
    }
  }

  /**
   * The length of a row-major array for {@code rows} rows of dimension {@code dim} with room for more: their floats
   * and an eighth more rows (at least 64), as far as the largest Java array allows. A writer's leaf rows are this
   * long, so that a run that inserts a few leaves writes their rows into the room instead of copying every row into
   * a longer array (docs/adr/0029-large-level-zero-patched-from-nearest-leaves.md, amendments).
   */
  public static int lengthWithRoom(int rows, int dim) {
    long withRoom = Math.max(rows, Math.min(rows + Math.max(64L, rows / 8), (Integer.MAX_VALUE - 8L) / dim));
    return Math.toIntExact(withRoom * dim);
  }

  /** Copies row {@code row} of the row-major matrix {@code m}. */
  public static float[] row(float[] m, int row, int dim) {
    float[] r = new float[dim];
    System.arraycopy(m, row * dim, r, 0, dim);
    return r;
  }
}

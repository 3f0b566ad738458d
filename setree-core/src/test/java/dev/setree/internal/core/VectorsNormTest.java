package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import org.junit.jupiter.api.Test;

class VectorsNormTest {
  /** The exact norm of a row, from exact decimal squares. */
  private static double exact(float[] a, int off, int dim) {
    BigDecimal s = BigDecimal.ZERO;
    for (int i = 0; i < dim; i++) {
      BigDecimal x = new BigDecimal(a[off + i]);
      s = s.add(x.multiply(x));
    }
    return s.sqrt(MathContext.DECIMAL128).doubleValue();
  }

  /**
   * A row's norm is never below the exact one, and not far above it (a bound on its products), for rows of every
   * scale, tiny components that underflow when squared among them; a NaN or an infinity makes it one.
   */
  @Test
  void neverBelowTheExactNorm() {
    Random r = new Random(5);
    for (int round = 0; round < 2000; round++) {
      int dim = 1 + r.nextInt(400);
      float[] a = new float[dim + 3];
      float scale = (float) Math.pow(10, r.nextInt(60) - 45);
      for (int i = 0; i < a.length; i++) {
        a[i] = scale * (float) r.nextGaussian();
      }
      double exact = exact(a, 3, dim);
      float norm = Vectors.norm(a, 3, dim);
      assertTrue(norm >= exact, "round " + round + ": " + norm + " below " + exact);
      assertTrue(norm <= exact * 1.001 + 1e-20, "round " + round + ": " + norm + " far above " + exact);
    }
    assertTrue(Float.isNaN(Vectors.norm(new float[] {1, Float.NaN}, 0, 2)));
    assertEquals(Float.POSITIVE_INFINITY, Vectors.norm(new float[] {1, Float.POSITIVE_INFINITY}, 0, 2));
  }
}

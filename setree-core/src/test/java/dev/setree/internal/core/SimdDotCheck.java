package dev.setree.internal.core;

import java.util.Random;

/**
 * The child process of {@link SimdDotTest}: compares {@link SimdDot#dot} with {@link Vectors#dot} on random
 * vectors of awkward lengths and offsets, in whatever JVM it was started in, and prints what it found.
 * Exit code 0 when every value is within rounding of the scalar one, 1 otherwise.
 */
public final class SimdDotCheck {
  private SimdDotCheck() {}

  public static void main(String[] args) {
    Random r = new Random(42);
    int[] dims = {1, 3, 7, 8, 15, 16, 17, 31, 32, 33, 64, 100, 384, 385, 1024};
    boolean identical = true;
    double worst = 0;
    for (int dim : dims) {
      for (int rep = 0; rep < 50; rep++) {
        int aOff = r.nextInt(5);
        int bOff = r.nextInt(5);
        float[] a = new float[aOff + dim + r.nextInt(3)];
        float[] b = new float[bOff + dim + r.nextInt(3)];
        double magnitude = 0;
        for (int i = 0; i < a.length; i++) {
          a[i] = (float) r.nextGaussian();
        }
        for (int i = 0; i < b.length; i++) {
          b[i] = (float) r.nextGaussian();
        }
        for (int i = 0; i < dim; i++) {
          magnitude += Math.abs((double) a[aOff + i] * b[bOff + i]);
        }
        float simd = SimdDot.dot(a, aOff, b, bOff, dim);
        float scalar = Vectors.dot(a, aOff, b, bOff, dim);
        identical &= Float.floatToIntBits(simd) == Float.floatToIntBits(scalar);
        worst = Math.max(worst, Math.abs(simd - scalar) / (magnitude + 1e-30));
      }
    }
    System.out.println("vectorized=" + SimdDot.vectorized() + " identical=" + identical + " worst=" + worst);
    System.exit(worst <= 1e-5 ? 0 : 1);
  }
}

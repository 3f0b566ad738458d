package dev.setree.internal.core;

import java.util.Random;

/**
 * The child process of {@link RowDotsTest}: compiles {@link RowDots}'s lane code when the JVM offers lanes, then
 * compares {@link RowDots#dots} with {@link Vectors#dot}, bit for bit (every NaN as one), on random rows of awkward
 * lengths, counts and offsets, with NaN, infinities, zeros of both signs and subnormal numbers among them, and prints
 * what it found.
 * Exit code 0 when every product is the scalar loop's, 1 otherwise.
 */
public final class RowDotsCheck {
  private RowDotsCheck() {}

  private static final float[] SPECIAL = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0f, 0f,
      Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, 1e-38f, Float.MAX_VALUE, -Float.MAX_VALUE, 3e19f};

  public static void main(String[] args) throws InterruptedException {
    boolean stopped = RowDots.compileAhead(() -> true); // told to stop at once: nothing compiled
    boolean lanes = RowDots.compileAhead(() -> false);
    if (stopped || lanes != RowDots.lanes()) {
      System.out.println("compileAhead answered " + stopped + " when stopped, " + lanes + " then, lanes() "
          + RowDots.lanes());
      System.exit(1);
    }
    Random r = new Random(7);
    int[] dims = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 383, 384, 385};
    boolean identical = true;
    long products = 0;
    for (int dim : dims) {
      for (int rep = 0; rep < 40; rep++) {
        int count = r.nextInt(40);
        float[] rows = new float[(count + 3) * dim + 8];
        for (int i = 0; i < rows.length; i++) {
          rows[i] = value(r);
        }
        float[] q = new float[dim];
        for (int i = 0; i < q.length; i++) {
          q[i] = value(r);
        }
        int[] offsets = new int[count];
        for (int j = 0; j < count; j++) {
          offsets[j] = r.nextInt(rows.length - dim + 1); // unaligned, overlapping, in any order
        }
        float[] out = new float[count];
        RowDots.dots(rows, offsets, count, q, out);
        for (int j = 0; j < count; j++) {
          // Every NaN as one: which NaN an operation on NaNs gives is not fixed even for the scalar loop (the JIT
          // may swap a product's operands); zeros of both signs and all other values must be the same bits.
          identical &= Float.floatToIntBits(out[j]) == Float.floatToIntBits(Vectors.dot(rows, offsets[j], q, 0, dim));
          products++;
        }
      }
    }
    System.out.println("lanes=" + lanes + " identical=" + identical + " products=" + products);
    System.exit(identical ? 0 : 1);
  }

  /** Mostly Gaussian values of several scales, one in twenty a special value. */
  private static float value(Random r) {
    if (r.nextInt(20) == 0) {
      return SPECIAL[r.nextInt(SPECIAL.length)];
    }
    return (float) (r.nextGaussian() * Math.pow(10, r.nextInt(9) - 4));
  }
}

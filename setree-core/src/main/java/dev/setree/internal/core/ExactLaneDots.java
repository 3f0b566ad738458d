package dev.setree.internal.core;

import java.util.function.BooleanSupplier;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link RowDots}'s lane code: four rows at a time, each row's four partial sums of {@link Vectors#dot} as the four
 * lanes of a 128-bit vector (a multiply, then an add), the components left over when the length is not a multiple
 * of four added to the first sum, then {@code (s0 + s1) + (s2 + s3)}: the scalar loop's floats, bit for bit. Four
 * rows give four independent chains of adds, which the scalar loop's one row cannot. Loaded only by
 * {@link RowDots} after it found the incubator module.
 */
final class ExactLaneDots {
  private ExactLaneDots() {}

  private static final VectorSpecies<Float> FOUR = FloatVector.SPECIES_128;

  /** True when the JVM has vector lanes of at least 128 bits (a JVM without vector intrinsics has one lane). */
  static boolean usable() {
    return FloatVector.SPECIES_PREFERRED.length() >= 4 && FOUR.length() == 4;
  }

  /** {@link RowDots#dots}, on lanes. */
  static void dots(float[] rows, int[] offsets, int count, float[] q, float[] out) {
    int dim = q.length;
    int whole = dim & ~3;
    int j = 0;
    for (; j + 3 < count; j += 4) {
      int o0 = offsets[j];
      int o1 = offsets[j + 1];
      int o2 = offsets[j + 2];
      int o3 = offsets[j + 3];
      FloatVector s0 = FloatVector.zero(FOUR);
      FloatVector s1 = s0;
      FloatVector s2 = s0;
      FloatVector s3 = s0;
      for (int i = 0; i < whole; i += 4) {
        FloatVector b = FloatVector.fromArray(FOUR, q, i);
        s0 = s0.add(FloatVector.fromArray(FOUR, rows, o0 + i).mul(b));
        s1 = s1.add(FloatVector.fromArray(FOUR, rows, o1 + i).mul(b));
        s2 = s2.add(FloatVector.fromArray(FOUR, rows, o2 + i).mul(b));
        s3 = s3.add(FloatVector.fromArray(FOUR, rows, o3 + i).mul(b));
      }
      out[j] = finish(s0, rows, o0, q, whole, dim);
      out[j + 1] = finish(s1, rows, o1, q, whole, dim);
      out[j + 2] = finish(s2, rows, o2, q, whole, dim);
      out[j + 3] = finish(s3, rows, o3, q, whole, dim);
    }
    RowDots.scalar(rows, offsets, j, count, q, out);
  }

  /** One row's product from its four partial sums: the left-over components into the first, as the scalar loop. */
  private static float finish(FloatVector sums, float[] rows, int off, float[] q, int from, int dim) {
    float s0 = sums.lane(0);
    for (int i = from; i < dim; i++) {
      s0 += rows[off + i] * q[i];
    }
    return (s0 + sums.lane(1)) + (sums.lane(2) + sums.lane(3));
  }

  /**
   * Has HotSpot compile {@link #dots}, in calls of about a hundred made-up rows, until it runs compiled: faster than
   * the scalar loop on the same rows in four checks in a row (every sixteenth call is checked, its floats compared
   * with the scalar loop's too). Returns false when {@code stop} says so first, or after 20,000 calls. The calls
   * take every path a real call can (no to three rows left over for the scalar loop, no to three components left
   * over in a row) with arrays of the shapes real calls pass (offsets as long as the count or longer, {@code out}
   * too, {@code q} as long as a row). HotSpot speculates on what it saw: after a warm-up whose {@code q} was longer
   * than a row, a real call whose {@code q} was not broke a check the compiled code had hoisted out of its loop (a
   * profiled loop predicate) and ran on in the interpreter: 50,000 rows took 0.5 s instead of 4 ms, and the calls
   * after it tens of milliseconds, until HotSpot had compiled the code again.
   *
   * @throws AssertionError when a product is not the scalar loop's (the lanes are then never used)
   */
  static boolean compile(BooleanSupplier stop) {
    int most = 100;
    float[] rows = new float[most * 387 + 1];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = (float) Math.sin(i) * 0.05f;
    }
    float[][] qs = new float[4][];
    for (int d = 0; d < 4; d++) {
      qs[d] = new float[384 + d];
      for (int i = 0; i < qs[d].length; i++) {
        qs[d][i] = (float) Math.cos(i) * 0.05f;
      }
    }
    float[] scalar = new float[most];
    int faster = 0;
    for (int call = 0; call < 20_000 && !stop.getAsBoolean(); call++) {
      float[] q = qs[call & 3]; // 0 to 3 components left over
      int dim = q.length;
      int count = most - 4 - ((call >> 2) & 3); // 0 to 3 rows left over
      int[] offsets = new int[count + ((call >> 4) & 7)]; // as long as the count, or longer
      float[] out = new float[count + ((call >> 7) & 1)];
      for (int j = 0; j < count; j++) {
        offsets[j] = (j + (j & call & 3)) * dim / 2 + (call & 1); // increasing, some rows skipped
      }
      long t0 = System.nanoTime();
      dots(rows, offsets, count, q, out);
      long t1 = System.nanoTime();
      if ((call & 15) == 15) {
        RowDots.scalar(rows, offsets, 0, count, q, scalar);
        long t2 = System.nanoTime();
        for (int j = 0; j < count; j++) {
          if (Float.floatToIntBits(out[j]) != Float.floatToIntBits(scalar[j])) {
            throw new AssertionError("the lane code's product " + j + " is not the scalar loop's");
          }
        }
        faster = t1 - t0 < t2 - t1 ? faster + 1 : 0;
        if (faster == 4) {
          return true;
        }
      }
    }
    return false;
  }
}

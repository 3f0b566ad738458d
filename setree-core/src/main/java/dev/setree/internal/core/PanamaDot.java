package dev.setree.internal.core;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * A dot product on the JDK Vector API (JEP 338 and its successors): two accumulators of the preferred
 * species (8 lanes with AVX2, 16 with AVX-512), fused multiply-adds, one lane reduction, a scalar tail.
 * Loaded only by {@link SimdDot} after it found the incubator module.
 */
final class PanamaDot {
  private PanamaDot() {}

  private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;

  /** True when the preferred species has more than one lane (a JVM without vector intrinsics has one). */
  static boolean usable() {
    return SPECIES.length() >= 4;
  }

  static float dot(float[] a, int aOff, float[] b, int bOff, int dim) {
    int lanes = SPECIES.length();
    int i = 0;
    float sum = 0f;
    if (dim >= 2 * lanes) {
      FloatVector acc0 = FloatVector.zero(SPECIES);
      FloatVector acc1 = FloatVector.zero(SPECIES);
      for (int end = dim - 2 * lanes; i <= end; i += 2 * lanes) {
        acc0 = FloatVector.fromArray(SPECIES, a, aOff + i).fma(FloatVector.fromArray(SPECIES, b, bOff + i), acc0);
        acc1 = FloatVector.fromArray(SPECIES, a, aOff + i + lanes)
            .fma(FloatVector.fromArray(SPECIES, b, bOff + i + lanes), acc1);
      }
      sum = acc0.add(acc1).reduceLanes(VectorOperators.ADD);
    }
    for (; i < dim; i++) {
      sum += a[aOff + i] * b[bOff + i];
    }
    return sum;
  }
}

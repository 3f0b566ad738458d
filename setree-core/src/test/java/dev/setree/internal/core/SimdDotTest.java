package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link SimdDot} in child JVMs, of this test's JDK and of a second one ({@code setree.simd.jdk}, skipped when
 * absent): it runs on vector lanes only when {@code jdk.incubator.vector} is added, agrees with the scalar kernel
 * within rounding, and falls back (bit-identical) without the module or with {@code -Dsetree.simd=false}.
 */
class SimdDotTest extends VectorKernelChildTests {
  @Test
  void withoutTheVectorModuleThisJvmUsesTheScalarKernel() {
    assumeTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty(), "the suite's JVM has the module");
    assertFalse(SimdDot.vectorized());
    float[] a = {0.1f, -2.5f, 3.25f, 7f, 1e-3f};
    float[] b = {4f, 0.5f, -1f, 2f, 9f};
    assertEquals(Float.floatToIntBits(Vectors.dot(a, b)), Float.floatToIntBits(SimdDot.dot(a, 0, b, 0, 5)));
  }

  @Override
  Class<?> check() {
    return SimdDotCheck.class;
  }

  @Override
  String onLanes() {
    return "vectorized=true";
  }

  @Override
  String onTheScalarLoop() {
    return "vectorized=false identical=true";
  }
}

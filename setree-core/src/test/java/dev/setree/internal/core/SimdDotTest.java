package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@link SimdDot} in child JVMs, of this test's JDK and of a second one ({@code setree.simd.jdk}, skipped when
 * absent): it runs on vector lanes only when {@code jdk.incubator.vector} is added, agrees with the scalar kernel
 * within rounding, and falls back (bit-identical) without the module or with {@code -Dsetree.simd=false}.
 */
class SimdDotTest {
  private static final Path THIS_JDK = VectorChildJvm.THIS_JDK;

  @Test
  void withoutTheVectorModuleThisJvmUsesTheScalarKernel() {
    assumeTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty(), "the suite's JVM has the module");
    assertFalse(SimdDot.vectorized());
    float[] a = {0.1f, -2.5f, 3.25f, 7f, 1e-3f};
    float[] b = {4f, 0.5f, -1f, 2f, 9f};
    assertEquals(Float.floatToIntBits(Vectors.dot(a, b)), Float.floatToIntBits(SimdDot.dot(a, 0, b, 0, 5)));
  }

  @Test
  void withTheVectorModuleItUsesLanesAndAgreesWithTheScalarKernel() throws Exception {
    String out = child(THIS_JDK, true, null);
    assertTrue(out.startsWith("vectorized=true"), Runtime.version() + ": " + out);
  }

  @Test
  void withoutTheModuleOrWhenSwitchedOffItFallsBackBitForBit() throws Exception {
    String noModule = child(THIS_JDK, false, null);
    assertTrue(noModule.startsWith("vectorized=false identical=true"), noModule);
    String off = child(THIS_JDK, true, "-Dsetree.simd=false");
    assertTrue(off.startsWith("vectorized=false identical=true"), off);
  }

  @Test
  void onTheSecondJdkTooBothWays() throws Exception {
    Path other = VectorChildJvm.SECOND_JDK;
    assumeTrue(Files.isExecutable(other.resolve("bin").resolve("java")), "no second JDK at " + other
        + " (property setree.simd.jdk)");
    String lanes = child(other, true, null);
    assertTrue(lanes.startsWith("vectorized=true"), other + ": " + lanes);
    String scalar = child(other, false, null);
    assertTrue(scalar.startsWith("vectorized=false identical=true"), other + ": " + scalar);
  }

  /** Runs {@link SimdDotCheck} on {@code jdk}; its output line. */
  private static String child(Path jdk, boolean vectorModule, String property) throws Exception {
    return VectorChildJvm.run(jdk, vectorModule, property, SimdDotCheck.class, "vectorized=");
  }
}

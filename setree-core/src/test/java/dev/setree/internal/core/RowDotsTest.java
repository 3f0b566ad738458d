package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RowDots}: bit for bit {@link Vectors#dot} in this JVM, and in child JVMs, of this test's JDK and of a
 * second one ({@code setree.simd.jdk}, skipped when absent), on vector lanes once compiled when
 * {@code jdk.incubator.vector} is added, on the scalar loop without it or with {@code -Dsetree.simd=false}.
 */
class RowDotsTest extends VectorKernelChildTests {
  @Test
  void inThisJvmTheProductsAreTheScalarLoops() {
    assumeTrue(ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty(), "the suite's JVM has the module");
    assertFalse(RowDots.compileAhead(() -> false), "no lanes without the module");
    Random r = new Random(3);
    int dim = 385;
    float[] rows = new float[50 * dim];
    for (int i = 0; i < rows.length; i++) {
      rows[i] = (float) r.nextGaussian();
    }
    float[] q = new float[dim];
    for (int i = 0; i < dim; i++) {
      q[i] = (float) r.nextGaussian();
    }
    int[] offsets = new int[40];
    for (int j = 0; j < offsets.length; j++) {
      offsets[j] = r.nextInt(rows.length - dim + 1);
    }
    float[] out = new float[offsets.length];
    RowDots.dots(rows, offsets, offsets.length, q, out);
    for (int j = 0; j < out.length; j++) {
      float scalar = Vectors.dot(rows, offsets[j], q, 0, dim);
      assertEquals(Float.floatToIntBits(scalar), Float.floatToIntBits(out[j]), "product " + j);
    }
  }

  @Override
  Class<?> check() {
    return RowDotsCheck.class;
  }

  @Override
  String onLanes() {
    return "lanes=true identical=true";
  }

  @Override
  String onTheScalarLoop() {
    return "lanes=false identical=true";
  }
}

package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The multi-release {@link SimdDot}: on this (Java 17) test JVM it is {@link Vectors#dot}; in child JVMs of
 * the JDK 21+ the build compiled {@code META-INF/versions/21} with, it runs on vector lanes only when
 * {@code jdk.incubator.vector} is added, agrees with the scalar kernel within rounding, and falls back
 * (bit-identical) without the module or with {@code -Dsetree.simd=false}.
 */
class SimdDotTest {
  private static final Path CLASSES = Path.of("target", "classes");
  private static final Path VERSIONED = CLASSES.resolve("META-INF/versions/21");

  @Test
  void onTheBaselineJvmItIsTheScalarKernel() {
    if (Runtime.version().feature() < 21) {
      assertFalse(SimdDot.vectorized());
    }
    float[] a = {0.1f, -2.5f, 3.25f, 7f, 1e-3f};
    float[] b = {4f, 0.5f, -1f, 2f, 9f};
    assertEquals(Float.floatToIntBits(Vectors.dot(a, b)), Float.floatToIntBits(SimdDot.dot(a, 0, b, 0, 5)));
  }

  @Test
  void onJava21WithTheVectorModuleItUsesLanesAndAgreesWithTheScalarKernel() throws Exception {
    String out = child(true, null);
    assertTrue(out.startsWith("vectorized=true"), out);
  }

  @Test
  void withoutTheModuleOrWhenSwitchedOffItFallsBackBitForBit() throws Exception {
    String noModule = child(false, null);
    assertTrue(noModule.startsWith("vectorized=false identical=true"), noModule);
    String off = child(true, "-Dsetree.simd=false");
    assertTrue(off.startsWith("vectorized=false identical=true"), off);
  }

  /** Runs {@link SimdDotCheck} on the JDK 21+ the build used; its output line (the test is skipped without one). */
  private static String child(boolean vectorModule, String property) throws IOException, InterruptedException {
    Path jdk = Path.of(System.getProperty("setree.simd.jdk", "/nonexistent"));
    Path java = jdk.resolve("bin").resolve("java");
    assumeTrue(Files.isExecutable(java) && Files.isDirectory(VERSIONED),
        "no JDK 21+ at " + jdk + " (property setree.simd.jdk), or the build did not compile " + VERSIONED);
    List<String> cmd = new ArrayList<>(List.of(java.toString()));
    if (vectorModule) {
      cmd.add("--add-modules");
      cmd.add("jdk.incubator.vector");
    }
    if (property != null) {
      cmd.add(property);
    }
    // The versioned classes first, as a multi-release jar would resolve them on Java 21+.
    cmd.addAll(List.of("-cp", String.join(File.pathSeparator, VERSIONED.toString(), CLASSES.toString(),
        Path.of("target", "test-classes").toString()), SimdDotCheck.class.getName()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String line = out.lines().filter(l -> l.startsWith("vectorized=")).findFirst().orElse(out);
    assertEquals(0, p.exitValue(), out);
    return line;
  }
}

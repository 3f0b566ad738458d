package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * The child-JVM tests of a kernel that runs on the Vector API's lanes when the JVM has the incubator module
 * ({@link SimdDotTest}, {@link RowDotsTest}): its check class, run with the module, prints a line saying it computed
 * on lanes; run without it, or with {@code -Dsetree.simd=false}, a line saying it stayed on the scalar loop, bit for
 * bit; both on this test's JDK and on a second one ({@code setree.simd.jdk}, skipped when absent).
 */
abstract class VectorKernelChildTests {
  private static final Path THIS_JDK = Path.of(System.getProperty("java.home"));
  private static final Path SECOND_JDK = Path.of(System.getProperty("setree.simd.jdk", "/nonexistent"));

  /** The class whose {@code main} checks the kernel and prints its line. */
  abstract Class<?> check();

  /** How its line starts when it computed on lanes. */
  abstract String onLanes();

  /** How its line starts when it stayed on the scalar loop, bit for bit. */
  abstract String onTheScalarLoop();

  @Test
  void withTheVectorModuleItComputesOnLanes() throws Exception {
    String out = child(THIS_JDK, true, null);
    assertTrue(out.startsWith(onLanes()), Runtime.version() + ": " + out);
  }

  @Test
  void withoutTheModuleOrWhenSwitchedOffItStaysOnTheScalarLoopBitForBit() throws Exception {
    String noModule = child(THIS_JDK, false, null);
    assertTrue(noModule.startsWith(onTheScalarLoop()), noModule);
    String off = child(THIS_JDK, true, "-Dsetree.simd=false");
    assertTrue(off.startsWith(onTheScalarLoop()), off);
  }

  @Test
  void onTheSecondJdkTooBothWays() throws Exception {
    assumeTrue(Files.isExecutable(SECOND_JDK.resolve("bin").resolve("java")), "no second JDK at " + SECOND_JDK
        + " (property setree.simd.jdk)");
    String lanes = child(SECOND_JDK, true, null);
    assertTrue(lanes.startsWith(onLanes()), SECOND_JDK + ": " + lanes);
    String scalar = child(SECOND_JDK, false, null);
    assertTrue(scalar.startsWith(onTheScalarLoop()), SECOND_JDK + ": " + scalar);
  }

  /**
   * Runs {@link #check} on {@code jdk}, with the incubator module when {@code vectorModule}, and {@code property} (a
   * {@code -D} argument) unless null; asserts it exited 0 within two minutes and returns its line (the one starting
   * as {@link #onTheScalarLoop} does, up to its first {@code =}), or all of its output when it printed none.
   */
  private String child(Path jdk, boolean vectorModule, String property) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(jdk.resolve("bin").resolve("java").toString()));
    if (vectorModule) {
      cmd.add("--add-modules");
      cmd.add("jdk.incubator.vector");
    }
    if (property != null) {
      cmd.add(property);
    }
    cmd.addAll(List.of("-cp", String.join(File.pathSeparator, Path.of("target", "classes").toString(),
        Path.of("target", "test-classes").toString()), check().getName()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child JVM did not finish");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    String prefix = onTheScalarLoop().substring(0, onTheScalarLoop().indexOf('=') + 1);
    return out.lines().filter(l -> l.startsWith(prefix)).findFirst().orElse(out);
  }
}

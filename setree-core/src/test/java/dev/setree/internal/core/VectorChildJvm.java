package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a check class of this module's tests in a child JVM, with or without the Vector API's incubator module, and
 * returns the line of its output that reports what it found ({@link SimdDotTest}, {@link RowDotsTest}).
 */
final class VectorChildJvm {
  /** The JDK the suite runs on. */
  static final Path THIS_JDK = Path.of(System.getProperty("java.home"));
  /** A second JDK to run the checks on too ({@code setree.simd.jdk}), which may be absent. */
  static final Path SECOND_JDK = Path.of(System.getProperty("setree.simd.jdk", "/nonexistent"));

  private VectorChildJvm() {}

  /**
   * Runs {@code check}'s {@code main} on {@code jdk}, with {@code --add-modules jdk.incubator.vector} when
   * {@code vectorModule}, and {@code property} (a {@code -D} argument) unless null; asserts it exited 0 within two
   * minutes and returns its first line starting with {@code linePrefix} (all of its output when none does).
   */
  static String run(Path jdk, boolean vectorModule, String property, Class<?> check, String linePrefix)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(jdk.resolve("bin").resolve("java").toString()));
    if (vectorModule) {
      cmd.add("--add-modules");
      cmd.add("jdk.incubator.vector");
    }
    if (property != null) {
      cmd.add(property);
    }
    cmd.addAll(List.of("-cp", String.join(File.pathSeparator, Path.of("target", "classes").toString(),
        Path.of("target", "test-classes").toString()), check.getName()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child JVM did not finish");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    return out.lines().filter(l -> l.startsWith(linePrefix)).findFirst().orElse(out);
  }
}

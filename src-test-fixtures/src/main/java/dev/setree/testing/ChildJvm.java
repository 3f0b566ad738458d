package dev.setree.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a test class's {@code main} in a child JVM of the test's own JDK and class path, started with the Vector API's
 * incubator module: what a test needs to see code that only runs on vector lanes (docs/adr/0046), since the suite's
 * JVM runs without the module.
 */
public final class ChildJvm {
  private ChildJvm() {}

  /**
   * Runs {@code main}'s {@code main(args)} with {@code --add-modules jdk.incubator.vector}; asserts that it exited 0
   * within {@code seconds} and returns its output (standard output and error together).
   */
  public static String withVectorModule(Class<?> main, long seconds, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-modules", "jdk.incubator.vector", "-cp", System.getProperty("java.class.path"), main.getName()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertTrue(p.waitFor(seconds, TimeUnit.SECONDS), "the child JVM of " + main.getSimpleName() + " did not finish");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    return out;
  }
}

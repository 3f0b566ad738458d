package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PassesTest {
  @Test
  void rangeCallsTheBodyWithEveryIndexInOrder() {
    List<Integer> seen = new ArrayList<>();
    Passes.range(3, 7, seen::add);
    assertEquals(List.of(3, 4, 5, 6), seen);
    Passes.range(5, 5, seen::add);
    Passes.range(6, 2, seen::add);
    assertEquals(4, seen.size(), "an empty range calls nothing");
  }

  @Test
  void eachCallsTheBodyWithEveryItemInOrder() {
    List<String> seen = new ArrayList<>();
    Passes.each(new String[] {"b", "a", null, "c"}, seen::add);
    assertEquals(java.util.Arrays.asList("b", "a", null, "c"), seen);
  }

  /**
   * In a JVM that compiles in the calling thread ({@code -Xbatch}) and prints its compiles, both loops are compiled
   * before {@link Passes#compileAhead} returns: what it is for (ADR 0045).
   */
  @Test
  void compileAheadCompilesBothLoops(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("out.txt");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xbatch", "-XX:+PrintCompilation", "-cp", System.getProperty("java.class.path"),
        CompileAhead.class.getName())
        .redirectErrorStream(true)
        .redirectOutput(out.toFile())
        .start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child JVM did not finish");
    List<String> lines = Files.readAllLines(out);
    assertEquals(0, p.exitValue(), String.join("\n", lines));
    int mark = lines.indexOf(CompileAhead.MARK);
    assertTrue(mark > 0, "the child printed its mark");
    List<String> before = lines.subList(0, mark);
    for (String loop : List.of("range", "each")) {
      assertTrue(before.stream().anyMatch(l -> l.contains(Passes.class.getName() + "::" + loop + " ")),
          "Passes." + loop + " compiled before compileAhead returned");
    }
  }

  /** Calls {@link Passes#compileAhead}, then prints {@link #MARK}. */
  public static final class CompileAhead {
    static final String MARK = "compileAhead returned";

    public static void main(String[] args) {
      Passes.compileAhead();
      System.out.println(MARK);
    }
  }
}

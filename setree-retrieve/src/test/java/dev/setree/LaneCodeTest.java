package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.RowDots;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer compiles the lane code of a summary's leaf-row products while no mutation waits (docs/adr/0046), in a
 * child JVM started with the Vector API: for a knowledge base of at least 4,096 leaves, not for a smaller one.
 */
class LaneCodeTest {

  @Test
  void aWriterOfALargeKnowledgeBaseCompilesTheLaneCodeWhileIdle(@TempDir Path dir) throws Exception {
    assertEquals("small=false large=true", child(dir), "lanes after opening a small, then a large knowledge base");
  }

  private static String child(Path dir) throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-modules", "jdk.incubator.vector", "-cp", System.getProperty("java.class.path"),
        LaneCodeTest.class.getName(), dir.toString()).redirectErrorStream(true).start();
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the child JVM did not finish");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    return out.lines().filter(l -> l.startsWith("small=")).findFirst().orElse(out);
  }

  /** The child: opens a writer of 200 leaves, then one of 4,200, each idle for up to 30 s; prints the lanes seen. */
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    boolean small = idleLanes(dir.resolve("small.db"), 200, 2_000);
    boolean large = idleLanes(dir.resolve("large.db"), 4_200, 30_000);
    System.out.println("small=" + small + " large=" + large);
    Files.deleteIfExists(dir.resolve("small.db"));
  }

  /** Builds a knowledge base of {@code leaves}, opens a writer of it and waits, at most {@code millis}, for lanes. */
  private static boolean idleLanes(Path kb, int leaves, long millis) throws InterruptedException {
    SETreeConfig config = SETreeConfig.builder().embedder(new HashEmbedder(48)).tokenCounter(new SimpleTokenCounter())
        .build();
    try (SETree t = SETree.open(kb, config)) {
      t.build(Corpora.synthetic(leaves, 5), BuildProgress.NONE);
    }
    try (SETree t = SETree.open(kb, config)) {
      long end = System.nanoTime() + millis * 1_000_000L;
      while (!RowDots.lanes() && System.nanoTime() < end) {
        Thread.sleep(20);
      }
      return RowDots.lanes();
    }
  }
}

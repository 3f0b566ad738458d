package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.setree.internal.core.RowDots;
import dev.setree.testing.ChildJvm;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A writer compiles the lane code of a summary's leaf-row products while no mutation waits (docs/adr/0046), in a
 * child JVM started with the Vector API: after building a knowledge base of at least 4,096 leaves, not a smaller one.
 */
class LaneCodeTest {

  @Test
  void aWriterOfALargeKnowledgeBaseCompilesTheLaneCodeWhileIdle(@TempDir Path dir) throws Exception {
    assertEquals("small=false large=true", child(dir, "build"), "lanes after building a small, then a large one");
    assertEquals("opened=true", child(dir, "open"), "lanes in a new JVM that opened the large one and waited");
  }

  private static String child(Path dir, String mode) throws Exception {
    String out = ChildJvm.withVectorModule(LaneCodeTest.class, 300, dir.toString(), mode);
    return out.lines().filter(l -> l.startsWith("small=") || l.startsWith("opened=")).findFirst().orElse(out);
  }

  /**
   * The child. {@code build}: builds 200 leaves, then 4,200, each followed by up to 30 s of idle time, and prints the
   * lanes seen after each. {@code open}: opens the knowledge base of 4,200 leaves, waits up to 30 s, prints the lanes.
   */
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    if (args[1].equals("build")) {
      boolean small = idleLanes(dir.resolve("small.db"), 200, 2_000);
      boolean large = idleLanes(dir.resolve("large.db"), 4_200, 30_000);
      System.out.println("small=" + small + " large=" + large);
    } else {
      try (SETree t = SETree.open(dir.resolve("large.db"), config())) {
        System.out.println("opened=" + awaitLanes(30_000));
      }
    }
  }

  private static SETreeConfig config() {
    return SETreeConfig.builder().embedder(new HashEmbedder(48)).tokenCounter(new SimpleTokenCounter()).build();
  }

  /** Whether {@link RowDots} computes on lanes within {@code millis}. */
  private static boolean awaitLanes(long millis) throws InterruptedException {
    long end = System.nanoTime() + millis * 1_000_000L;
    while (!RowDots.lanes() && System.nanoTime() < end) {
      Thread.sleep(20);
    }
    return RowDots.lanes();
  }

  /**
   * Builds a knowledge base of {@code leaves} with a writer opened on an empty file and waits, at most
   * {@code millis}, for lanes: the build's tree counts, not the empty one of the open.
   */
  private static boolean idleLanes(Path kb, int leaves, long millis) throws InterruptedException {
    try (SETree t = SETree.open(kb, config())) {
      t.build(Corpora.synthetic(leaves, 5), BuildProgress.NONE);
      return awaitLanes(millis);
    }
  }
}

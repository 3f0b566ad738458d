package dev.setree.internal.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Loading the tokenizer leaves no JVM-wide setting behind, and a host's own setting alone. */
class DjlOfflineTest {
  @Test
  void loadingLeavesTheSystemPropertyAsItWas() {
    String before = System.getProperty("ai.djl.offline");
    try {
      System.clearProperty("ai.djl.offline");
      try (WordPieceTokenizer t = WordPieceTokenizer.load()) {
        assertEquals(3, t.count("hello world again"));
      }
      assertNull(System.getProperty("ai.djl.offline"), "the library set a JVM-wide property and left it");
      assertEquals("true", DjlOffline.during(() -> System.getProperty("ai.djl.offline")));
      assertNull(System.getProperty("ai.djl.offline"));

      System.setProperty("ai.djl.offline", "false");
      assertEquals("false", DjlOffline.during(() -> System.getProperty("ai.djl.offline")), "a host's value wins");
      assertEquals("false", System.getProperty("ai.djl.offline"));
    } finally {
      if (before == null) {
        System.clearProperty("ai.djl.offline");
      } else {
        System.setProperty("ai.djl.offline", before);
      }
    }
  }
}

package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.embed.MiniLmEmbedder;
import dev.setree.internal.store.StoreFormatException;
import dev.setree.testing.TempKnowledgeBase;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The int8 embedder chosen by config: builds and retrieves on the real model; the other model is refused. */
@ExtendWith(TempKnowledgeBase.class)
class Int8EmbedderTest {

  @Test
  void int8KnowledgeBaseWorksAndIsRefusedByTheFp32Model(@TempKnowledgeBase.File Path kb) {
    SETreeConfig int8 = SETreeConfig.builder().embedderName("minilm-int8").build();
    try (SETree t = SETree.open(kb, int8)) {
      t.build(List.of("the user rows a scull on Sundays", "the user drinks green tea",
          "the user has a cat named Miso", "the user works on SETree in Java"));
      assertEquals(MiniLmEmbedder.MODEL_ID_INT8, t.stats().modelId());
      assertTrue(t.retrieve("what is the cat called?", 32).text().contains("Miso"));
    }
    KnowledgeBaseException e = assertThrows(KnowledgeBaseException.class, () -> SETree.open(kb));
    assertTrue(e.getCause() instanceof StoreFormatException, "the store's refusal is the cause");
    assertTrue(e.getMessage().contains(MiniLmEmbedder.MODEL_ID_INT8) && e.getMessage().contains(MiniLmEmbedder.MODEL_ID),
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SETreeConfig.builder().embedderName("bert").build());
  }
}

package dev.setree;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.SlowEmbedder;
import dev.setree.testing.TempKnowledgeBase;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The hard deadline of retrieve: a slow embedder cannot hold a retrieve past {@code retrieve_deadline_ms}. */
@ExtendWith(TempKnowledgeBase.class)
class RetrieveDeadlineTest {

  @Test
  void slowEmbedderIsCutShortWithALexicalCover(@TempKnowledgeBase.File Path kb) {
    try (SETree t = SETree.open(kb, LiveKnowledgeBaseTest.config(60_000))) {
      t.build(Corpora.personal(), BuildProgress.NONE);
      Context fast = t.retrieve("Who taught the user to make gnocchi?", 256);
      assertFalse(fast.cutShort());
    }
    SETreeConfig slow = SETreeConfig.builder().embedder(new SlowEmbedder(new HashEmbedder(48), 5_000))
        .tokenCounter(new SimpleTokenCounter()).retrieveDeadlineMillis(300).build();
    try (SETree t = SETree.open(kb, slow)) {
      long t0 = System.nanoTime();
      Context ctx = t.retrieve("Who taught the user to make gnocchi?", 256);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertTrue(ms < 2_000, "retrieve took " + ms + " ms with a 300 ms deadline and a 5 s embedder");
      assertTrue(ctx.cutShort());
      assertTrue(ctx.complete(), "a cut-short cover still covers every leaf");
      assertTrue(ctx.tokensUsed() <= 256 && ctx.tokensUsed() > 0);
      assertTrue(ctx.text().toLowerCase().contains("gnocchi"), "the prompt's words still find the fact:\n" + ctx.text());
    }
    assertThrows(IllegalArgumentException.class,
        () -> SETreeConfig.builder().retrieveDeadlineMillis(0).build());
    try (SETree t = SETree.open(kb, LiveKnowledgeBaseTest.config(60_000))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> t.retrieve("gnocchi ".repeat(1_000_000), 256));
      assertTrue(e.getMessage().contains("at most " + SETree.MAX_PROMPT_CHARS), e.getMessage());
      StringBuilder many = new StringBuilder();
      for (int i = 0; i < 2_000; i++) {
        many.append("word").append(i).append(' ');
      }
      many.append("gnocchi");
      assertTrue(many.length() <= SETree.MAX_PROMPT_CHARS);
      Context c = t.retrieve(many.toString(), 256); // more distinct terms than a Lucene query may hold
      assertTrue(c.complete());
    }
  }
}

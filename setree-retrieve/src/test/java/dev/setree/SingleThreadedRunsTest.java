package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.embed.MiniLmEmbedder;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.ForwardingEmbedder;
import dev.setree.testing.TempKnowledgeBase;
import dev.setree.testing.TreeAssert;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A writer on the bundled model embeds its maintenance runs' texts on the model's single-threaded session from its
 * second run on (ADR 0039), and its trees are those of a writer whose embedder, the same model behind a host's wrapper, embeds them on
 * the prompt session: the same vectors, bit for bit. On the real MiniLM model, SQLite file and Leiden.
 */
@ExtendWith(TempKnowledgeBase.class)
class SingleThreadedRunsTest {

  @Test
  void maintenanceRunsEmbedOnOneThreadAndMakeTheSameTree(@TempKnowledgeBase.File Path single,
      @TempKnowledgeBase.File Path prompt) throws Exception {
    List<Fact> facts = Corpora.personal().subList(0, 60);
    List<Fact> inserts = List.of(
        new Fact("new-1", "The user's parrot Kiwi can whistle the Mario theme song.", null),
        new Fact("new-2", "The user started learning the cello in March.", null),
        new Fact("new-3", "The user's sister moved to Lisbon for a job at an aquarium.", null));
    SETreeConfig base = SETreeConfig.builder().quietWindowMillis(0).build();
    try (MiniLmEmbedder mini = MiniLmEmbedder.load()) {
      SETreeConfig direct = base.toBuilder().embedder(mini).tokenCounter(mini.tokenizer()).build();
      SETreeConfig wrapped = base.toBuilder().embedder(new ForwardingEmbedder(mini) {}).tokenCounter(mini.tokenizer())
          .build();
      try (SETree a = SETree.open(single, direct); SETree b = SETree.open(prompt, wrapped)) {
        a.build(facts, BuildProgress.NONE);
        b.build(facts, BuildProgress.NONE);
        a.insert(inserts.get(0));
        a.awaitMaintenance().get(60, TimeUnit.SECONDS);
        assertEquals(0, mini.singleThreadedRuns(), "a first run embeds on the prompt session: a one-shot command"
            + " that runs once makes no second session");
        a.insert(inserts.get(1));
        a.awaitMaintenance().get(60, TimeUnit.SECONDS);
        // The second run started making the session without waiting for it; it never gets ready unless started.
        mini.singleThreadedReady().get(60, TimeUnit.SECONDS);
        long ready = mini.singleThreadedRuns();
        for (Fact f : inserts.subList(2, inserts.size())) {
          a.insert(f);
          a.awaitMaintenance().get(60, TimeUnit.SECONDS);
        }
        a.delete(facts.get(3).id());
        a.awaitMaintenance().get(60, TimeUnit.SECONDS);
        assertTrue(mini.singleThreadedRuns() >= ready + inserts.size() - 2, "once the session was ready, each"
            + " inserted fact was embedded on it: " + mini.singleThreadedRuns() + " runs on it, " + ready
            + " before");
        long afterA = mini.singleThreadedRuns();
        for (Fact f : inserts) {
          b.insert(f);
          b.awaitMaintenance().get(60, TimeUnit.SECONDS);
        }
        b.delete(facts.get(3).id());
        b.awaitMaintenance().get(60, TimeUnit.SECONDS);
        assertEquals(afterA, mini.singleThreadedRuns(), "a host's embedder is used as it is");
        assertEquals(62, a.tree().leafCount());
        TreeAssert.assertSameTree(b.currentSnapshot().tree(), a.currentSnapshot().tree());
      }
    }
  }
}

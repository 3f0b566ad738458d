package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.Tree;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * End to end on the real parts: the bundled MiniLM model, a real SQLite file, real Leiden; 240 facts over
 * six topics.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PersonalKnowledgeBaseTest {
  static Path dir;
  static SETree kb;
  static Map<String, String> topicOf = new HashMap<>();
  static Map<String, String> textOf = new HashMap<>();

  @BeforeAll
  static void build() throws Exception {
    dir = Files.createTempDirectory("setree-personal-");
    kb = SETree.open(dir.resolve("kb.db"));
    for (Corpora.TopicFact tf : Corpora.personalFacts()) {
      topicOf.put(tf.fact().id(), tf.topic());
      textOf.put(tf.fact().id(), tf.fact().text());
    }
    List<Fact> facts = Corpora.personal();
    kb.build(facts, BuildProgress.NONE);
  }

  @AfterAll
  static void close() throws Exception {
    kb.close();
    try (var s = Files.list(dir)) {
      for (Path p : s.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }

  /**
   * The candidate path (docs/adr/0018) forced on the real model: with fewer leaves than candidates every leaf
   * is scored exactly (cosine and the forward index's BM25), so each cover equals the exact path's.
   */
  @Test
  void candidatePathGivesTheExactCoverOnTheRealModel() {
    RetrieveOptions approximate = RetrieveOptions.builder().path(RetrievePath.APPROXIMATE).build();
    RetrieveOptions exact = RetrieveOptions.builder().path(RetrievePath.EXACT).build();
    for (Corpora.Query q : Corpora.personalQueries()) {
      for (int budget : List.of(96, 256, 1024)) {
        assertEquals(kb.retrieve(q.prompt(), budget, exact).text(), kb.retrieve(q.prompt(), budget, approximate).text(),
            q.prompt() + " @" + budget);
      }
    }
  }

  /** Each niche question gets its fact verbatim within a budget of 256 tokens. */
  @Test
  void nicheQuestionReturnsItsFactVerbatimAt256() {
    int hits = 0;
    StringBuilder misses = new StringBuilder();
    for (Corpora.Query q : Corpora.personalQueries()) {
      Context c = kb.retrieve(q.prompt(), 256);
      assertTrue(c.tokensUsed() <= 256);
      assertTrue(c.complete(), "the cover still spans the whole knowledge base");
      String gold = textOf.get(q.gold().get(0));
      if (c.text().contains(gold)) {
        hits++;
      } else {
        misses.append(q.id()).append(' ');
      }
    }
    assertEquals(Corpora.personalQueries().size(), hits, "missed: " + misses);
  }

  /**
   * With an overview share (0.25; the default is 0 since issue 11, ADR 0010), a broad prompt at 512 covers
   * every topic through summaries, not just a handful of leaves.
   */
  @Test
  void broadPromptCoversEveryTopicWithSummaries() {
    Context c = kb.retrieve("What do you know about me?", 512, RetrieveOptions.builder().overviewShare(0.25).build());
    assertTrue(c.complete());
    Tree t = kb.tree().tree();
    Set<String> topicsUnderSummaries = new HashSet<>();
    int summaries = 0;
    for (Context.Item it : c.items()) {
      if (!it.isLeaf() && t.indexOf(it.nodeId()) != t.root()) {
        summaries++;
        for (String leaf : it.leafIds()) {
          topicsUnderSummaries.add(topicOf.get(leaf));
        }
      }
    }
    assertTrue(summaries >= 3, "top-level summaries shown: " + summaries + "\n" + c.text());
    assertEquals(Set.of("cooking", "hiking", "programming", "music", "family", "health"), topicsUnderSummaries,
        c.text());
  }

  /**
   * The maintenance path on the real parts: an insert and a delete are applied by the incremental rebuild
   * (MiniLM embedding, Leiden, SQLite save) and a niche question then finds the new fact.
   */
  @Test
  @Order(Integer.MAX_VALUE) // last (unordered tests run at MAX_VALUE / 2): it changes the shared knowledge base
  void insertAndDeleteWithTheRealModel() throws Exception {
    // Two warm-up runs (docs/adr/0038) first, on the real model: they leave nothing behind.
    Snapshot before = kb.currentSnapshot();
    assertEquals(2, kb.writer().rehearse(() -> false, 2));
    assertTrue(before == kb.currentSnapshot(), "a warm-up run shows nothing");
    assertEquals(0, kb.pendingMutations());
    Ack a = kb.insert(new Fact("new-1", "The user's parrot Kiwi can whistle the Mario theme song.", null));
    kb.delete("music-05");
    kb.triggerMaintain();
    kb.awaitMaintenance().get(60, java.util.concurrent.TimeUnit.SECONDS);
    assertEquals("incremental", kb.lastMaintenanceRun().path());
    java.util.List<String> steps = java.util.List.copyOf(kb.lastMaintenanceRun().stepNanos().keySet());
    assertEquals(java.util.List.of("freeze", "plan", "save", "install", "cache"),
        steps.subList(steps.size() - 5, steps.size()));
    assertEquals(240, kb.tree().leafCount());
    assertEquals(-1, kb.tree().indexOf("music-05"));
    Context c = kb.retrieve("What tune can the user's bird whistle?", 256);
    assertTrue(c.text().contains("The user's parrot Kiwi can whistle the Mario theme song."), c.text());
    assertEquals("new-1", a.leafId());
  }

  /** The token counter is MiniLM's WordPiece counter, and the rendered text fits in it. */
  @Test
  void budgetsAreCountedInWordPieces() {
    Context c = kb.retrieve("Which trails has the user hiked?", 300);
    assertEquals(kb.tokenCounter().count(c.text()), c.tokensUsed());
    assertTrue(c.tokensUsed() <= 300);
  }
}

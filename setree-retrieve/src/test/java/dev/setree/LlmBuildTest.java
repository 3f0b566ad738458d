package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.Tree;
import dev.setree.internal.maintain.llm.LlmSettings;
import dev.setree.internal.maintain.llm.LlmUnavailableException;
import dev.setree.internal.maintain.llm.TargetLlmSummarizer;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.StubLlmServer;
import dev.setree.testing.StubReply;
import dev.setree.testing.TempKnowledgeBase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Full builds through the facade with the Target LLM summariser talking to the stub server. */
@ExtendWith(TempKnowledgeBase.class)
class LlmBuildTest {
  static final SimpleTokenCounter COUNTER = new SimpleTokenCounter();
  static final List<String> SENTENCES = List.of("The user has many hobbies.", "They cook, bake, hike and read.",
      "They live with two cats in a small town near the sea.");
  static final String CANNED = String.join(" ", SENTENCES);

  static LlmSettings settings(String baseUrl) {
    return LlmSettings.builder().baseUrl(baseUrl).model("stub").maxRetries(1).retryBackoff(Duration.ofMillis(1))
        .connectTimeout(Duration.ofSeconds(2)).readTimeout(Duration.ofSeconds(5)).build();
  }

  static SETreeConfig config(TargetLlmSummarizer llm) {
    return SETreeConfig.builder().embedder(new HashEmbedder(48)).tokenCounter(COUNTER).summarizer(llm).build();
  }

  static int depth(Tree t, int v) {
    int d = 0;
    for (int a = t.parent(v); a >= 0; a = t.parent(a)) {
      d++;
    }
    return d;
  }

  /** The longest run of whole canned sentences within {@code cap} tokens. */
  static String expectedCut(int cap) {
    String best = "";
    String acc = "";
    for (String s : SENTENCES) {
      acc = acc.isEmpty() ? s : acc + " " + s;
      if (COUNTER.count(acc) <= cap) {
        best = acc;
      }
    }
    return best;
  }

  @Test
  void everySummaryComesFromTheLlmCutToItsCap(@TempKnowledgeBase.File Path kb) {
    List<Fact> facts = Corpora.personal();
    try (StubLlmServer stub = StubLlmServer.start();
        TargetLlmSummarizer llm = new TargetLlmSummarizer(settings(stub.baseUrl()))) {
      stub.defaultReply(StubReply.summary(CANNED));
      llm.checkReachable();
      try (SETree t = SETree.open(kb, config(llm))) {
        BuildReport stats = t.build(facts, BuildProgress.NONE);
        assertEquals(0, stats.summaryFallbacks());
        Tree tree = t.tree().tree();
        int internal = tree.size() - tree.leafCount();
        assertTrue(internal > 10, "a real hierarchy: " + internal);
        for (int v = tree.leafCount(); v < tree.size(); v++) {
          assertEquals("llm", tree.summarizerKind(v), "node " + tree.id(v));
          int childTokens = 0;
          for (int i = 0; i < tree.childCount(v); i++) {
            childTokens += tree.tokens(tree.child(v, i));
          }
          int cap = Math.min(depth(tree, v) <= 1 ? 12 : 24, childTokens);
          assertEquals(expectedCut(cap), tree.text(v), "node " + tree.id(v) + " cap " + cap);
          assertTrue(tree.tokens(v) <= cap);
        }
        // Both caps occur, so both cuts were exercised.
        assertTrue(tree.text(tree.root()).equals(SENTENCES.get(0)));
        boolean twoSentences = false;
        for (int v = tree.leafCount(); v < tree.size(); v++) {
          twoSentences |= tree.text(v).equals(SENTENCES.get(0) + " " + SENTENCES.get(1));
        }
        assertTrue(twoSentences, "deeper nodes keep two sentences");
        // Every request carried the fixed system prompt; retrieve never calls the LLM.
        assertTrue(stub.chatRequests().stream()
            .allMatch(r -> r.systemPrompt().equals(TargetLlmSummarizer.systemPrompt())));
        int requests = stub.chatRequestCount();
        for (String q : List.of("what does the user cook?", "where does the user live?")) {
          t.retrieve(q, 256);
        }
        assertEquals(requests, stub.chatRequestCount(), "retrieve never calls the LLM");
      }
      // The kinds survive the database.
      try (SETree t = SETree.open(kb, config(null))) {
        Tree tree = t.tree().tree();
        for (int v = tree.leafCount(); v < tree.size(); v++) {
          assertEquals("llm", tree.summarizerKind(v));
        }
      }
    }
  }

  @Test
  void garbageForSomeNodesFallsBackAndIsCounted(@TempKnowledgeBase.File Path kb) {
    List<Fact> facts = Corpora.personal();
    try (StubLlmServer stub = StubLlmServer.start();
        TargetLlmSummarizer llm = new TargetLlmSummarizer(settings(stub.baseUrl()))) {
      stub.defaultReply(StubReply.summary("The user has many hobbies."))
          .when(r -> r.userMessage().toLowerCase().contains("gnocchi"), StubReply.html())
          .when(r -> r.userMessage().toLowerCase().contains("piano"), StubReply.truncatedJson());
      try (SETree t = SETree.open(kb, config(llm))) {
        BuildReport stats = t.build(facts, BuildProgress.NONE);
        Tree tree = t.tree().tree();
        int extractive = 0;
        int fromLlm = 0;
        for (int v = tree.leafCount(); v < tree.size(); v++) {
          if ("extractive".equals(tree.summarizerKind(v))) {
            extractive++;
          } else {
            assertEquals("llm", tree.summarizerKind(v));
            fromLlm++;
          }
          assertTrue(!tree.text(v).isBlank());
        }
        assertTrue(extractive > 0, "some nodes fell back");
        assertTrue(fromLlm > 0, "the others kept the LLM's summary");
        assertEquals(extractive, stats.summaryFallbacks(), "every fallback counted");
        assertEquals(extractive, llm.failureCount());
        assertTrue(llm.lastFailure().orElseThrow().contains(stub.baseUrl()), llm.lastFailure().orElseThrow());
        assertEquals(240, tree.leafCount());
      }
    }
  }

  /**
   * The facade checks the endpoint before a build: a dead one fails the build naming the URL, before
   * anything is written (the knowledge base keeps its previous tree).
   */
  @Test
  void deadEndpointFailsTheBuildBeforeAnythingIsWritten(@TempKnowledgeBase.File Path kb) {
    List<Fact> facts = Corpora.synthetic(60, 3);
    String dead = StubLlmServer.deadBaseUrl();
    try (TargetLlmSummarizer llm = new TargetLlmSummarizer(settings(dead).toBuilder().maxRetries(0).build())) {
      try (SETree t = SETree.open(kb, config(llm))) {
        LlmUnavailableException e = assertThrows(LlmUnavailableException.class,
            () -> t.build(facts, BuildProgress.NONE));
        assertTrue(e.getMessage().contains(dead), e.getMessage());
        assertTrue(t.tree().isEmpty(), "nothing was built");
      }
    }
  }
}

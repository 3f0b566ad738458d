package dev.setree;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.Tree;
import dev.setree.internal.maintain.ExtractiveSummarizer;
import dev.setree.testing.Corpora;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Topic-term summaries (docs/adr/0011) on the real parts: MiniLM, Leiden, SQLite, the 240 personal facts over
 * six topics. The root of a topic-term tree names several of the six topics, not one fact of one.
 */
class TopicSummariesTest {
  @Test
  void theRootNamesSeveralTopicsAndEverySummaryStaysWithinItsChildren() throws Exception {
    Path dir = Files.createTempDirectory("setree-topics-");
    try (SETree kb = SETree.open(dir.resolve("kb.db"),
        SETreeConfig.builder().summarizer(new ExtractiveSummarizer(ExtractiveSummarizer.Design.TERMS)).build())) {
      kb.build(Corpora.personal(), BuildProgress.NONE);
      Tree t = kb.tree().tree();
      String root = t.text(t.root());
      // topics named by a term specific to one topic ("guitar": music); "user" or "every" name none
      Set<String> topics = new HashSet<>();
      for (String term : root.split(",\\s*")) {
        String w = term.toLowerCase(Locale.ROOT);
        Set<String> of = new HashSet<>();
        for (Corpora.TopicFact tf : Corpora.personalFacts()) {
          if (tf.fact().text().toLowerCase(Locale.ROOT).matches(".*\\b" + java.util.regex.Pattern.quote(w) + "\\b.*")) {
            of.add(tf.topic());
          }
        }
        if (of.size() == 1) {
          topics.addAll(of);
        }
      }
      assertTrue(topics.size() >= 4, "the root '" + root + "' names only " + topics);
      for (int v = t.leafCount(); v < t.size(); v++) {
        int children = 0;
        for (int i = 0; i < t.childCount(v); i++) {
          children += t.tokens(t.child(v, i));
        }
        assertTrue(t.tokens(v) <= children, "budget-monotone at " + t.id(v));
        assertTrue(!t.text(v).isBlank() && t.text(v).split(",").length >= 2 || t.tokens(v) <= 3,
            "a topic summary lists terms: " + t.text(v));
      }
      Context c = kb.retrieve("What do you know about me?", 512);
      assertTrue(c.complete() && c.tokensUsed() <= 512);
      List<Context.Item> summaries = c.items().stream().filter(i -> !i.isLeaf()).toList();
      assertTrue(!summaries.isEmpty(), c.text());
    } finally {
      try (var s = Files.walk(dir)) {
        for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
  }
}

package dev.setree.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.Fact;
import dev.setree.spi.Passage;
import dev.setree.spi.Summarizer;
import dev.setree.core.Tree;
import dev.setree.core.Vectors;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The three extractive designs: topic terms, key clauses, whole sentences; caps, determinism, trees. */
class ExtractiveSummarizerTest {
  final HashEmbedder embedder = new HashEmbedder(48);
  final SimpleTokenCounter counter = new SimpleTokenCounter();

  Summarizer.Request request(List<String> texts, int cap) {
    float[][] e = embedder.embed(texts);
    List<Passage> leaves = new ArrayList<>();
    float[] c = new float[embedder.dimension()];
    for (int i = 0; i < texts.size(); i++) {
      leaves.add(new Passage("l" + i, texts.get(i), e[i]));
      for (int d = 0; d < c.length; d++) {
        c[d] += e[i][d];
      }
    }
    Vectors.normalize(c);
    return new Summarizer.Request(1, 2, leaves, leaves, c, cap, counter);
  }

  static final List<String> BREAD = List.of(
      "The user bakes sourdough bread every Sunday.",
      "The user feeds the sourdough starter twice a day.",
      "The user's sourdough bread won a prize at the county fair.",
      "The user bought a Dutch oven for bread.");

  /** c-TF-IDF: a word many leaves of the node share and few others have beats a word everyone has. */
  @Test
  void topicTermsPreferWhatTheNodeShares() {
    List<String> corpus = new ArrayList<>(BREAD);
    for (int i = 0; i < 40; i++) {
      corpus.add("The user walks the dog number " + i + " in the park.");
    }
    List<TopicTerms.Weighted> ranked = TopicTerms.of(corpus).rank(BREAD);
    Map<String, Integer> rank = new HashMap<>();
    for (int i = 0; i < ranked.size(); i++) {
      rank.put(ranked.get(i).key(), i);
    }
    assertEquals(Set.of("bread", "sourdough"), Set.of(ranked.get(0).key(), ranked.get(1).key()), ranked.toString());
    assertTrue(rank.get("bread") < rank.get("user"), "bread before user: " + ranked);
    assertFalse(rank.containsKey("the"), "no stop words");
    assertTrue(rank.containsKey("sourdough bread"), "two-word phrases are terms");
  }

  @Test
  void termsSummaryFitsItsCapAndIsDeterministic() {
    ExtractiveSummarizer s = new ExtractiveSummarizer(ExtractiveSummarizer.Design.TERMS).forCorpus(BREAD);
    for (int cap : new int[] {1, 3, 6, 12}) {
      Summarizer.Summary a = s.summarize(request(BREAD, cap));
      assertTrue(counter.count(a.text()) <= cap, cap + ": " + a.text());
      assertFalse(a.text().isBlank());
      assertEquals(a, s.summarize(request(BREAD, cap)));
    }
    String text = s.summarize(request(BREAD, 12)).text();
    assertTrue(text.toLowerCase().contains("sourdough"), text);
    // a phrase replaces its own word: "sourdough" does not appear twice
    assertEquals(text.toLowerCase().indexOf("sourdough"), text.toLowerCase().lastIndexOf("sourdough"), text);
  }

  /** Key clause: the date goes, the speaker stays, the clause with the node's terms wins over small talk. */
  @Test
  void keyClauseKeepsTheSpeakerAndTheContentfulClause() {
    Map<String, Double> w = Map.of("lgbtq", 1.0, "support", 1.0, "group", 1.0, "mel", 0.1);
    assertEquals("Caroline: I went to a LGBTQ support group yesterday",
        ExtractiveSummarizer.keyClause(
            "[8 May 2023] Caroline: Hey Mel! I went to a LGBTQ support group yesterday, and it was so powerful.",
            w, Set.of()));
    String whole = "Caroline adopted a dog.";
    assertEquals(whole, ExtractiveSummarizer.keyClause(whole, Map.of("dog", 1.0), Set.of()));
  }

  @Test
  void clausesSummaryPacksSeveralLeavesIntoTheCap() {
    List<String> turns = new ArrayList<>();
    for (String b : BREAD) {
      turns.add("[1 May 2023] Alex: Oh wow, so " + b.replace("The user", "my neighbour") + " That is so nice to hear!");
    }
    ExtractiveSummarizer s = new ExtractiveSummarizer(ExtractiveSummarizer.Design.CLAUSES).forCorpus(turns);
    Summarizer.Summary sum = s.summarize(request(turns, 40));
    assertTrue(counter.count(sum.text()) <= 40);
    assertTrue(sum.text().split(";").length >= 2, "more than one leaf's clause: " + sum.text());
    assertFalse(sum.text().contains("[1 May 2023]"), sum.text());
  }

  /** Every design keeps the tree's invariants: caps and the budget-monotone rule, deterministic builds. */
  @Test
  void everyDesignBuildsBudgetMonotoneTrees() {
    List<Fact> facts = Corpora.personal();
    for (ExtractiveSummarizer.Design d : ExtractiveSummarizer.Design.values()) {
      Tree t = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(d), BuildOptions.DEFAULTS)
          .build(facts, BuildProgress.NONE).tree();
      Tree again = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(d), BuildOptions.DEFAULTS)
          .build(facts, BuildProgress.NONE).tree();
      for (int v = t.leafCount(); v < t.size(); v++) {
        int childTokens = 0;
        for (int i = 0; i < t.childCount(v); i++) {
          childTokens += t.tokens(t.child(v, i));
        }
        assertTrue(t.tokens(v) <= childTokens, d + ": budget-monotone at " + t.id(v));
        assertFalse(t.text(v).isBlank(), d + " " + t.id(v));
        assertEquals(t.text(v), again.text(v), d + ": deterministic");
      }
    }
  }
}

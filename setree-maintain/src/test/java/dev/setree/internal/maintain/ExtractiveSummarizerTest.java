package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.Fact;
import dev.setree.spi.Passage;
import dev.setree.spi.Summarizer;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.Vectors;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
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

  /**
   * The lazy MMR order picks exactly what computing every pick first picked (the eager loop it replaced),
   * whether the caller takes all picks or stops early; random leaves, some with equal relevance (duplicates, and
   * components of -1, 0 or 1, which give distinct leaves equal scores), up to more of them than the candidate cap,
   * many picks, and redundancies under which a score can only fall as picks are added and one under which it can
   * rise.
   */
  @Test
  void lazyMmrOrderEqualsTheEagerOne() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    float[] redundancies = {ExtractiveSummarizer.REDUNDANCY, 0f, 1.5f, -0.3f};
    for (int round = 0; round < 240; round++) {
      int n = round == 0 ? 4100 + r.nextInt(200) : round < 40 ? 1 + r.nextInt(3000) : 1 + r.nextInt(300);
      boolean coarse = round % 4 == 1; // components of -1, 0 or 1: many equal scores between distinct leaves
      int dim = coarse || round % 3 == 2 ? 2 + r.nextInt(4) : 8 + r.nextInt(24);
      List<Passage> leaves = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        float[] e = new float[dim];
        for (int d = 0; d < dim; d++) {
          e[d] = coarse ? r.nextInt(3) - 1 : r.nextInt(4) == 0 ? 0f : (float) r.nextGaussian();
        }
        if (i > 0 && r.nextInt(10) == 0) {
          e = leaves.get(r.nextInt(i)).embedding().clone(); // a duplicate: equal relevance
        }
        leaves.add(new Passage("l" + i, "leaf " + i, Vectors.normalize(e)));
      }
      float[] centroid = Vectors.normalize(leaves.get(r.nextInt(n)).embedding().clone());
      int limit = 1 + r.nextInt(round < 40 ? 200 : 80);
      float redundancy = round < 40 ? ExtractiveSummarizer.REDUNDANCY : redundancies[round % redundancies.length];
      String where = "seed=" + seed + " round " + round + " redundancy " + redundancy;
      List<Integer> expected = eagerMmr(leaves, centroid, limit, redundancy);
      List<Integer> lazy = new ArrayList<>();
      MaximalMarginalRelevance.order(leaves, centroid, limit, redundancy).forEach(lazy::add);
      assertEquals(expected, lazy, where);
      int stop = r.nextInt(expected.size() + 1);
      List<Integer> prefix = new ArrayList<>();
      for (int i : MaximalMarginalRelevance.order(leaves, centroid, limit, redundancy)) {
        if (prefix.size() == stop) {
          break;
        }
        prefix.add(i);
      }
      assertEquals(expected.subList(0, stop), prefix, where);
      if (redundancy == ExtractiveSummarizer.REDUNDANCY) {
        List<Integer> viaSummarizer = new ArrayList<>();
        ExtractiveSummarizer.mmrOrder(leaves, centroid, limit).forEach(viaSummarizer::add);
        assertEquals(expected, viaSummarizer, where);
      }
    }
  }

  /** The MMR loop as it was before the picks became lazy: every pick computed up front. */
  private static List<Integer> eagerMmr(List<Passage> leaves, float[] centroid, int limit, float redundancy) {
    int n = leaves.size();
    float[] rel = new float[n];
    for (int i = 0; i < n; i++) {
      rel[i] = Vectors.dot(leaves.get(i).embedding(), centroid);
    }
    List<Integer> cand = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      cand.add(i);
    }
    cand.sort((a, b) -> rel[a] != rel[b] ? Float.compare(rel[b], rel[a]) : Integer.compare(a, b));
    if (cand.size() > 4096) {
      cand = new ArrayList<>(cand.subList(0, 4096));
    }
    float[] maxSim = new float[n];
    Arrays.fill(maxSim, -1f);
    boolean[] taken = new boolean[n];
    List<Integer> order = new ArrayList<>();
    while (order.size() < Math.min(limit, cand.size())) {
      int best = -1;
      float bestScore = Float.NEGATIVE_INFINITY;
      for (int i : cand) {
        if (taken[i]) {
          continue;
        }
        float score = rel[i] - (order.isEmpty() ? 0f : redundancy * maxSim[i]);
        if (score > bestScore) {
          bestScore = score;
          best = i;
        }
      }
      taken[best] = true;
      order.add(best);
      for (int i : cand) {
        maxSim[i] = Math.max(maxSim[i], Vectors.dot(leaves.get(i).embedding(), leaves.get(best).embedding()));
      }
    }
    return order;
  }
}

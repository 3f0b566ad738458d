package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.LeafNeighbours;
import dev.setree.internal.core.Ranking;
import dev.setree.internal.core.Tree;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The period a prompt names and the leaf prior (docs/adr/0026-period-and-substance.md): dates parsed from
 * prompts and time stamps, the period's leaves first on both retrieve paths (real SQLite, real Leiden, a
 * hash embedder so that only the time stamps tell the months apart), and the substance ordering.
 */
class PeriodAndSubstanceTest {
  @TempDir
  static Path dir;
  static SETree exact;
  static SETree approximate;
  /** 36 months x 40 facts: the synthetic corpus, time-stamped one month after another (ids say the month). */
  static final List<Fact> FACTS = timed(Corpora.synthetic(1_440, 11));

  @BeforeAll
  static void build() throws Exception {
    exact = SETree.open(dir.resolve("exact.db"), CandidatePathTest.config(RetrievePath.EXACT));
    exact.build(FACTS, BuildProgress.NONE);
    approximate = SETree.open(dir.resolve("approximate.db"), CandidatePathTest.config(RetrievePath.APPROXIMATE));
    approximate.build(FACTS, BuildProgress.NONE);
  }

  @AfterAll
  static void close() throws Exception {
    exact.close();
    approximate.close();
  }

  private static List<Fact> timed(List<Fact> facts) {
    List<Fact> out = new ArrayList<>();
    for (int i = 0; i < facts.size(); i++) {
      LocalDate month = LocalDate.of(2020, 1, 1).plusMonths(i % 36);
      String time = month.plusDays(i % 28) + "T10:00";
      out.add(new Fact(month.toString().substring(0, 7) + "/" + i, facts.get(i).text(), time));
    }
    return out;
  }

  private static long day(int y, int m, int d) {
    return LocalDate.of(y, m, d).toEpochDay();
  }

  @Test
  void periodsParsedFromPrompts() {
    assertEquals(new PromptPeriod(day(2023, 5, 1), day(2023, 6, 1)),
        PromptPeriod.of("What happened in Caroline's life in May 2023?"));
    assertEquals(new PromptPeriod(day(2023, 5, 8), day(2023, 5, 9)), PromptPeriod.of("on 8 May 2023"));
    assertEquals(new PromptPeriod(day(2023, 5, 8), day(2023, 5, 9)), PromptPeriod.of("by May 8th, 2023."));
    assertEquals(new PromptPeriod(day(2023, 5, 8), day(2023, 5, 9)), PromptPeriod.of("log of 2023-05-08"));
    assertEquals(new PromptPeriod(day(2023, 9, 1), day(2023, 10, 1)), PromptPeriod.of("sept. 2023 and 2023-09"));
    assertEquals(new PromptPeriod(day(2022, 1, 1), day(2023, 1, 1)), PromptPeriod.of("What did I read in 2022?"));
    assertEquals(new PromptPeriod(day(2023, 3, 1), day(2023, 6, 1)),
        PromptPeriod.of("from March 2023 to May 2023"), "several dates: their span");
    assertNull(PromptPeriod.of("Caroline may 2 go hiking"), "'may' without a year is the verb");
    assertNull(PromptPeriod.of("She walked 1234 steps and ate 3500 calories"), "not years");
    assertNull(PromptPeriod.of("on 31 February 2023"), "no such day, and its year is not taken alone");
    assertNull(PromptPeriod.of("2023-13"));
    assertNull(PromptPeriod.of(""));
    assertThrows(IllegalArgumentException.class, () -> new PromptPeriod(5, 5));
  }

  @Test
  void leafTimeStampsGiveDays() {
    assertEquals(day(2023, 5, 8), PromptPeriod.epochDay("2023-05-08T13:56"));
    assertEquals(day(2023, 5, 8), PromptPeriod.epochDay("2023-05-08"));
    assertEquals(day(2023, 5, 1), PromptPeriod.epochDay("2023-05"));
    assertEquals(day(2023, 1, 1), PromptPeriod.epochDay("2023"));
    assertEquals(LeafDays.NONE, PromptPeriod.epochDay(null));
    assertEquals(LeafDays.NONE, PromptPeriod.epochDay("yesterday"));
    assertEquals(LeafDays.NONE, PromptPeriod.epochDay("2023-02-30"));
  }

  @Test
  void leafDaysFindThePeriodsLeaves() {
    Snapshot s = exact.currentSnapshot();
    LeafDays days = s.leafDays();
    PromptPeriod march2021 = PromptPeriod.of("March 2021");
    int[] in = days.leavesIn(march2021);
    assertEquals(40, in.length);
    assertEquals(40, days.countIn(march2021));
    for (int v : in) {
      assertTrue(s.tree().id(v).startsWith("2021-03/"), s.tree().id(v));
      assertTrue(days.in(v, march2021));
    }
    int outside = 0;
    for (int v = 0; v < s.tree().leafCount(); v++) {
      outside += days.in(v, march2021) ? 0 : 1;
    }
    assertEquals(FACTS.size() - 40, outside);
    assertEquals(0, days.countIn(PromptPeriod.of("in 1999")));
  }

  /**
   * With a boost above any cosine, the period's leaves fill the context on both paths; the default boost shows
   * more of them than no boost.
   */
  @Test
  void thePeriodsLeavesComeFirst() {
    String prompt = "What did Anna and Chen do in March 2021?";
    RetrieveOptions strong = RetrieveOptions.builder().periodBoost(2).build();
    for (SETree kb : List.of(exact, approximate)) {
      Context c = kb.retrieve(prompt, 96, strong);
      assertFalse(c.leafIds().isEmpty());
      for (String id : c.leafIds()) {
        assertTrue(id.startsWith("2021-03/"), id + " in " + c.leafIds());
      }
      long byDefault = inMarch(kb.retrieve(prompt, 96));
      long off = inMarch(kb.retrieve(prompt, 96, RetrieveOptions.builder().periodBoost(0).build()));
      assertTrue(byDefault > off, byDefault + " vs " + off);
    }
  }

  private static long inMarch(Context c) {
    return c.leafIds().stream().filter(id -> id.startsWith("2021-03/")).count();
  }

  /** With every leaf a candidate, the candidate path gives the exact path's covers, prior included. */
  @Test
  void smallKnowledgeBaseGivesTheExactCoverWithThePrior() throws Exception {
    try (SETree small = SETree.open(dir.resolve("small.db"), CandidatePathTest.config(RetrievePath.APPROXIMATE))) {
      small.build(FACTS.subList(0, 200), BuildProgress.NONE);
      RetrieveOptions exactPath = RetrieveOptions.builder().path(RetrievePath.EXACT).build();
      for (String prompt : List.of("What happened in February 2020?", "Anna hikes in 2020-03", "Goran rowing")) {
        for (int budget : List.of(32, 128, 512)) {
          assertEquals(small.retrieve(prompt, budget, exactPath).text(), small.retrieve(prompt, budget).text(),
              prompt);
        }
      }
    }
  }

  /** Of two leaves that match a prompt alike, the one that says more ranks higher once substance counts. */
  @Test
  void substanceRanksTheLeafThatSaysMore() throws Exception {
    List<Fact> facts = new ArrayList<>();
    facts.add(Fact.of("short", "Emil rowing."));
    facts.add(Fact.of("long", "Emil rowing on the cold lake before dawn with his brother, timing splits and laps."));
    facts.addAll(Corpora.synthetic(60, 5));
    try (SETree kb = SETree.open(dir.resolve("substance.db"), CandidatePathTest.config(RetrievePath.EXACT))) {
      kb.build(facts, BuildProgress.NONE);
      Snapshot s = kb.currentSnapshot();
      int shortLeaf = leaf(s, "short");
      int longLeaf = leaf(s, "long");
      String prompt = "Emil rowing";
      float[] q = new HashEmbedder(48).embed(prompt);
      float[] plain = Retriever.relevance(s, prompt, q, Strategy.HYBRID, 0.3, null);
      assertTrue(plain[shortLeaf] > plain[longLeaf], "the shorter leaf matches better without substance");
      assertNull(LeafPrior.of(s, prompt, 0.3, 0, 0.4), "no period, no substance: no prior");
      LeafPrior prior = LeafPrior.of(s, prompt, 0, 4, 0);
      float[] weighted = Retriever.relevance(s, prompt, q, Strategy.HYBRID, 0.3, prior);
      assertTrue(weighted[longLeaf] > weighted[shortLeaf], "the longer leaf says more");
      for (int v = 0; v < plain.length; v++) {
        float sub = prior.of(v);
        assertTrue(sub > 0f && sub <= 4f, "substance in (0, 4]: " + sub);
        assertEquals(plain[v] + sub, weighted[v], 1e-6f);
      }
      assertEquals(4f, prior.substanceWeight(), 0f);
      assertEquals(0f, prior.periodBoundOfOthers(false), 0f, "no period in the prompt");
    }
  }

  /**
   * The period substance weighs only for a prompt that names a period holding leaves: there, of a filler and
   * a substantive leaf of that period, the substantive one ranks first; without the period it does not.
   */
  @Test
  void periodSubstanceWeighsOnlyWhenThePromptNamesAPeriod() throws Exception {
    Snapshot timed = exact.currentSnapshot();
    assertEquals(0.6f, LeafPrior.of(timed, "What did Anna do in March 2021?", 0.3, 0.2, 0.4).substanceWeight(),
        1e-6f);
    assertEquals(0.2f, LeafPrior.of(timed, "What did Anna do?", 0.3, 0.2, 0.4).substanceWeight(), 1e-6f);
    assertEquals(0.2f, LeafPrior.of(timed, "What did Anna do in May 1990?", 0.3, 0.2, 0.4).substanceWeight(),
        1e-6f, "no leaf in the period");
    assertEquals(0.2f, LeafPrior.of(timed, "What did Anna do in March 2021?", 0, 0.2, 0.4).substanceWeight(),
        1e-6f, "periods off");
    List<Fact> facts = new ArrayList<>();
    facts.add(new Fact("short", "Emil rowing.", "2021-03-04T10:00"));
    facts.add(new Fact("long", "Emil rowing on the cold lake before dawn with his brother, timing splits and laps.",
        "2021-03-05T10:00"));
    facts.addAll(timed(Corpora.synthetic(60, 5)));
    try (SETree kb = SETree.open(dir.resolve("period-substance.db"), CandidatePathTest.config(RetrievePath.EXACT))) {
      kb.build(facts, BuildProgress.NONE);
      Snapshot s = kb.currentSnapshot();
      int shortLeaf = leaf(s, "short");
      int longLeaf = leaf(s, "long");
      HashEmbedder e = new HashEmbedder(48);
      String month = "Emil rowing in March 2021";
      float[] q = e.embed(month);
      float[] periodOnly = Retriever.relevance(s, month, q, Strategy.HYBRID, 0.3, LeafPrior.of(s, month, 0.3, 0, 0));
      assertTrue(periodOnly[shortLeaf] > periodOnly[longLeaf], "the shorter leaf matches better");
      float[] withSubstance = Retriever.relevance(s, month, q, Strategy.HYBRID, 0.3,
          LeafPrior.of(s, month, 0.3, 0, 4));
      assertTrue(withSubstance[longLeaf] > withSubstance[shortLeaf], "the period asks what happened");
      String plain = "Emil rowing";
      assertNull(LeafPrior.of(s, plain, 0.3, 0, 4), "no period: the period substance adds nothing");
    }
  }

  /**
   * The nearest-leaf search with the substance as a per-leaf prior finds the leaves with the best cosine plus
   * weighted substance: the ranking the exact path's relevance adds it to.
   */
  @Test
  void theGraphSearchFindsTheBestCosinePlusSubstance() {
    Snapshot s = approximate.currentSnapshot();
    Tree tree = s.tree();
    float[] substance = s.leafSubstance();
    HashEmbedder e = new HashEmbedder(48);
    int k = 50;
    double recall = 0;
    List<String> prompts = List.of("who cooks curry on mondays", "Anna hikes the glacier", "Goran rowing",
        "java compilers and databases", "poetry at night");
    for (String prompt : prompts) {
      float[] q = e.embed(prompt);
      float[] score = new float[tree.leafCount()];
      for (int v = 0; v < score.length; v++) {
        score[v] = tree.embeddingDot(v, q) + 0.2f * substance[v];
      }
      Set<Integer> truth = new HashSet<>();
      for (int v : Arrays.copyOf(Ranking.descending(score), k)) {
        truth.add(v);
      }
      LeafNeighbours.Hits hits = s.neighbours().search(q, k, 100, substance, 0.2f);
      for (int i = 0; i < k; i++) {
        assertEquals(score[hits.leaves()[i]], hits.cosines()[i], 1e-6f, "a hit's score is cosine + prior");
        recall += truth.contains(hits.leaves()[i]) ? 1.0 / k : 0;
      }
    }
    recall /= prompts.size();
    assertTrue(recall >= 0.95, "recall@50 of cosine + substance " + recall);
  }

  private static int leaf(Snapshot s, String id) {
    for (int v = 0; v < s.tree().leafCount(); v++) {
      if (s.tree().id(v).equals(id)) {
        return v;
      }
    }
    throw new AssertionError("no leaf " + id);
  }

  @Test
  void badValuesAreRefused() {
    assertEquals("calibration.period_boost must be >= 0, got -1",
        assertThrows(IllegalArgumentException.class,
            () -> SETreeConfig.builder().periodBoost(-1).build()).getMessage());
    assertEquals("calibration.substance must be >= 0, got -0.5",
        assertThrows(IllegalArgumentException.class,
            () -> RetrieveOptions.builder().substance(-0.5).build()).getMessage());
    assertEquals("calibration.period_substance must be >= 0, got -2",
        assertThrows(IllegalArgumentException.class,
            () -> SETreeConfig.builder().periodSubstance(-2).build()).getMessage());
  }
}

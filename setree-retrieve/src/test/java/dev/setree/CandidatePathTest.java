package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.ContextFormat;
import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.LeafNeighbours;
import dev.setree.internal.core.LeafRelevance;
import dev.setree.internal.core.Ranking;
import dev.setree.internal.core.Tree;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.nio.file.Path;
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
 * The candidate path of retrieve (docs/adr/0018) on a knowledge base of 3,000 synthetic facts, more than the
 * path's candidates, built with the fixtures' hash embedder on a real SQLite file and real Leiden: the
 * per-leaf BM25 equals Lucene's, the nearest-leaf search finds the nearest leaves, and the covers agree with
 * the exact path's.
 */
class CandidatePathTest {
  static final int FACTS = 3_000;
  @TempDir
  static Path dir;
  static SETree kb;
  static final List<String> PROMPTS = List.of("who cooks curry on mondays", "Anna hikes the glacier",
      "java compilers and databases", "piano or violin with friends", "stamps coins and vinyl since 2019",
      "Chen visits kyoto alone", "marathon training every weekend", "poetry at night", "Goran rowing",
      "what does the user collect");

  @BeforeAll
  static void build() throws Exception {
    kb = SETree.open(dir.resolve("kb.db"), config(RetrievePath.AUTO));
    kb.build(Corpora.synthetic(FACTS, 7), BuildProgress.NONE);
  }

  static SETreeConfig config(RetrievePath path) {
    return SETreeConfig.builder().embedder(new HashEmbedder(48)).tokenCounter(new SimpleTokenCounter())
        .retrievePath(path).build();
  }

  @AfterAll
  static void close() throws Exception {
    kb.close();
  }

  /** The forward index scores every leaf exactly as Lucene's collector does, before and after mutations. */
  @Test
  void leafScorerEqualsLucene() throws Exception {
    assertLeafScoresEqualLucene(kb.currentSnapshot());
    kb.insert(Fact.of("new-1", "Fatima collects rare maps of kyoto"));
    kb.delete("f17");
    kb.awaitMaintenance().get();
    Snapshot after = kb.currentSnapshot();
    assertTrue(after.tree().indexOf("new-1") >= 0);
    assertLeafScoresEqualLucene(after);
  }

  /**
   * A maintenance run installs its snapshot with the nearest-leaf index already derived (beside the save) and
   * derived for the run's tree: the new fact's embedding finds the new leaf first, at its index in that tree.
   */
  @Test
  void runInstallsTheNearestLeafIndexOfItsTree() throws Exception {
    try (SETree s = SETree.open(dir.resolve("derived.db"), config(RetrievePath.APPROXIMATE))) {
      s.build(Corpora.synthetic(300, 5), BuildProgress.NONE);
      Snapshot before = s.currentSnapshot();
      String text = "Rosa repairs antique clocks in Lisbon";
      s.insert(Fact.of("new-2", text));
      s.awaitMaintenance().get();
      Snapshot after = s.currentSnapshot();
      assertTrue(after != before && after.tree() != before.tree());
      LeafNeighbours installed = after.derived().derivedNeighbours();
      assertTrue(installed != null, "the index is derived before the snapshot is installed");
      float[] q = new HashEmbedder(48).embed(text);
      LeafNeighbours.Hits hits = installed.search(q, 5, 100);
      assertEquals(after.tree().indexOf("new-2"), hits.leaves()[0]);
      for (int i = 0; i < hits.size(); i++) {
        assertEquals(after.tree().embeddingDot(hits.leaves()[i], q), hits.cosines()[i], 1e-6f);
      }
    }
  }

  private static void assertLeafScoresEqualLucene(Snapshot s) {
    int n = s.tree().leafCount();
    int matched = 0;
    for (String prompt : PROMPTS) {
      float[] lucene = new float[n];
      s.lexical().scores(prompt, lucene);
      LeafScorer one = s.lexical().prompt(prompt).leafScorer();
      for (int v = 0; v < n; v++) {
        assertEquals(lucene[v], one.score(v), 1e-6f * Math.max(1f, lucene[v]), prompt + " leaf " + v);
        matched += lucene[v] > 0 ? 1 : 0;
      }
    }
    assertTrue(matched > 1000, "the prompts should match many leaves, matched " + matched);
  }

  /**
   * Every candidate gets the exact path's relevance, the leaf prior included: the nearest leaves (cosine from
   * the graph search) and the BM25 hits (score from the top-k search) alike; no candidate is left at its
   * bound. (These facts carry no times, so no prompt names a period here.)
   */
  @Test
  void candidateValuesEqualTheExactRelevance() {
    Snapshot s = kb.currentSnapshot();
    SETreeConfig c = config(RetrievePath.AUTO);
    HashEmbedder e = new HashEmbedder(48);
    int hits = 0;
    for (String prompt : PROMPTS) {
      float[] q = e.embed(prompt);
      LeafPrior prior = LeafPrior.of(s, prompt, c.periodBoost(), c.substance(), c.periodSubstance());
      float[] exact = Retriever.relevance(s, prompt, q, Strategy.TREE_COVER, c.tau(), prior);
      Retriever.Words words = Retriever.words(s, prompt);
      LeafRelevance rel = Retriever.candidates(s, q, c.tau(), 1024,
          s.walkTables(new ContextFormat(new SimpleTokenCounter())), words, Retriever.nearest(s, q, prior), prior);
      int[] leaves = rel.candidateLeaves();
      float[] values = rel.candidateValues();
      assertTrue(leaves.length > Retriever.COSINE_CANDIDATES, prompt + ": " + leaves.length + " candidates");
      for (int i = 0; i < leaves.length; i++) {
        assertEquals(exact[leaves[i]], values[i], 1e-5f, prompt + ", candidate " + i + " (leaf " + leaves[i] + ")");
      }
      hits += words.top().leaves().length;
    }
    assertTrue(hits > 1000, "the prompts should have many BM25 hits, had " + hits);
  }

  /** The graph search finds the exact nearest leaves, best first, with exact cosines; so does the descent alone. */
  @Test
  void nearestLeavesFoundByTheGraph() {
    Snapshot s = kb.currentSnapshot();
    Tree tree = s.tree();
    LeafNeighbours graph = s.neighbours();
    assertTrue(graph.hasGraph());
    LeafNeighbours descent = LeafNeighbours.of(tree, HierarchyState.empty());
    assertFalse(descent.hasGraph());
    HashEmbedder e = new HashEmbedder(48);
    double graphRecall = 0;
    double descentRecall = 0;
    int k = 50;
    for (String prompt : PROMPTS) {
      float[] q = e.embed(prompt);
      float[] cos = new float[tree.leafCount()];
      for (int v = 0; v < cos.length; v++) {
        cos[v] = tree.embeddingDot(v, q);
      }
      Set<Integer> truth = new HashSet<>();
      for (int v : Arrays.copyOf(Ranking.descending(cos), k)) {
        truth.add(v);
      }
      LeafNeighbours.Hits hits = graph.search(q, k, 100);
      assertEquals(k, hits.size());
      for (int i = 1; i < k; i++) {
        assertTrue(hits.cosines()[i - 1] >= hits.cosines()[i], "hits are best first");
        assertEquals(cos[hits.leaves()[i]], hits.cosines()[i], 1e-6f);
      }
      graphRecall += overlap(hits.leaves(), truth) / (double) k;
      descentRecall += overlap(descent.search(q, k, 100).leaves(), truth) / (double) k;
    }
    graphRecall /= PROMPTS.size();
    descentRecall /= PROMPTS.size();
    assertTrue(graphRecall >= 0.95, "graph recall@50 " + graphRecall);
    assertTrue(descentRecall >= 0.8, "descent-only recall@50 " + descentRecall);
  }

  private static int overlap(int[] found, Set<Integer> truth) {
    int hit = 0;
    for (int v : found) {
      hit += truth.contains(v) ? 1 : 0;
    }
    return hit;
  }

  /** Forced candidate path vs exact path on the same snapshot: the covers agree. */
  @Test
  void candidateCoversAgreeWithExactCovers() {
    RetrieveOptions approximate = RetrieveOptions.builder().path(RetrievePath.APPROXIMATE).build();
    RetrieveOptions exact = RetrieveOptions.builder().path(RetrievePath.EXACT).build();
    double agreement = 0;
    int identical = 0;
    List<Integer> budgets = List.of(64, 256, 1024);
    for (String prompt : PROMPTS) {
      for (int budget : budgets) {
        Context a = kb.retrieve(prompt, budget, approximate);
        Context x = kb.retrieve(prompt, budget, exact);
        assertTrue(a.tokensUsed() <= budget);
        assertEquals(x.complete(), a.complete(), prompt);
        agreement += jaccard(a.leafIds(), x.leafIds());
        identical += a.text().equals(x.text()) ? 1 : 0;
      }
    }
    agreement /= PROMPTS.size() * budgets.size();
    assertTrue(agreement >= 0.95, "mean Jaccard of the leaf ids " + agreement + ", identical " + identical);
  }

  /** The second hop and intentional clustering run on the candidates too, and agree with the exact path. */
  @Test
  void leversOnCandidatesAgreeWithExact() {
    double agreement = 0;
    int cases = 0;
    for (boolean clustering : new boolean[] {false, true}) {
      RetrieveOptions.Builder a = RetrieveOptions.builder().path(RetrievePath.APPROXIMATE).secondHop(2)
          .intentionalClustering(clustering);
      RetrieveOptions.Builder x = RetrieveOptions.builder().path(RetrievePath.EXACT).secondHop(2)
          .intentionalClustering(clustering);
      for (String prompt : PROMPTS) {
        Context ca = kb.retrieve(prompt, 256, a.build());
        Context cx = kb.retrieve(prompt, 256, x.build());
        assertTrue(ca.tokensUsed() <= 256);
        agreement += jaccard(ca.leafIds(), cx.leafIds());
        cases++;
      }
    }
    agreement /= cases;
    assertTrue(agreement >= 0.9, "mean Jaccard with the levers " + agreement);
  }

  /** With fewer leaves than candidates, every leaf is scored exactly: the same covers as the exact path. */
  @Test
  void smallKnowledgeBaseGivesTheExactCover() throws Exception {
    Path small = dir.resolve("small.db");
    try (SETree s = SETree.open(small, config(RetrievePath.APPROXIMATE))) {
      s.build(Corpora.synthetic(200, 3), BuildProgress.NONE);
      RetrieveOptions exact = RetrieveOptions.builder().path(RetrievePath.EXACT).build();
      RetrieveOptions exactLevers = RetrieveOptions.builder().path(RetrievePath.EXACT).secondHop(2)
          .intentionalClustering(true).build();
      RetrieveOptions levers = RetrieveOptions.builder().secondHop(2).intentionalClustering(true).build();
      for (String prompt : PROMPTS) {
        for (int budget : List.of(32, 128, 512)) {
          assertEquals(s.retrieve(prompt, budget, exact).text(), s.retrieve(prompt, budget).text(), prompt);
          assertEquals(s.retrieve(prompt, budget, exactLevers).text(), s.retrieve(prompt, budget, levers).text(),
              prompt + " with the levers");
        }
      }
    }
  }

  /** A reader loads the oracle, and so the kNN graph, only when its retrieves take the candidate path. */
  @Test
  void readerLoadsTheGraphOnlyForTheCandidatePath() {
    try (SETree reader = SETree.openReadOnly(dir.resolve("kb.db"), config(RetrievePath.APPROXIMATE))) {
      assertTrue(reader.currentSnapshot().neighbours().hasGraph());
      assertFalse(reader.retrieve("Chen visits kyoto alone", 256).leafIds().isEmpty());
    }
    try (SETree reader = SETree.openReadOnly(dir.resolve("kb.db"), config(RetrievePath.EXACT))) {
      assertTrue(reader.currentSnapshot().hierarchy().isEmpty());
    }
  }

  /** The configuration keys are checked. */
  @Test
  void badPathSettingsAreRefused() {
    var e = assertThrows(IllegalArgumentException.class, () -> RetrievePath.parse("retrieve_path", "fast"));
    assertTrue(e.getMessage().contains("auto, exact, approximate"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> SETreeConfig.builder().approximateFromLeaves(0).build());
    assertTrue(e.getMessage().contains("approximate_from_leaves"), e.getMessage());
  }

  static double jaccard(List<String> a, List<String> b) {
    Set<String> union = new HashSet<>(a);
    union.addAll(b);
    if (union.isEmpty()) {
      return 1;
    }
    Set<String> both = new HashSet<>(a);
    both.retainAll(new HashSet<>(b));
    return both.size() / (double) union.size();
  }

  static List<String> ids(List<Context.Item> items) {
    List<String> out = new ArrayList<>();
    items.forEach(i -> out.add(i.nodeId()));
    return out;
  }
}

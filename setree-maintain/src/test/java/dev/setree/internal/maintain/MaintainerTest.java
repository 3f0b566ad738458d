package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.Fact;
import dev.setree.internal.core.HierarchyState;
import dev.setree.spi.Summarizer;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.internal.core.Vectors;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Maintenance runs against the invariants a full build guarantees, on random mutation sequences. */
class MaintainerTest {
  final HashEmbedder embedder = new HashEmbedder(48);
  final SimpleTokenCounter counter = new SimpleTokenCounter();

  /** A summariser that counts its calls. */
  static final class Counting implements Summarizer {
    final AtomicInteger calls = new AtomicInteger();
    final ExtractiveSummarizer inner = new ExtractiveSummarizer();

    @Override
    public String kind() {
      return "extractive";
    }

    @Override
    public Summary summarize(Request r) {
      calls.incrementAndGet();
      return inner.summarize(r);
    }
  }

  static Mutation insert(String id, String text) {
    return new Mutation(0, Mutation.Kind.INSERT, id, text, null);
  }

  static Mutation delete(String id) {
    return new Mutation(0, Mutation.Kind.DELETE, id, null, null);
  }

  /**
   * After every run of a random sequence of 300+ inserts and deletes over a 2,000-leaf base: the patched kNN
   * graph of every level equals an exact kNN from scratch, every leaf is in the tree once, no internal node
   * is empty or single-child (but a one-leaf root), summaries are budget-monotone, each internal node's rows
   * are its leaves' centroid and its summary's embedding, and the oracle agrees with the tree.
   */
  @Test
  void randomMutationSequenceKeepsEveryInvariant() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    List<Fact> base = Corpora.synthetic(2000, seed);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(base, BuildProgress.NONE);
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    Maintainer maintainer = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Set<String> expected = new LinkedHashSet<>();
    base.forEach(f -> expected.add(f.id()));
    List<Fact> pool = Corpora.synthetic(400, seed + 1);
    int mutations = 0;
    int next = 0;
    Map<String, Integer> paths = new HashMap<>();
    while (mutations < 320) {
      List<Mutation> batch = new ArrayList<>();
      int size = 1 + r.nextInt(4);
      for (int i = 0; i < size; i++) {
        if (r.nextBoolean() && next < pool.size()) {
          Fact f = pool.get(next++);
          batch.add(insert("new-" + f.id(), f.text()));
          expected.add("new-" + f.id());
        } else {
          List<String> ids = new ArrayList<>(expected);
          String victim = ids.get(r.nextInt(ids.size()));
          batch.add(delete(victim));
          expected.remove(victim);
        }
      }
      mutations += batch.size();
      Maintainer.Result res = maintainer.run(tree, oracle, batch);
      paths.merge(res.path(), 1, Integer::sum);
      tree = res.tree();
      oracle = res.hierarchy();
      String ctx = "seed=" + seed + " after " + mutations + " mutations (" + res.path() + ")";
      checkTree(tree, expected, ctx);
      checkOracle(tree, oracle, ctx);
    }
    assertTrue(paths.getOrDefault("incremental", 0) > 0, "paths " + paths);
  }

  void checkTree(Tree t, Set<String> expectedLeaves, String ctx) {
    assertEquals(expectedLeaves.size(), t.leafCount(), ctx);
    Set<String> seen = new HashSet<>();
    for (int v = 0; v < t.leafCount(); v++) {
      assertTrue(seen.add(t.id(v)), ctx + ": leaf twice " + t.id(v));
    }
    assertEquals(expectedLeaves, seen, ctx);
    assertEquals(t.leafCount(), t.leavesUnder(t.root()), ctx + ": every leaf under the root");
    for (int v = t.leafCount(); v < t.size(); v++) {
      boolean rootWrap = v == t.root() && t.leafCount() == 1;
      assertTrue(t.childCount(v) >= 2 || rootWrap, ctx + ": " + t.id(v) + " has " + t.childCount(v) + " children");
      int childTokens = 0;
      for (int i = 0; i < t.childCount(v); i++) {
        childTokens += t.tokens(t.child(v, i));
      }
      assertTrue(t.tokens(v) <= childTokens, ctx + ": budget-monotone at " + t.id(v));
      assertEquals(counter.count(t.text(v)), t.tokens(v), ctx);
      float[] c = t.centroid(v);
      float[] expect = new float[t.dimension()];
      for (int l : t.leavesOf(v)) {
        Vectors.addScaled(expect, t.leafEmbeddings(), l * t.dimension(), t.dimension(), 1f);
      }
      Vectors.normalize(expect);
      assertTrue(Vectors.dot(c, expect) > 0.9999f, ctx + ": centroid of " + t.id(v));
      float[] summary = embedder.embed(List.of(t.text(v)))[0];
      assertTrue(Vectors.dot(t.embedding(v), summary) > 0.9999f, ctx + ": summary embedding of " + t.id(v));
      assertTrue(t.faithfulness(v) >= -100 && t.faithfulness(v) <= 100, ctx);
    }
  }

  static void checkOracle(Tree t, HierarchyState h, String ctx) {
    HierarchyState.Level l0 = h.levels().get(0);
    assertEquals(t.leafCount(), l0.size(), ctx);
    for (int i = 0; i < l0.size(); i++) {
      assertEquals(t.id(i), l0.memberIds()[i], ctx + ": oracle level 0 lists the leaves in order");
    }
    int dim = t.dimension();
    for (int lv = 0; lv < h.levels().size(); lv++) {
      HierarchyState.Level level = h.levels().get(lv);
      String lctx = ctx + " level " + lv;
      for (int i = 0; i < level.size(); i++) {
        int v = t.indexOf(level.memberIds()[i]);
        assertTrue(v >= 0, lctx + ": member " + level.memberIds()[i] + " not in the tree");
        String p = level.parentIds()[i];
        assertTrue(p.equals(level.memberIds()[i]) || (t.parent(v) >= 0 && t.id(t.parent(v)).equals(p)),
            lctx + ": parent of " + level.memberIds()[i] + " is " + p + " in the oracle, "
                + (t.parent(v) < 0 ? "none" : t.id(t.parent(v))) + " in the tree");
        assertArrayEquals(t.centroid(v), Vectors.row(level.centroids(), i, dim), lctx + ": centroid");
      }
      KnnGraph scratch = ExactKnn.allPairs(level.centroids(), level.size(), dim, BuildOptions.DEFAULTS.k());
      assertArrayEquals(scratch.offsets(), level.knnOffsets(), lctx);
      assertArrayEquals(scratch.neighbors(), level.knnNeighbors(), lctx + ": patched kNN = exact kNN");
      assertArrayEquals(scratch.weights(), level.knnWeights(), lctx);
    }
    HierarchyState.Level top = h.levels().get(h.levels().size() - 1);
    for (int i = 0; i < top.size(); i++) {
      assertEquals(t.id(t.root()), top.parentIds()[i], ctx + ": the top level's members hang under the root");
    }
  }

  /** Untouched communities keep ids and summaries; a one-leaf insert's summariser calls follow its path. */
  @Test
  void parentPreservationAndBoundedSummaries() {
    List<Fact> base = Corpora.synthetic(2000, 77);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(base, BuildProgress.NONE);
    Tree before = built.tree();
    Counting s = new Counting();
    Maintainer m = new Maintainer(embedder, counter, s, BuildOptions.DEFAULTS, 60);
    Maintainer.Result res = m.run(before, built.hierarchy(),
        List.of(insert("x1", "Anna cooks risotto every weekend (note 9001)")));
    Tree after = res.tree();
    assertEquals("incremental", res.path());
    int unchanged = 0;
    int internal = before.size() - before.leafCount();
    for (int v = before.leafCount(); v < before.size(); v++) {
      int w = after.indexOf(before.id(v));
      if (w >= 0 && after.text(w).equals(before.text(v))) {
        unchanged++;
      }
    }
    assertTrue(unchanged >= internal - 2 * (before.depth() + 1),
        unchanged + " of " + internal + " summaries kept");
    assertTrue(s.calls.get() <= 2 * (after.depth() + 1),
        "summariser calls " + s.calls.get() + " for depth " + after.depth());
    assertTrue(s.calls.get() >= 1);
    assertEquals(res.summarized(), s.calls.get());
  }

  /**
   * A summary that a run writes again as it was keeps its embedding without a model call, and every summary's
   * embedding stays the model's embedding of its text, over a sequence of one-fact runs.
   */
  @Test
  void aSummaryWrittenAgainAsItWasKeepsItsEmbeddingWithoutAModelCall() {
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(2000, 79), BuildProgress.NONE);
    AtomicInteger texts = new AtomicInteger();
    dev.setree.spi.Embedder counting = new dev.setree.testing.ForwardingEmbedder(embedder) {
      @Override
      public float[][] embed(List<String> batch) {
        texts.addAndGet(batch.size());
        return super.embed(batch);
      }
    };
    Maintainer m = new Maintainer(counting, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    List<Fact> pool = Corpora.synthetic(30, 80);
    int summarized = 0;
    int summariesEmbedded = 0;
    for (int i = 0; i < pool.size(); i++) {
      int before = texts.get();
      Maintainer.Result r = m.run(tree, oracle, List.of(insert("n" + i, pool.get(i).text())));
      tree = r.tree();
      oracle = r.hierarchy();
      summarized += r.summarized();
      summariesEmbedded += texts.get() - before - 1; // the new fact's own embedding is one text
    }
    assertTrue(summarized > 0);
    assertTrue(summariesEmbedded < summarized, summariesEmbedded + " summaries embedded of " + summarized + " written");
    for (int v = tree.leafCount(); v < tree.size(); v++) {
      assertArrayEquals(embedder.embed(List.of(tree.text(v)))[0], tree.embedding(v), "the embedding of " + tree.id(v));
    }
  }

  /**
   * The faithfulness pass re-summarises a node whose children are unchanged only when its faithfulness fell
   * (below the threshold and below what it was): with the threshold at 100 nearly every node is below it,
   * and nodes whose faithfulness held keep their summary. Which nodes were summarised is told by the
   * requests' children.
   */
  @Test
  void faithfulnessPassRewritesOnlyWhatFell() {
    List<Fact> base = Corpora.synthetic(2000, 78);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(base, BuildProgress.NONE);
    Set<Set<String>> requested = java.util.concurrent.ConcurrentHashMap.newKeySet();
    ExtractiveSummarizer extractive = new ExtractiveSummarizer();
    Summarizer recording = new Summarizer() {
      @Override
      public String kind() {
        return "extractive";
      }

      @Override
      public Summary summarize(Request r) {
        Set<String> children = new HashSet<>();
        r.children().forEach(c -> children.add(c.id()));
        requested.add(children);
        return extractive.summarize(r);
      }
    };
    Maintainer m = new Maintainer(embedder, counter, recording, BuildOptions.DEFAULTS, 100);
    Tree before = built.tree();
    HierarchyState oracle = built.hierarchy();
    int held = 0;
    int fell = 0;
    for (int run = 0; run < 12; run++) {
      requested.clear();
      Maintainer.Result r = m.run(before, oracle, List.of(insert("shed" + run, "Anna repaints the shed, note " + run)));
      assertEquals(1, r.inserted());
      Tree after = r.tree();
      for (int w = after.leafCount(); w < after.size(); w++) {
        int v = before.indexOf(after.id(w));
        if (v < 0 || !childIds(before, v).equals(childIds(after, w))
            || java.util.Arrays.equals(before.centroid(v), after.centroid(w))) {
          continue; // new, re-formed, or not moved: not the faithfulness pass's business
        }
        float cos = Vectors.dot(before.embedding(v), after.centroid(w));
        int now = Math.round(100f * Math.max(-1f, Math.min(1f, cos)));
        String ctx = "run " + run + " node " + after.id(w) + " from " + before.faithfulness(v) + " to " + now;
        boolean summarised = requested.contains(childIds(after, w));
        assertEquals(now < before.faithfulness(v), summarised, ctx);
        if (summarised) {
          fell++;
        } else {
          assertEquals(before.text(v), after.text(w), ctx);
          assertEquals(now, after.faithfulness(w), ctx + ": faithfulness recomputed");
          held++;
        }
      }
      before = after;
      oracle = r.hierarchy();
    }
    assertTrue(held > 0 && fell > 0, held + " held, " + fell + " fell");
  }

  private static Set<String> childIds(Tree t, int v) {
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < t.childCount(v); i++) {
      ids.add(t.id(t.child(v, i)));
    }
    return ids;
  }

  /** Growing from empty: one leaf under a root, then two, then many; shrinking back to one and zero. */
  @Test
  void growFromEmptyAndShrinkToEmpty() {
    Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Tree t = Tree.empty(48);
    HierarchyState h = HierarchyState.empty();
    Maintainer.Result r = m.run(t, h, List.of(insert("a", "the user works on SETree")));
    assertEquals("single", r.path());
    assertEquals(1, r.tree().leafCount());
    assertEquals(2, r.tree().size());
    assertEquals(1, r.tree().childCount(r.tree().root()));
    r = m.run(r.tree(), r.hierarchy(), List.of(insert("b", "the user writes Java 17")));
    assertEquals(2, r.tree().leafCount());
    checkOracle(r.tree(), r.hierarchy(), "two leaves");
    List<Mutation> many = new ArrayList<>();
    for (Fact f : Corpora.synthetic(60, 5)) {
      many.add(insert(f.id(), f.text()));
    }
    r = m.run(r.tree(), r.hierarchy(), many);
    assertEquals(62, r.tree().leafCount());
    checkOracle(r.tree(), r.hierarchy(), "62 leaves");
    List<Mutation> dels = new ArrayList<>();
    for (int v = 0; v < r.tree().leafCount() - 1; v++) {
      dels.add(delete(r.tree().id(v)));
    }
    String survivor = r.tree().id(r.tree().leafCount() - 1);
    r = m.run(r.tree(), r.hierarchy(), dels);
    assertEquals("single", r.path());
    assertEquals(survivor, r.tree().id(0));
    r = m.run(r.tree(), r.hierarchy(), List.of(delete(survivor)));
    assertEquals("empty", r.path());
    assertTrue(r.tree().isEmpty());
  }

  /**
   * A run over a tree prepared ahead ({@link Maintainer#prepare}, what the writer does in the quiet window)
   * continues from the prepared draft and gives the tree and oracle of a run that copies the tree itself;
   * a draft prepared for another tree is not used.
   */
  @Test
  void preparedDraftGivesWhatACopyGives() {
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(600, 5), BuildProgress.NONE);
    List<Mutation> batch = List.of(insert("p1", "Anna plants tulips by the gate"), delete("f3"));
    Maintainer copying = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Maintainer.Result expected = copying.run(built.tree(), built.hierarchy(), batch);
    // The prepared draft also gets the integer mirrors of the oracle's exact levels, which its run follows.
    Maintainer prepared = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60)
        .integerRowsFrom(0);
    prepared.prepare(built.tree(), built.hierarchy(), () -> false);
    prepared.prepare(built.tree(), built.hierarchy(), () -> true); // a second call keeps its draft, copies nothing
    Maintainer.Result actual = prepared.run(built.tree(), built.hierarchy(), batch);
    assertEquals(1, prepared.draftsReused());
    assertEquals(expected.summarized(), actual.summarized());
    dev.setree.testing.TreeAssert.assertSameTree(expected.tree(), actual.tree());
    dev.setree.testing.TreeAssert.assertSameHierarchy(expected.hierarchy(), actual.hierarchy());
    Maintainer elsewhere = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    elsewhere.prepare(expected.tree(), expected.hierarchy(), () -> false);
    Maintainer.Result other = elsewhere.run(built.tree(), built.hierarchy(), batch);
    assertEquals(0, elsewhere.draftsReused());
    dev.setree.testing.TreeAssert.assertSameTree(expected.tree(), other.tree());
  }

  /**
   * On the real model and Leiden: a maintainer whose first draft was prepared on open (internal rows written,
   * records of the levels above the leaves, the summary pass's rules settled, the oracle checked) makes, run after
   * run, the very trees and oracles of maintainers that copy each tree into a new draft.
   */
  @Test
  void preparedDraftGivesWhatACopyGivesOnTheRealModel() {
    try (dev.setree.internal.embed.MiniLmEmbedder minilm = dev.setree.internal.embed.MiniLmEmbedder.load()) {
      List<Fact> facts = Corpora.personal();
      BuildResult built = new TreeBuilder(minilm, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
          .build(facts.subList(0, facts.size() - 6), BuildProgress.NONE);
      Maintainer prepared = new Maintainer(minilm, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
      prepared.prepare(built.tree(), built.hierarchy(), () -> false);
      Tree tree = built.tree();
      HierarchyState oracle = built.hierarchy();
      for (int round = 0; round < 3; round++) {
        Fact f = facts.get(facts.size() - 6 + round);
        List<Mutation> batch = List.of(insert(f.id(), f.text()), delete(facts.get(3 * round + 1).id()));
        Maintainer copying = new Maintainer(minilm, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
        Maintainer.Result expected = copying.run(tree, oracle, batch);
        Maintainer.Result actual = prepared.run(tree, oracle, batch);
        assertEquals("incremental", actual.path(), "round " + round);
        assertEquals(expected.summarized(), actual.summarized(), "round " + round);
        dev.setree.testing.TreeAssert.assertSameTree(expected.tree(), actual.tree());
        dev.setree.testing.TreeAssert.assertSameHierarchy(expected.hierarchy(), actual.hierarchy());
        tree = actual.tree();
        oracle = actual.hierarchy();
      }
      assertEquals(3, prepared.draftsReused(), "the first run continued from the prepared draft");
    }
  }

  /**
   * A copy given up (its writer closing) keeps nothing, not even part of a draft: the next run copies the tree
   * itself, and gives the result of a run that was never prepared.
   */
  @Test
  void aCopyGivenUpKeepsNothing() {
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(600, 5), BuildProgress.NONE);
    List<Mutation> batch = List.of(insert("p1", "Anna plants tulips by the gate"));
    Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    assertThrows(CancellationException.class,
        () -> m.prepare(built.tree(), built.hierarchy(), () -> true));
    Maintainer.Result after = m.run(built.tree(), built.hierarchy(), batch);
    assertEquals(0, m.draftsReused());
    Maintainer fresh = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    dev.setree.testing.TreeAssert.assertSameTree(fresh.run(built.tree(), built.hierarchy(), batch).tree(),
        after.tree());
  }

  /** Duplicate inserts and unknown deletes are skipped; insert-then-delete cancels out. */
  @Test
  void mutationSemantics() {
    Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    BuildResult b = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(50, 1), BuildProgress.NONE);
    Maintainer.Result r = m.run(b.tree(), b.hierarchy(), List.of(insert("f1", "dup id"), delete("nope"),
        insert("z", "temporary"), delete("z")));
    assertEquals("unchanged", r.path());
    assertEquals(2, r.skipped());
    assertTrue(r.tree() == b.tree());
  }

  /**
   * A maintainer that continues each run from its previous run's draft produces, over a random sequence of
   * insert and delete batches, the very trees and oracles of maintainers that copy each tree into a new draft;
   * it also scans its exact levels in integers first ({@link IntegerRows}), the copies in floats, and its passes read
   * the nodes its runs touched ({@link Touched}), the copies' look at every node.
   */
  @Test
  void keptDraftGivesWhatANewDraftGives() {
    keptDraftGivesWhatANewDraftGives(Long.getLong("tests.seed", System.nanoTime()));
  }

  /** A sequence where a kept draft ordered a run's new members by creation, not by the tree's order. */
  @Test
  void keptDraftOrdersNewMembersAsTheTreeDoes() {
    keptDraftGivesWhatANewDraftGives(30897644105776L);
  }

  /**
   * The same, with the continuing maintainer's first draft prepared ahead ({@link Maintainer#prepare}, on open): its
   * first run reads only the rows it changes (RecordedRows#of) and looks at its changed nodes only
   * (SummaryRules#settle).
   */
  @Test
  void preparedDraftGivesWhatANewDraftGivesRunAfterRun() {
    keptDraftGivesWhatANewDraftGives(Long.getLong("tests.seed", System.nanoTime()), true);
  }

  private void keptDraftGivesWhatANewDraftGives(long seed) {
    keptDraftGivesWhatANewDraftGives(seed, false);
  }

  private void keptDraftGivesWhatANewDraftGives(long seed, boolean prepared) {
    Random r = new Random(seed);
    List<Fact> base = Corpora.synthetic(1500, seed);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(base, BuildProgress.NONE);
    // The continuing one also scans every exact level above the leaves in integers first, its mirrors followed
    // from run to run (IntegerRows); the copies scan in floats.
    Maintainer continuing = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60)
        .integerRowsFrom(0);
    // Its nodes keep their leaves' parts from pass to pass (LeavesUnder), each node or those of 64 leaves or more;
    // every gathering is checked against a walk of the subtree under assertions. The copies keep the default's.
    continuing.kept.keepPartsFrom(prepared ? 64 : 1);
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    if (prepared) {
      continuing.prepare(tree, oracle, () -> false);
    }
    List<String> present = new ArrayList<>();
    base.forEach(f -> present.add(f.id()));
    List<Fact> pool = Corpora.synthetic(300, seed + 1);
    int next = 0;
    int changed = 0;
    List<Tree> trees = new ArrayList<>();
    List<float[][]> rowsSeen = new ArrayList<>();
    int keptRows = 0;
    for (int round = 0; round < 30; round++) {
      List<Mutation> batch = new ArrayList<>();
      for (int x = 1 + r.nextInt(3); x > 0; x--) {
        if (r.nextInt(3) == 0 && present.size() > 2) {
          batch.add(delete(present.remove(r.nextInt(present.size()))));
        } else {
          Fact f = pool.get(next++);
          batch.add(insert("new" + round + "-" + x, f.text()));
          present.add("new" + round + "-" + x);
        }
      }
      Maintainer copying = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
      copying.kept.everyNode();
      Maintainer.Result expected = copying.run(tree, oracle, batch);
      Maintainer.Result actual = continuing.run(tree, oracle, batch);
      String ctx = "seed=" + seed + " round " + round;
      assertEquals(expected.path(), actual.path(), ctx);
      assertEquals(expected.summarized(), actual.summarized(), ctx);
      if (!actual.path().equals("unchanged")) { // a batch whose inserts its deletes cancel takes no draft
        changed++;
      }
      try {
        dev.setree.testing.TreeAssert.assertSameTree(expected.tree(), actual.tree());
        dev.setree.testing.TreeAssert.assertSameHierarchy(expected.hierarchy(), actual.hierarchy());
      } catch (AssertionError e) {
        throw new AssertionError(ctx + ": " + e.getMessage(), e);
      }
      keptRows += sharedRows(tree, actual.tree());
      tree = actual.tree();
      oracle = actual.hierarchy();
      trees.add(tree);
      rowsSeen.add(new float[][] {tree.internalRows().denseEmbeddings(), tree.internalRows().denseCentroids()});
    }
    assertEquals(prepared ? changed : changed - 1, continuing.draftsReused(),
        "seed=" + seed + ": every run after the first continues" + (prepared ? ", and the first too" : ""));
    assertTrue(keptRows > 0, "seed=" + seed + ": the kept draft's trees share rows (ADR 0036)");
    for (int t = 0; t < trees.size(); t++) { // later runs appended to the arrays their trees share
      String ctx = "seed=" + seed + " tree " + t;
      assertArrayEquals(rowsSeen.get(t)[0], trees.get(t).internalRows().denseEmbeddings(), ctx);
      assertArrayEquals(rowsSeen.get(t)[1], trees.get(t).internalRows().denseCentroids(), ctx);
    }
  }

  /** How many internal nodes of {@code after} read the same row as in {@code before}. */
  private static int sharedRows(Tree before, Tree after) {
    int shared = 0;
    for (int v = after.leafCount(); v < after.size(); v++) {
      int old = before.indexOf(after.id(v));
      if (old >= before.leafCount()
          && after.internalRows().sameRow(v - after.leafCount(), before.internalRows(), old - before.leafCount())) {
        shared++;
      }
    }
    return shared;
  }
}

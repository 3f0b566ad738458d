package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.Tree;
import dev.setree.internal.embed.MiniLmEmbedder;
import dev.setree.spi.Embedder;
import dev.setree.spi.Fact;
import dev.setree.spi.Passage;
import dev.setree.testing.Corpora;
import dev.setree.testing.ForwardingEmbedder;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.TreeAssert;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The summary pass over a draft it passed through before looks at the changed nodes only, and writes what a pass
 * over every node of a new copy writes.
 */
class SummaryPassTest {
  final HashEmbedder embedder = new HashEmbedder(48);
  final SimpleTokenCounter counter = new SimpleTokenCounter();
  /** Caps far apart, so that a node's depth decides whether its summary fits. */
  final BuildOptions options = new BuildOptions(10, 8, 42L, 1, 60, 12);

  Tree built() {
    List<Fact> facts = Corpora.synthetic(900, 11);
    return new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), options).build(facts, BuildProgress.NONE)
        .tree();
  }

  SummaryPass pass() {
    return new SummaryPass(embedder, counter, new ExtractiveSummarizer(), options);
  }

  /**
   * Applies {@code change} to a copy of {@code tree} that a pass went through first, to a copy settled instead
   * ({@link SummaryRules#settle}, what a writer does on open), and to a new copy; runs the pass over the three, and
   * checks that they freeze to the same tree. Returns the passes' results: the first copy's, the new copy's, and
   * the settled copy's.
   */
  SummaryPass.Result[] sameAsAFullPass(Tree tree, Consumer<DraftTree> change) {
    DraftTree passedBefore = DraftTree.of(tree);
    SummaryPass.Result first = pass().run(passedBefore, 60, BuildProgress.NONE);
    assertEquals(passedBefore.internal.size(), first.examined(), "a new copy's pass looks at every node");
    assertEquals(0, first.summarized(), "the built tree needs no summary");
    DraftTree settled = DraftTree.of(tree);
    assertTrue(SummaryRules.of(options, 60).settle(settled), "no node of the built tree needs a summary");
    assertTrue(SummaryRules.of(options, 60).settle(settled), "settled already");
    assertFalse(SummaryRules.of(options, 59).settle(settled), "settled under other rules");
    DraftTree fresh = DraftTree.of(tree);
    change.accept(passedBefore);
    change.accept(settled);
    change.accept(fresh);
    SummaryPass.Result dirty = pass().run(passedBefore, 60, BuildProgress.NONE);
    SummaryPass.Result fromSettled = pass().run(settled, 60, BuildProgress.NONE);
    SummaryPass.Result full = pass().run(fresh, 60, BuildProgress.NONE);
    assertEquals(fresh.internal.size(), full.examined());
    assertEquals(full.summarized(), dirty.summarized());
    assertEquals(full.summarized(), fromSettled.summarized());
    assertEquals(dirty.examined(), fromSettled.examined(), "a settled copy is looked at as one a pass went through");
    Tree expected = fresh.toTree();
    TreeAssert.assertSameTree(expected, passedBefore.toTree());
    TreeAssert.assertSameTree(expected, settled.toTree());
    return new SummaryPass.Result[] {dirty, full, fromSettled};
  }

  /**
   * A copy with a node that needs a summary (here: it has no text) is not settled, so its first pass looks at every
   * node and writes that summary; nor is a copy settled under other rules than its pass's.
   */
  @Test
  void aCopyThatNeedsASummaryIsNotSettled() {
    Tree tree = built();
    DraftTree d = DraftTree.of(tree);
    d.internal.get(d.internal.size() / 2).text = null;
    assertFalse(SummaryRules.of(options, 60).settle(d));
    SummaryPass.Result r = pass().run(d, 60, BuildProgress.NONE);
    assertEquals(d.internal.size(), r.examined());
    assertTrue(r.summarized() >= 1);
    DraftTree other = DraftTree.of(tree);
    assertTrue(SummaryRules.of(options, 70).settle(other));
    assertEquals(other.internal.size(), pass().run(other, 60, BuildProgress.NONE).examined(),
        "settled under another faithfulness threshold, the pass looks at every node");
  }

  @Test
  void aNewLeafIsLookedAtOnItsPathOnly() {
    Tree tree = built();
    float[] e = embedder.embed(List.of("a new fact about the harbour and its ships"))[0];
    SummaryPass.Result[] r = sameAsAFullPass(tree, d -> {
      DraftNode leaf = d.addLeaf("new", "a new fact about the harbour and its ships", null, e, 9);
      DraftNode parent = d.leaves.get(0).parent;
      DraftTree.attach(leaf, parent);
      parent.structural = true;
      d.recomputeSums();
    });
    assertTrue(r[0].summarized() >= 1, "the new leaf's parent is summarised again");
    assertTrue(r[0].examined() < r[1].examined() / 4,
        "looked at " + r[0].examined() + " of " + r[1].examined() + " internal nodes");
  }

  @Test
  void aNodeThatSinksBelowDepthOneGetsTheLowerCap() {
    Tree tree = built();
    int tooLong = 0;
    int root = tree.root();
    for (int i = 0; i < tree.childCount(root); i++) {
      int c = tree.child(root, i);
      if (!tree.isLeaf(c) && tree.tokens(c) > options.summaryTokens()) {
        tooLong++;
      }
    }
    assertTrue(tooLong > 0, "a child of the root has a summary longer than the cap below depth 1");
    // A new root above the old one: the old root's children sink to depth 2, where their summaries break the cap.
    SummaryPass.Result[] r = sameAsAFullPass(tree, d -> {
      DraftNode old = d.root();
      DraftNode top = d.addInternal("top", old.level + 1);
      DraftTree.attach(old, top);
      d.recomputeSums();
    });
    assertTrue(r[0].summarized() >= 1 + tooLong, "summarised " + r[0].summarized() + ", expected the new root and "
        + tooLong + " sunk nodes");
  }

  @Test
  void aSummaryThatIsAChildsOrAQuotedLeafsTextTakesItsEmbeddingWithoutTheModel() {
    everySummaryWrittenAgain(embedder, Corpora.synthetic(900, 11), 0f);
  }

  /**
   * Leaves copied from a tree keep reading their rows of the tree's leaf rows through a pass that summarises every
   * node, and the summaries are those written when every leaf has an array of its own (as a pass made them before):
   * the root's 8,000 leaves are read in the order of their rows ({@link LeafPassages#dots}).
   */
  @Test
  void theLeavesKeepReadingTheirRowsAndTheSummariesAreTheSame() {
    Tree tree = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(8000, 7), BuildProgress.NONE).tree();
    DraftTree rows = DraftTree.of(tree);
    DraftTree arrays = DraftTree.of(tree);
    for (DraftNode l : arrays.leaves) {
      l.embedding(); // an array of its own, as every leaf under a summarised node got one before
    }
    for (DraftTree d : List.of(rows, arrays)) {
      for (DraftNode v : d.internal) {
        v.text = null;
      }
    }
    List<DraftNode> under = SummaryPass.leavesUnder(rows.root(), new ArrayList<>());
    assertTrue(under.size() >= 8000);
    List<Passage> passages = new ArrayList<>();
    for (DraftNode l : under) {
      passages.add(new Passage(l.id, l.text, l.embeddingCopy()));
    }
    float[] centroid = rows.root().centroid();
    List<Integer> expected = new ArrayList<>();
    MaximalMarginalRelevance.order(passages, centroid, 40, ExtractiveSummarizer.REDUNDANCY).forEach(expected::add);
    List<Integer> read = new ArrayList<>();
    MaximalMarginalRelevance.order(new LeafPassages(under), centroid, 40, ExtractiveSummarizer.REDUNDANCY)
        .forEach(read::add);
    assertEquals(expected, read, "the root's leaves in MMR order, from passages and from the rows");
    SummaryPass.Result a = pass(BuildOptions.DEFAULTS).run(rows, 60, BuildProgress.NONE);
    SummaryPass.Result b = pass(BuildOptions.DEFAULTS).run(arrays, 60, BuildProgress.NONE);
    assertEquals(rows.internal.size(), a.summarized());
    assertEquals(b, a);
    for (DraftNode l : rows.leaves) {
      assertTrue(l.rowOffset() >= 0, "leaf " + l.id + " was given an array of its own");
    }
    TreeAssert.assertSameTree(arrays.toTree(), rows.toTree());
  }

  /**
   * Each level says something new: a node's summary quotes no leaf that a summary below it quotes, unless every
   * leaf under it is quoted below (then all are offered). Checked against sets made here, node by node.
   */
  @Test
  void aSummaryQuotesNoLeafThatASummaryBelowItQuotes() {
    DraftTree d = DraftTree.of(built());
    for (DraftNode v : d.internal) {
      v.text = null;
    }
    pass().run(d, 60, BuildProgress.NONE);
    int checked = 0;
    int withSources = 0;
    for (DraftNode v : d.internal) {
      Set<DraftNode> below = new HashSet<>();
      List<DraftNode> stack = new ArrayList<>(v.children);
      while (!stack.isEmpty()) {
        DraftNode x = stack.remove(stack.size() - 1);
        if (!x.leaf) {
          below.addAll(x.sources);
          stack.addAll(x.children);
        }
      }
      if (below.isEmpty() || below.containsAll(SummaryPass.leavesUnder(v, new ArrayList<>()))) {
        continue;
      }
      checked++;
      withSources += v.sources.isEmpty() ? 0 : 1;
      for (DraftNode s : v.sources) {
        assertFalse(below.contains(s), "node " + v.id + " quotes leaf " + s.id + ", quoted below it already");
      }
    }
    assertTrue(checked >= 10 && withSources >= 10, "nodes above quoting summaries: " + checked + ", " + withSources);
  }

  /**
   * A maintenance pass (over a draft a pass went through) asks the model once, after its last wave, for every new
   * summary text; a node whose new summary is its child's new one gets the same vector and counts as reused, as in
   * a pass that embeds each wave before the next (a new copy's pass); the two trees are the same.
   */
  @Test
  void aMaintenancePassEmbedsItsNewSummariesInOneCall() {
    BuildOptions defaults = BuildOptions.DEFAULTS;
    Tree tree = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), defaults)
        .build(Corpora.synthetic(900, 11), BuildProgress.NONE).tree();
    DraftTree passed = DraftTree.of(tree);
    pass(defaults).run(passed, 60, BuildProgress.NONE);
    DraftTree fresh = DraftTree.of(tree);
    for (DraftTree d : List.of(passed, fresh)) {
      for (DraftNode v : d.internal) {
        v.text = null; // every summary written again
      }
    }
    List<List<String>> calls = new ArrayList<>();
    Embedder counting = recording(embedder, calls);
    SummaryPass.Result dirty = new SummaryPass(counting, counter, new ExtractiveSummarizer(), defaults)
        .run(passed, 60, BuildProgress.NONE);
    SummaryPass.Result full = pass(defaults).run(fresh, 60, BuildProgress.NONE);
    assertEquals(1, calls.size(), "one call to the model, of " + calls);
    assertEquals(full.summarized(), dirty.summarized());
    assertTrue(dirty.embeddingsReused() > 0, "no summary took its child's new text: " + dirty);
    assertEquals(full.embeddingsReused(), dirty.embeddingsReused());
    assertEquals(dirty.summarized() - dirty.textsKept() - dirty.embeddingsReused(), calls.get(0).size(),
        "each new text once, those reused not at all");
    TreeAssert.assertSameTree(fresh.toTree(), passed.toTree());
  }

  /**
   * A maintenance pass that hands a wave's larger summaries to its pool asks the model, meanwhile, for the texts
   * waiting so far, and for the rest after its last wave: more calls, each text once, and the tree of a pass that
   * writes every summary inline and asks once, bit for bit (which nodes take which vectors does not depend on when the
   * model was asked).
   */
  @Test
  void aMaintenancePassWaitingForItsPoolEmbedsTheTextsWaitingMeanwhile() {
    BuildOptions defaults = BuildOptions.DEFAULTS;
    Tree tree = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), defaults)
        .build(Corpora.synthetic(900, 11), BuildProgress.NONE).tree();
    List<List<List<String>>> calls = new ArrayList<>();
    List<DraftTree> drafts = new ArrayList<>();
    List<SummaryPass.Result> results = new ArrayList<>();
    for (int inlineBelow : new int[] {SummaryPass.INLINE_BELOW, 10}) {
      DraftTree d = DraftTree.of(tree);
      pass(defaults).run(d, 60, BuildProgress.NONE);
      for (DraftNode v : d.internal) {
        v.text = null; // every summary written again
      }
      List<List<String>> asked = new ArrayList<>();
      Embedder counting = recording(embedder, asked);
      results.add(new SummaryPass(counting, counter, new ExtractiveSummarizer(), defaults, inlineBelow)
          .run(d, 60, BuildProgress.NONE));
      calls.add(asked);
      drafts.add(d);
    }
    assertEquals(1, calls.get(0).size(), "every summary inline: one call");
    assertTrue(calls.get(1).size() >= 2, "a call while a wave with pooled summaries waits, and one at the end: "
        + calls.get(1).size());
    List<String> once = calls.get(1).stream().flatMap(List::stream).toList();
    assertEquals(once.size(), new HashSet<>(once).size(), "each text once");
    assertEquals(new HashSet<>(calls.get(0).get(0)), new HashSet<>(once), "the same texts");
    assertEquals(results.get(0), results.get(1));
    TreeAssert.assertSameTree(drafts.get(0).toTree(), drafts.get(1).toTree());
  }

  /**
   * A node whose new text is its child's new text, waiting for its embedding, joins it: one text for the model, the
   * same vector for both in arrays of their own, counted as reused (a pass embedding wave by wave would have copied
   * the child's); a node whose new text is an unrelated node's joins it too, without counting when it is in the same
   * wave, counted when in a later one (that pass would have found the text among the recent embeddings). The text's
   * embedding is kept among them.
   */
  @Test
  void aNodeWhoseNewTextIsItsChildsWaitingOneJoinsIt() {
    DraftTree d = DraftTree.of(built());
    DraftNode parent = d.internal.stream().filter(v -> v.children.stream().anyMatch(c -> !c.leaf)).findFirst()
        .orElseThrow();
    DraftNode child = parent.children.stream().filter(c -> !c.leaf).findFirst().orElseThrow();
    DraftNode other = d.internal.stream().filter(v -> v != parent && v != child).findFirst().orElseThrow();
    DraftNode later = d.internal.stream().filter(v -> v != parent && v != child && v != other).findFirst()
        .orElseThrow();
    RecentEmbeddings recent = new RecentEmbeddings(8);
    DeferredEmbeddings deferred = new DeferredEmbeddings(recent);
    String text = "the harbour master counts the ships";
    for (DraftNode v : List.of(child, parent, other, later)) {
      v.text = text; // as the pass sets a node's new text before its embedding
    }
    deferred.nextWave();
    assertFalse(deferred.join(text, child, List.of()), "nothing waits yet");
    deferred.add(text, child);
    assertTrue(deferred.join(text, parent, List.of()));
    assertTrue(deferred.join(text, other, List.of()));
    deferred.nextWave();
    assertTrue(deferred.join(text, later, List.of()));
    List<List<String>> calls = new ArrayList<>();
    Embedder counting = recording(embedder, calls);
    parent.structural = true;
    assertEquals(2, deferred.embed(counting), "the parent's and the later node's are reused, the other's is not");
    assertEquals(List.of(List.of(text)), calls);
    float[] expected = embedder.embed(List.of(text))[0];
    for (DraftNode v : List.of(child, parent, other, later)) {
      assertArrayEquals(expected, v.embedding, 0f, v.id);
      assertFalse(v.structural, v.id + " is marked summarised");
    }
    assertTrue(child.embedding != parent.embedding && parent.embedding != other.embedding, "arrays of their own");
    assertArrayEquals(expected, recent.get(text), 0f, "kept for later passes");
    assertTrue(recent.get(text) != recent.get(text), "a copy each time");
  }

  /** {@code model}, recording the texts of each call in {@code calls}. */
  static Embedder recording(Embedder model, List<List<String>> calls) {
    return new ForwardingEmbedder(model) {
      @Override
      public float[][] embed(List<String> texts) {
        calls.add(List.copyOf(texts));
        return delegate.embed(texts);
      }
    };
  }

  /** How many texts the recorded calls asked for. */
  static int texts(List<List<String>> calls) {
    return calls.stream().mapToInt(List::size).sum();
  }

  SummaryPass pass(BuildOptions o) {
    return new SummaryPass(embedder, counter, new ExtractiveSummarizer(), o);
  }

  /** The same on the real model (its embedding of a text does not depend on the batch the text is in). */
  @Test
  void aReusedEmbeddingIsTheRealModelsOfTheSummary() {
    try (MiniLmEmbedder minilm = MiniLmEmbedder.load()) {
      everySummaryWrittenAgain(minilm, Corpora.personal(), 1e-6f);
    }
  }

  /**
   * Builds a tree of {@code facts} under the shipped caps (short facts fit a summary whole), writes every summary
   * again, and checks that the model was asked once per summary it had not embedded, and that every internal
   * node's embedding is the model's of its own text.
   */
  void everySummaryWrittenAgain(Embedder model, List<Fact> facts, float delta) {
    List<List<String>> asked = new ArrayList<>();
    Embedder counting = recording(model, asked);
    BuildOptions defaults = BuildOptions.DEFAULTS;
    Tree tree = new TreeBuilder(model, counter, new ExtractiveSummarizer(), defaults)
        .build(facts, BuildProgress.NONE).tree();
    DraftTree fresh = DraftTree.of(tree);
    for (DraftNode v : fresh.internal) {
      v.text = null; // every summary written again, none kept as it was
    }
    SummaryPass.Result r = new SummaryPass(counting, counter, new ExtractiveSummarizer(), defaults)
        .run(fresh, 60, BuildProgress.NONE);
    assertEquals(fresh.internal.size(), r.summarized());
    assertTrue(r.embeddingsReused() > 0, "no summary reused an embedding: " + r);
    assertEquals(r.summarized() - r.textsKept() - r.embeddingsReused(), texts(asked),
        "the model is asked once for each summary text it has not embedded yet");
    Tree after = fresh.toTree();
    everyEmbeddingIsTheModels(model, after, delta);
    // Written again once more: every text is one the model was asked for already.
    int before = texts(asked);
    for (DraftNode v : fresh.internal) {
      v.text = null;
    }
    SummaryPass.Result again = new SummaryPass(counting, counter, new ExtractiveSummarizer(), defaults)
        .run(fresh, 60, BuildProgress.NONE);
    assertEquals(before, texts(asked), "no text asked for twice");
    assertEquals(again.summarized() - again.textsKept(), again.embeddingsReused());
    TreeAssert.assertSameTree(after, fresh.toTree());
    everyEmbeddingIsTheModels(model, fresh.toTree(), delta);
  }

  void everyEmbeddingIsTheModels(Embedder model, Tree tree, float delta) {
    int internal = 0;
    for (int v = 0; v < tree.size(); v++) {
      if (!tree.isLeaf(v)) {
        internal++;
        assertArrayEquals(model.embed(List.of(tree.text(v)))[0], tree.embedding(v), delta,
            "node " + tree.id(v) + "'s embedding is the model's of its own text");
      }
    }
    assertTrue(internal > 10, "internal nodes: " + internal);
  }

  /**
   * A pass asks the model for no summary text an earlier pass through the draft asked it for: it takes the kept
   * embedding, the model's bit for bit; a pass with a model of another id asks again.
   */
  @Test
  void aPassAsksTheModelForNoTextAnEarlierPassThroughTheDraftAskedFor() {
    DraftTree d = DraftTree.of(built());
    pass().run(d, 60, BuildProgress.NONE);
    List<List<String>> calls = new ArrayList<>();
    Embedder counting = recording(embedder, calls);
    Embedder another = new ForwardingEmbedder(counting) {
      @Override
      public String modelId() {
        return "another model";
      }
    };
    List<Tree> trees = new ArrayList<>();
    List<Integer> counts = new ArrayList<>();
    for (Embedder e : List.of(counting, counting, another)) {
      for (DraftNode v : d.internal) {
        v.text = null;
      }
      int before = texts(calls);
      SummaryPass.Result r = new SummaryPass(e, counter, new ExtractiveSummarizer(), options)
          .run(d, 60, BuildProgress.NONE);
      counts.add(texts(calls) - before);
      assertEquals(r.summarized() - r.textsKept() - r.embeddingsReused(), texts(calls) - before, "pass " + counts);
      trees.add(d.toTree());
    }
    assertTrue(counts.get(0) > 3, "texts asked for: " + counts);
    assertEquals(0, counts.get(1), "none asked for twice");
    assertEquals(counts.get(0), counts.get(2), "another model: asked again");
    TreeAssert.assertSameTree(trees.get(0), trees.get(1));
    TreeAssert.assertSameTree(trees.get(0), trees.get(2));
  }
}

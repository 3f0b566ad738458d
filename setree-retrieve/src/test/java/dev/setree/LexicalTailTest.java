package dev.setree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.Tree;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A BM25 index version whose newest leaves are a tail (kept out of its reader, scored from the forward index)
 * scores every leaf as an index built afresh over the same leaves: the statistics count the tail, the top hits
 * merge it, and a removal, a changed text or a tail grown past {@link LexicalIndex#TAIL_LIMIT} opens a reader
 * that shows every leaf.
 */
class LexicalTailTest {
  /** Common words, a stop word many leaves hold, and words only later leaves bring. */
  private static final String[] OLD = {"alpha", "beta", "gamma", "war", "peace", "tax", "we"};
  private static final String[] NEW = {"zeta", "kyoto", "maps"};
  private static final String[] PROMPTS = {"alpha war", "zeta", "kyoto maps alpha", "we tax", "peace and we",
      "beta gamma zeta kyoto"};

  @Test
  void aTailScoresAsAnIndexBuiltAfresh() throws java.io.IOException {
    aTailScoresAsAnIndexBuiltAfresh(150);
  }

  /** A reader whose only leaf has no term: Lucene has no statistics for the field, the tail has them all. */
  @Test
  void aTailOverAReaderWithoutTermsScoresAsAnIndexBuiltAfresh() throws java.io.IOException {
    aTailScoresAsAnIndexBuiltAfresh(0);
  }

  private void aTailScoresAsAnIndexBuiltAfresh(int base) throws java.io.IOException {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    List<String> ids = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < Math.max(1, base); i++) {
      ids.add("l" + i);
      texts.add(base == 0 ? "" : text(r, false));
    }
    Tree tree = SnapshotNextTest.tree(ids, texts);
    LexicalIndex index = LexicalIndex.of(tree);
    int longestTail = 0;
    int folds = 0;
    for (int run = 0; run < 160; run++) {
      List<Integer> added = new ArrayList<>();
      for (int x = r.nextInt(3); x >= 0; x--) { // one to three leaves; now and then an empty text (no term)
        added.add(ids.size());
        ids.add("l" + ids.size());
        texts.add(r.nextInt(20) == 0 ? "" : text(r, true));
      }
      Tree next = SnapshotNextTest.tree(ids, texts);
      int before = index.tailSize();
      index = index.next(tree, List.of(), next, added, true);
      tree = next;
      String ctx = "seed=" + seed + " run " + run;
      if (before + added.size() > LexicalIndex.TAIL_LIMIT) {
        assertEquals(0, index.tailSize(), ctx + ": a reader showing every leaf");
        folds++;
      } else {
        assertEquals(before + added.size(), index.tailSize(), ctx + ": the new leaves join the tail");
      }
      longestTail = Math.max(longestTail, index.tailSize());
      assertSameAsAfresh(LexicalIndex.of(tree), index, tree, ctx);
      if (run % 16 == 5 && index.tailSize() > 0) { // the knowledge base's cached copy holds the tail too
        LexicalIndex copy = CachedLexicalIndex.of(index.committedFiles(), tree);
        assertEquals(0, copy.tailSize(), ctx);
        assertSameAsAfresh(LexicalIndex.of(tree), copy, tree, ctx + " (cached copy)");
      }
    }
    assertTrue(longestTail > LexicalIndex.TAIL_LIMIT / 2, "a long tail was tested, longest " + longestTail);
    assertTrue(folds >= 3, "tails were folded into a new reader, " + folds + " times");
  }

  /**
   * A run that removes a leaf or changes one's text opens a reader showing every leaf, the tail's included; as
   * after any removal, the deleted documents still count in the statistics until merged away, so only which
   * leaves match is compared with an index built afresh, and the forward index with Lucene's collector.
   */
  @Test
  void aRemovalOrAChangedTextFoldsTheTail() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    List<String> ids = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 80; i++) {
      ids.add("l" + i);
      texts.add(text(r, false));
    }
    Tree tree = SnapshotNextTest.tree(ids, texts);
    LexicalIndex index = LexicalIndex.of(tree);
    for (int round = 0; round < 12; round++) {
      for (int run = 0; run < 1 + r.nextInt(5); run++) { // a tail
        Tree next = SnapshotNextTest.tree(add(ids, texts, r), texts);
        index = index.next(tree, List.of(), next, List.of(next.leafCount() - 1), true);
        tree = next;
      }
      String ctx = "seed=" + seed + " round " + round;
      assertTrue(index.tailSize() > 0, ctx);
      int i = r.nextInt(ids.size());
      List<Integer> added = new ArrayList<>();
      if (round % 2 == 0) {
        ids.remove(i);
        texts.remove(i);
      } else {
        texts.set(i, text(r, true));
        added.add(i);
      }
      Tree next = SnapshotNextTest.tree(ids, texts);
      index = index.next(tree, List.of(i), next, added, false);
      tree = next;
      assertEquals(0, index.tailSize(), ctx + ": a reader showing every leaf");
      assertEquals(tree.leafCount(), index.documents(), ctx);
      LexicalIndex fresh = LexicalIndex.of(tree);
      for (String prompt : PROMPTS) {
        float[] expected = new float[tree.leafCount()];
        float[] actual = new float[tree.leafCount()];
        fresh.scores(prompt, expected);
        index.scores(prompt, actual);
        LeafScorer one = index.prompt(prompt).leafScorer();
        for (int v = 0; v < actual.length; v++) {
          assertEquals(expected[v] > 0, actual[v] > 0, ctx + " prompt " + prompt + " leaf " + v);
          assertEquals(actual[v], one.score(v), tolerance(actual[v]), ctx + " prompt " + prompt + " leaf " + v);
        }
      }
    }
  }

  /**
   * On a knowledge base (real SQLite file, real Leiden, the fixtures' hash embedder), facts inserted by
   * maintenance runs that only append join the tail, and a BM25 retrieve finds them at once.
   */
  @Test
  void insertedFactsAreFoundThroughTheTail(@TempDir Path dir) throws Exception {
    SETreeConfig config = SETreeConfig.builder().embedder(new HashEmbedder(48))
        .tokenCounter(new SimpleTokenCounter()).build();
    try (SETree kb = SETree.open(dir.resolve("kb.db"), config)) {
      kb.build(Corpora.synthetic(300, 3), BuildProgress.NONE);
      assertEquals(0, kb.currentSnapshot().lexical().tailSize());
      for (int i = 0; i < 3; i++) {
        kb.insert(Fact.of("new-" + i, "Ingrid keeps zanzibar postcards number " + i));
        kb.awaitMaintenance().get();
      }
      Snapshot s = kb.currentSnapshot();
      assertEquals(3, s.lexical().tailSize(), "three runs that only appended");
      java.util.Set<String> inserted = java.util.Set.of("new-0", "new-1", "new-2");
      assertTrue(kb.retrieve("zanzibar postcards", 4096, Strategy.BM25).leafIds().containsAll(inserted));
      BestHits top = s.lexical().prompt("zanzibar postcards").top(3);
      java.util.Set<String> best = new java.util.HashSet<>();
      for (int v : top.leaves()) {
        best.add(s.tree().id(v));
      }
      assertEquals(inserted, best, "the only leaves holding both words");
      float[] lucene = new float[s.tree().leafCount()];
      s.lexical().scores("Ingrid zanzibar hikes", lucene);
      float[] fresh = new float[lucene.length];
      LexicalIndex.of(s.tree()).scores("Ingrid zanzibar hikes", fresh);
      for (int v = 0; v < lucene.length; v++) {
        assertEquals(fresh[v], lucene[v], tolerance(fresh[v]), "leaf " + s.tree().id(v));
      }
    }
  }

  private static List<String> add(List<String> ids, List<String> texts, Random r) {
    ids.add("n" + ids.size() + "-" + r.nextInt(1_000_000));
    texts.add(text(r, true));
    return ids;
  }

  private static void assertSameAsAfresh(LexicalIndex fresh, LexicalIndex index, Tree tree, String ctx) {
    int n = tree.leafCount();
    assertEquals(fresh.documents(), index.documents(), ctx);
    for (String prompt : PROMPTS) {
      String at = ctx + " prompt '" + prompt + "'";
      for (int maxPostings : new int[] {5, 40, PromptStopWords.MAX_POSTINGS}) { // "we" dropped or searched
        assertEquals(fresh.terms(prompt, maxPostings), index.terms(prompt, maxPostings), at + " " + maxPostings);
      }
      float[] expected = new float[n];
      float[] actual = new float[n];
      float max = fresh.scores(prompt, expected);
      assertEquals(max, index.scores(prompt, actual), tolerance(max), at);
      LeafScorer one = index.prompt(prompt).leafScorer();
      for (int v = 0; v < n; v++) {
        assertEquals(expected[v], actual[v], tolerance(expected[v]), at + " leaf " + v);
        assertEquals(expected[v], one.score(v), tolerance(expected[v]), at + " leaf " + v + " (one at a time)");
      }
      for (int k : new int[] {1, 5, 40, n + 1}) {
        BestHits a = fresh.prompt(prompt).top(k);
        BestHits b = index.prompt(prompt).top(k);
        assertEquals(a.complete(), b.complete(), at + " top " + k + ": complete");
        assertEquals(a.leaves().length, b.leaves().length, at + " top " + k);
        for (int i = 0; i < a.leaves().length; i++) { // ties may list equal scores in another order
          assertEquals(a.scores()[i], b.scores()[i], tolerance(a.scores()[i]), at + " top " + k + " rank " + i);
          assertEquals(expected[b.leaves()[i]], b.scores()[i], tolerance(b.scores()[i]), at + " top " + k
              + " rank " + i + ": the leaf's own score");
        }
        if (k > n) {
          int[] x = a.leaves().clone();
          int[] y = b.leaves().clone();
          java.util.Arrays.sort(x);
          java.util.Arrays.sort(y);
          assertArrayEquals(x, y, at + ": every matching leaf");
        }
      }
    }
  }

  /** Lucene sums a document's term scores in another order than the forward index does. */
  private static float tolerance(float score) {
    return 1e-6f * Math.max(1f, Math.abs(score));
  }

  private static String text(Random r, boolean late) {
    StringBuilder b = new StringBuilder(OLD[r.nextInt(OLD.length)]);
    for (int w = r.nextInt(4); w > 0; w--) {
      String[] from = late && r.nextInt(3) == 0 ? NEW : OLD;
      b.append(' ').append(from[r.nextInt(from.length)]);
    }
    return b.toString();
  }
}

package dev.setree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.Tree;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The BM25 index opened from the knowledge base's cached copy (ADR 0030): from a copy of the same tree it is
 * the index of the tree; from a copy of an earlier state it holds every leaf of the tree once, with the tree's
 * text; a damaged copy is refused, and open then indexes the leaves.
 */
class CachedLexicalIndexTest {
  private static final String[] WORDS = {"union", "unions", "state", "states", "congress", "war", "peace",
      "tax", "taxes", "the", "of", "and", "nation's", "economy", "economic", "café", "1999", "running", "ran"};

  @Test
  void copyOfTheSameTreeIsTheIndexOfTheTree() throws IOException {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    for (int n : new int[] {0, 1, 37, 1200}) {
      Tree tree = tree(n, r);
      LexicalIndex built = LexicalIndex.of(tree);
      LexicalIndex copy = CachedLexicalIndex.of(built.committedFiles(), tree);
      String at = "seed=" + seed + " n=" + n;
      assertEquals(n, copy.documents(), at);
      for (int q = 0; q < 20; q++) {
        assertSameScores(built, copy, text(r) + " " + text(r), at);
      }
      sameForwardIndex(built, copy, n, at);
    }
  }

  @Test
  void copyOfAnEarlierStateHoldsEveryLeafOfTheTreeOnce() throws IOException {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    for (int round = 0; round < 6; round++) {
      String at = "seed=" + seed + " round " + round;
      int n = 50 + r.nextInt(600);
      List<String> ids = new ArrayList<>();
      List<String> texts = new ArrayList<>();
      for (int v = 0; v < n; v++) {
        ids.add("s" + v);
        texts.add(text(r));
      }
      LexicalIndex earlier = LexicalIndex.of(SnapshotNextTest.tree(ids, texts));
      if (round % 2 == 1) { // a copy that already has deletions and a second segment
        Tree t0 = SnapshotNextTest.tree(ids, texts);
        List<String> ids1 = new ArrayList<>(ids.subList(1, n));
        List<String> texts1 = new ArrayList<>(texts.subList(1, n));
        ids1.add("extra");
        texts1.add("an extra fact about the union");
        Tree t1 = SnapshotNextTest.tree(ids1, texts1);
        earlier = earlier.next(t0, List.of(0), t1, List.of(n - 1), false);
        ids = ids1;
        texts = texts1;
        n = ids.size();
      }
      Map<String, byte[]> files = earlier.committedFiles();
      // The tree now: some leaves gone, some new, one id given a new text, two leaves swapped.
      for (int k = 0; k < 1 + r.nextInt(20); k++) {
        int v = r.nextInt(ids.size());
        ids.remove(v);
        texts.remove(v);
      }
      for (int k = 0; k < 1 + r.nextInt(20); k++) {
        int v = r.nextInt(ids.size() + 1);
        ids.add(v, "new" + k);
        texts.add(v, text(r));
      }
      texts.set(0, texts.get(0) + " war peace");
      java.util.Collections.swap(ids, 1, 2);
      java.util.Collections.swap(texts, 1, 2);
      Tree tree = SnapshotNextTest.tree(ids, texts);
      LexicalIndex copy = CachedLexicalIndex.of(files, tree);
      LexicalIndex fresh = LexicalIndex.of(tree);
      assertEquals(tree.leafCount(), copy.documents(), at);
      sameForwardIndex(fresh, copy, tree.leafCount(), at);
      for (int q = 0; q < 20; q++) {
        String prompt = text(r) + " " + text(r);
        float[] a = new float[tree.leafCount()];
        float[] b = new float[tree.leafCount()];
        fresh.scores(prompt, a);
        copy.scores(prompt, b);
        LeafScorer one = copy.prompt(prompt).leafScorer();
        for (int v = 0; v < a.length; v++) {
          // the same leaves match; each leaf's score from the forward index is Lucene's
          assertEquals(a[v] > 0, b[v] > 0, at + " leaf " + v + " '" + prompt + "'");
          assertEquals(b[v], one.score(v), 1e-4f * Math.max(1f, b[v]), at + " leaf " + v + " '" + prompt + "'");
        }
      }
    }
  }

  @Test
  void damagedOrForeignCopiesAreRefusedAndOpenIndexesTheLeaves() throws IOException {
    Random r = new Random(7);
    Tree tree = tree(300, r);
    LexicalIndex built = LexicalIndex.of(tree);
    Map<String, byte[]> files = built.committedFiles();
    String postings = files.keySet().stream().filter(f -> f.endsWith(".doc")).findFirst().orElseThrow();
    Map<String, byte[]> damaged = new LinkedHashMap<>(files);
    byte[] d = damaged.get(postings).clone();
    d[d.length / 2] ^= 0x40;
    damaged.put(postings, d);
    assertThrows(IOException.class, () -> CachedLexicalIndex.load(damaged));
    Map<String, byte[]> missing = new LinkedHashMap<>(files);
    missing.remove(postings);
    assertThrows(IOException.class, () -> CachedLexicalIndex.of(missing, tree));
    assertThrows(IOException.class, () -> CachedLexicalIndex.load(Map.of("segments_1", new byte[] {1, 2, 3})));
    assertThrows(IOException.class, () -> CachedLexicalIndex.load(Map.of()));
    CachedLexicalIndex swapped = CachedLexicalIndex.load(files);
    swapped.leaf(tree.id(1), tree.text(1));
    swapped.leaf(tree.id(0), tree.text(0));
    assertThrows(IOException.class, () -> swapped.finish(tree), "rows that are not the tree's leaves in order");
    for (Map<String, byte[]> bad : List.of(damaged, missing, Map.<String, byte[]>of())) {
      OpeningIndex opening = new OpeningIndex(bad);
      for (int v = 0; v < tree.leafCount(); v++) {
        opening.leaf(tree.id(v), tree.text(v));
      }
      opening.tree(tree);
      LexicalIndex index = opening.index();
      assertEquals(tree.leafCount(), index.documents());
      assertSameScores(built, index, "the union of states", "a refused copy");
    }
  }

  @Test
  void openingFromACopyTellsTheRowsAndFallsBackWhenTheyAreNotTheTree() throws IOException {
    Random r = new Random(11);
    Tree tree = tree(700, r);
    LexicalIndex built = LexicalIndex.of(tree);
    Map<String, byte[]> files = built.committedFiles();
    for (boolean inOrder : new boolean[] {true, false}) {
      OpeningIndex opening = new OpeningIndex(files);
      for (int v = 0; v < tree.leafCount(); v++) {
        int w = !inOrder && v < 2 ? 1 - v : v;
        opening.leaf(tree.id(w), tree.text(w));
      }
      opening.tree(tree);
      LexicalIndex index = opening.index();
      assertEquals(tree.leafCount(), index.documents());
      for (String prompt : List.of("the union of states", "war and peace", "economic taxes 1999")) {
        assertSameScores(built, index, prompt, "in order " + inOrder);
      }
      sameForwardIndex(built, index, tree.leafCount(), "in order " + inOrder);
    }
  }


  @Test
  void textHashTellsChangedTexts() {
    assertEquals(LeafDocument.textHash("The union is strong."), LeafDocument.textHash("The union is strong."));
    assertNotEquals(LeafDocument.textHash("The union is strong."), LeafDocument.textHash("The union is strong"));
    assertNotEquals(LeafDocument.textHash("ab"), LeafDocument.textHash("ba"));
    assertNotEquals(LeafDocument.textHash(""), LeafDocument.textHash("\0"));
    java.util.Set<Long> seen = new java.util.HashSet<>();
    for (int i = 0; i < 100_000; i++) {
      assertTrue(seen.add(LeafDocument.textHash("fact " + i)), "collision at " + i);
    }
  }

  /** Both indexes score every leaf alike for {@code prompt}, and give the same top 10. */
  static void assertSameScores(LexicalIndex expected, LexicalIndex actual, String prompt, String at) {
    String where = at + " '" + prompt + "'";
    float[] a = new float[expected.documents()]; // one live document per leaf
    float[] b = new float[a.length];
    assertEquals(expected.scores(prompt, a), actual.scores(prompt, b), where);
    assertArrayEquals(a, b, where);
    BestHits ta = expected.prompt(prompt).top(10);
    BestHits tb = actual.prompt(prompt).top(10);
    assertArrayEquals(ta.leaves(), tb.leaves(), where + " top leaves");
    assertArrayEquals(ta.scores(), tb.scores(), where + " top scores");
    assertEquals(ta.complete(), tb.complete(), where);
  }

  private static void sameForwardIndex(LexicalIndex a, LexicalIndex b, int n, String at) {
    for (int v = 0; v < n; v++) {
      assertEquals(a.leafTerms().norm(v), b.leafTerms().norm(v), at + " leaf " + v);
      assertEquals(a.leafTerms().distinctTerms(v), b.leafTerms().distinctTerms(v), at + " leaf " + v);
    }
  }

  private static Tree tree(int n, Random r) {
    if (n == 0) {
      return Tree.empty(2);
    }
    List<String> ids = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      ids.add("s" + v);
      texts.add(text(r));
    }
    return SnapshotNextTest.tree(ids, texts);
  }

  private static String text(Random r) {
    StringBuilder b = new StringBuilder();
    for (int w = 1 + r.nextInt(8); w > 0; w--) {
      b.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
    }
    return b.toString().strip();
  }
}

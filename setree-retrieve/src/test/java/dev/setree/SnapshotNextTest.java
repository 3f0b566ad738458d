package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeChanges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The snapshot after a change derives the text-to-leaf map from the previous one, looking only at new leaves
 * when none went: over random sequences of leaves removed, added and re-texted, with many duplicate texts,
 * it equals the map of the full derivation (the previous map without the leaves gone, then every leaf's
 * text put if absent), maps every leaf text to a leaf holding it, and the BM25 index matches the same leaves
 * as one made from scratch, whether or not a change log says which leading leaves were kept.
 */
class SnapshotNextTest {
  private static final String[] WORDS = {"alpha", "beta", "gamma", "delta", "war", "peace", "tax"};

  @Test
  void nextSnapshotEqualsOneFromScratch() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    int serial = 0;
    for (int round = 0; round < 15; round++) {
      List<String> ids = new ArrayList<>();
      List<String> texts = new ArrayList<>();
      boolean large = round % 3 == 0; // a base large enough that the changes stay a layer over it (TextIds)
      for (int i = 0; i < (large ? 400 : 5) + r.nextInt(60); i++) {
        ids.add("l" + serial++);
        texts.add(text(r));
      }
      Snapshot s = Snapshot.of(tree(ids, texts));
      for (int version = 0; version < (large ? 30 : 8); version++) {
        int change = r.nextInt(4);
        int firstChanged = ids.size(); // the leaves before it are kept at their indexes
        for (int x = r.nextInt(3); x >= 0 && ids.size() > 2; x--) {
          if (change == 0) { // removals
            int i = r.nextInt(ids.size());
            ids.remove(i);
            texts.remove(i);
            firstChanged = Math.min(firstChanged, i);
          } else if (change == 1) { // a leaf keeps its id, its text changes
            int i = r.nextInt(ids.size());
            texts.set(i, text(r));
            firstChanged = Math.min(firstChanged, i);
          }
        }
        for (int x = change >= 2 ? 1 + r.nextInt(3) : 0; x > 0; x--) { // additions
          ids.add("l" + serial++);
          texts.add(text(r));
        }
        Tree t = tree(ids, texts);
        Map<String, String> expected = fullDerivation(s, t);
        // Half the runs come with a change log saying which leading leaves are kept; the others compare them.
        TreeChanges log = r.nextBoolean() ? null : new TreeChanges(s.tree(), new String[0], firstChanged);
        s = s.next(t, HierarchyState.empty(), version + 1, log);
        Snapshot scratch = Snapshot.of(t);
        String ctx = "seed=" + seed + " round " + round + " version " + version;
        assertEquals(expected, s.idByText(), ctx);
        assertEquals(scratch.idByText().keySet(), s.idByText().keySet(), ctx);
        for (Map.Entry<String, String> e : s.idByText().entrySet()) {
          assertEquals(e.getKey(), t.text(t.indexOf(e.getValue())), ctx);
        }
        for (String prompt : WORDS) {
          float[] a = new float[t.leafCount()];
          float[] b = new float[t.leafCount()];
          scratch.lexical().scores(prompt, a);
          s.lexical().scores(prompt, b);
          for (int v = 0; v < a.length; v++) {
            assertEquals(a[v] > 0, b[v] > 0, ctx + " prompt " + prompt + " leaf " + v);
          }
        }
        assertSameForwardIndex(scratch.lexical().leafTerms(), s.lexical().leafTerms(), t.leafCount(), ctx);
      }
    }
  }

  /**
   * Open does not wait for the BM25 index: maintenance runs installed while it is being built chain their
   * changes without asking for it, and once it is built the chained index gives the scores of an index that
   * followed the same runs at once.
   */
  @Test
  void runsBeforeTheOpeningIndexIsBuiltFollowItOnceItIs() {
    List<String> ids = new ArrayList<>(List.of("l0", "l1", "l2", "l3", "l4"));
    List<String> texts = new ArrayList<>(List.of("alpha war", "beta", "gamma peace", "tax", "war tax"));
    Tree opened = tree(ids, texts);
    java.util.concurrent.CompletableFuture<LexicalIndex> building = new java.util.concurrent.CompletableFuture<>();
    java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
    Snapshot s = Snapshot.opened(opened, HierarchyState.empty(), 1, () -> {
      asked.incrementAndGet();
      return building.join();
    }, building::isDone, new dev.setree.internal.core.ContextFormat(text -> text.split(" ").length), false);
    Snapshot eager = Snapshot.of(opened);
    for (int run = 0; run < 3; run++) {
      ids.remove(0);
      texts.remove(0);
      ids.add("n" + run);
      texts.add(run == 1 ? "delta war" : "peace " + WORDS[run]);
      Tree t = tree(ids, texts);
      s = s.next(t, HierarchyState.empty(), 2 + run, null);
      eager = eager.next(t, HierarchyState.empty(), 2 + run, null);
      s.prepare(new dev.setree.internal.core.ContextFormat(text -> text.split(" ").length), false);
      assertEquals(false, s.bm25().isDone(), "run " + run);
    }
    assertEquals(0, asked.get(), "a run asked for the index being built");
    building.complete(LexicalIndex.of(opened));
    assertEquals(true, s.bm25().isDone());
    Tree last = s.tree();
    Snapshot scratch = Snapshot.of(last);
    for (String prompt : WORDS) {
      float[] a = new float[last.leafCount()];
      float[] b = new float[last.leafCount()];
      float[] c = new float[last.leafCount()];
      eager.lexical().scores(prompt, a);
      s.lexical().scores(prompt, b);
      scratch.lexical().scores(prompt, c);
      org.junit.jupiter.api.Assertions.assertArrayEquals(a, b, "prompt " + prompt);
      for (int v = 0; v < c.length; v++) {
        assertEquals(c[v] > 0, b[v] > 0, "prompt " + prompt + " leaf " + v);
      }
    }
    assertEquals(1, asked.get());
    // A run after the index is built follows it at once.
    ids.add("n9");
    texts.add("gamma tax");
    Snapshot after = s.next(tree(ids, texts), HierarchyState.empty(), 9, null);
    assertEquals(true, after.bm25().isDone());
  }

  /** The derived state given to the next snapshot must be of its tree and oracle. */
  @Test
  void derivedStateOfAnotherTreeIsRefused() {
    Snapshot s = Snapshot.of(tree(List.of("l0", "l1"), List.of("alpha", "beta")));
    Tree t = tree(List.of("l0", "l1", "l2"), List.of("alpha", "beta", "gamma"));
    Tree other = tree(List.of("l0", "l2"), List.of("alpha", "gamma"));
    HierarchyState h = HierarchyState.empty();
    org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> s.next(t, h, 2, null, s.following(other, h)));
    assertEquals(t, s.next(t, h, 2, null, s.following(t, h)).tree());
  }

  /** Every leaf's norm and term frequencies (each word as the analyser indexes it) are the same in both. */
  private static void assertSameForwardIndex(LeafTerms expected, LeafTerms actual, int leaves, String ctx) {
    for (int v = 0; v < leaves; v++) {
      assertEquals(expected.norm(v), actual.norm(v), ctx + " leaf " + v + ": norm");
      assertEquals(expected.distinctTerms(v), actual.distinctTerms(v), ctx + " leaf " + v + ": distinct terms");
      for (String term : TERMS) {
        int e = expected.termId(term);
        int a = actual.termId(term);
        assertEquals(e < 0 ? 0 : expected.freq(v, e), a < 0 ? 0 : actual.freq(v, a), ctx + " leaf " + v + " " + term);
      }
    }
  }

  /** {@link #WORDS} as the English analyser indexes them. */
  private static final String[] TERMS = {"alpha", "beta", "gamma", "delta", "war", "peac", "tax"};

  /** The map as every leaf's text put if absent after removing the leaves gone (or re-texted) derived it. */
  private static Map<String, String> fullDerivation(Snapshot s, Tree next) {
    Tree tree = s.tree();
    Map<String, String> byText = new HashMap<>(s.idByText());
    for (int v = 0; v < tree.leafCount(); v++) {
      int w = next.indexOf(tree.id(v));
      if (w < 0 || !next.isLeaf(w) || !next.text(w).equals(tree.text(v))) {
        byText.remove(tree.text(v), tree.id(v));
      }
    }
    for (int v = 0; v < next.leafCount(); v++) {
      byText.putIfAbsent(next.text(v), next.id(v));
    }
    return byText;
  }

  private static String text(Random r) {
    return WORDS[r.nextInt(WORDS.length)] + (r.nextBoolean() ? "" : " " + WORDS[r.nextInt(WORDS.length)]);
  }

  /** The leaves under one root (unit embeddings, dimension 2); also {@link LeafTermsTest}'s trees. */
  static Tree tree(List<String> leafIds, List<String> leafTexts) {
    int n = leafIds.size() + 1;
    String[] ids = new String[n];
    String[] texts = new String[n];
    int[] tokens = new int[n];
    int[] level = new int[n];
    int[] parent = new int[n];
    float[] emb = new float[n * 2];
    int[] faith = new int[n];
    for (int v = 0; v < n; v++) {
      ids[v] = v < n - 1 ? leafIds.get(v) : "root";
      texts[v] = v < n - 1 ? leafTexts.get(v) : "root summary";
      tokens[v] = 1;
      level[v] = v < n - 1 ? 0 : 1;
      parent[v] = v < n - 1 ? n - 1 : -1;
      emb[2 * v] = 1f;
      faith[v] = 100;
    }
    return new Tree(2, n - 1, ids, texts, null, null, tokens, level, parent, emb, new float[] {1f, 0f}, faith, null);
  }
}

package dev.setree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.setree.internal.core.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The BM25 index open builds on a second thread from the leaf rows it is told equals the index built from the
 * tree: the same scores, top hits and forward index, also when the rows told are not the tree's leaves.
 */
class OpeningIndexTest {
  private static final String[] WORDS = {"union", "unions", "state", "states", "congress", "war", "peace",
      "tax", "taxes", "the", "of", "and", "nation's", "economy", "economic", "café", "1999", "running", "ran"};

  @Test
  void streamedIndexEqualsTheIndexOfTheTree() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    for (int round = 0; round < 6; round++) {
      int n = round == 0 ? 0 : 1 + r.nextInt(round == 5 ? 3000 : 400); // 0 leaves, a few, several batches
      List<String> ids = new ArrayList<>();
      List<String> texts = new ArrayList<>();
      for (int v = 0; v < n; v++) {
        ids.add("s" + v);
        texts.add(text(r));
      }
      Tree tree = n == 0 ? Tree.empty(2) : SnapshotNextTest.tree(ids, texts);
      String at = "seed=" + seed + " round " + round;
      // 0: the leaves in order (the load's case); 1: one missing; 2: two swapped; 3: none told
      int mode = round == 0 ? 0 : r.nextInt(4);
      OpeningIndex opening = new OpeningIndex();
      for (int v = 0; v < n; v++) {
        if (mode == 1 && v == n / 2) {
          continue;
        }
        int w = mode == 2 && n > 1 && v < 2 ? 1 - v : v;
        if (mode != 3) {
          opening.leaf(ids.get(w), texts.get(w));
        }
      }
      opening.tree(tree);
      LexicalIndex streamed = opening.index();
      LexicalIndex built = LexicalIndex.of(tree);
      for (int q = 0; q < 20; q++) {
        String prompt = text(r) + " " + text(r);
        float[] a = new float[tree.leafCount()];
        float[] b = new float[tree.leafCount()];
        assertEquals(built.scores(prompt, a), streamed.scores(prompt, b), at + " '" + prompt + "'");
        assertArrayEquals(a, b, at + " '" + prompt + "'");
        LexicalIndex.Top ta = built.prompt(prompt).top(10);
        LexicalIndex.Top tb = streamed.prompt(prompt).top(10);
        assertArrayEquals(ta.leaves(), tb.leaves(), at + " top leaves");
        assertArrayEquals(ta.scores(), tb.scores(), at + " top scores");
        assertEquals(ta.complete(), tb.complete(), at);
      }
      for (int v = 0; v < tree.leafCount(); v++) {
        LeafTerms x = built.leafTerms();
        LeafTerms y = streamed.leafTerms();
        assertEquals(x.norm(v), y.norm(v), at + " leaf " + v);
        assertEquals(x.distinctTerms(v), y.distinctTerms(v), at + " leaf " + v);
      }
    }
  }

  @Test
  void abandonedOrUnfinishedStreamsEnd() {
    OpeningIndex abandoned = new OpeningIndex();
    abandoned.leaf("a", "some text");
    abandoned.abandon();
    abandoned.abandon(); // idempotent
    OpeningIndex untold = new OpeningIndex();
    assertThrows(IllegalStateException.class, untold::index);
  }

  private static String text(Random r) {
    StringBuilder b = new StringBuilder();
    for (int w = 1 + r.nextInt(8); w > 0; w--) {
      b.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
    }
    return b.toString().strip();
  }
}

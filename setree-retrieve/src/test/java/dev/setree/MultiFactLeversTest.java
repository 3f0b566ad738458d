package dev.setree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.IntentionalClustering;
import dev.setree.internal.core.Tree;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.TempKnowledgeBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The second hop and intentional clustering through the facade. */
@ExtendWith(TempKnowledgeBase.class)
class MultiFactLeversTest {
  static final SimpleTokenCounter COUNTER = new SimpleTokenCounter();

  static SETree open(Path kb) {
    SETree t = SETree.open(kb, SETreeConfig.builder().embedder(new HashEmbedder(48)).tokenCounter(COUNTER).build());
    t.build(Corpora.synthetic(400, 11), BuildProgress.NONE);
    return t;
  }

  static int[] order(float[] score) {
    Integer[] o = new Integer[score.length];
    for (int i = 0; i < o.length; i++) {
      o[i] = i;
    }
    Arrays.sort(o, (a, b) -> score[a] != score[b] ? Float.compare(score[b], score[a]) : Integer.compare(a, b));
    return Arrays.stream(o).mapToInt(Integer::intValue).toArray();
  }

  /**
   * The interleaved relevance orders leaves as first #1, second #1, first #2, second #2, ... (duplicates
   * skipped) and keeps the first query's values.
   */
  @Test
  void interleaveAlternatesTheTwoRankings(@TempKnowledgeBase.File Path kb) {
    try (SETree t = open(kb)) {
      Snapshot s = Snapshot.of(t.tree().tree());
      HashEmbedder e = new HashEmbedder(48);
      Random r = new Random(3);
      for (int trial = 0; trial < 20; trial++) {
        String prompt = "Fatima visits lisbon with friends " + trial;
        float[] q = e.embed(prompt);
        float[] first = Retriever.relevance(s, prompt, q, Strategy.HYBRID, 0.3, null);
        float[][] second = new float[1][];
        float[] out = SecondHop.interleave(s, prompt, q, first, 1 + r.nextInt(2), e, (p2, q2) -> {
          second[0] = Retriever.relevance(s, p2, q2, Strategy.HYBRID, 0.3, null);
          return second[0];
        });
        int[] o1 = order(first);
        int[] o2 = order(second[0]);
        Set<Integer> expected = new LinkedHashSet<>();
        for (int k = 0; k < o1.length; k++) {
          expected.add(o1[k]);
          expected.add(o2[k]);
        }
        int[] want = expected.stream().mapToInt(Integer::intValue).toArray();
        // Relevance never increases along the interleaved order (equal first-query values may tie).
        for (int k = 1; k < want.length; k++) {
          assertTrue(out[want[k - 1]] >= out[want[k]], "trial " + trial + " position " + k);
        }
        assertEquals(want[0], order(out)[0], "the first query's best leaf stays first");
        float[] sortedFirst = first.clone();
        float[] sortedOut = out.clone();
        Arrays.sort(sortedFirst);
        Arrays.sort(sortedOut);
        assertArrayEquals(sortedFirst, sortedOut, "values keep the first query's scale");
      }
    }
  }

  /** The second hop changes some contexts, never breaks the budget, and can be switched off per call. */
  @Test
  void secondHopIsAPerCallLever(@TempKnowledgeBase.File Path kb) {
    try (SETree t = open(kb)) {
      int differ = 0;
      for (int i = 0; i < 30; i++) {
        String prompt = "who reads poetry and who plays cello " + i;
        Context off = t.retrieve(prompt, 200, RetrieveOptions.builder().secondHop(0).build());
        Context on = t.retrieve(prompt, 200, RetrieveOptions.builder().secondHop(2).build());
        assertTrue(on.tokensUsed() <= 200);
        assertTrue(on.complete());
        if (!on.text().equals(off.text())) {
          differ++;
        }
        assertEquals(t.retrieve(prompt, 200).text(), off.text(), "the default is off (ADR 0010)");
      }
      assertTrue(differ > 0, "the second hop changes at least one context");
    }
  }

  /** With clustering, the best clusters' representatives lead; the budget and the cover still hold. */
  @Test
  void clusteringPromotesOneRepresentativePerCluster(@TempKnowledgeBase.File Path kb) {
    try (SETree t = open(kb)) {
      Tree tree = t.tree().tree();
      ClusterSelection sel = new ClusterSelection(0.4f, 3, true);
      float[] rel = new float[tree.leafCount()];
      Random r = new Random(5);
      for (int i = 0; i < rel.length; i++) {
        rel[i] = r.nextFloat();
      }
      ClusterSelection.Pool pool = sel.pool(tree, rel, ClusterSelection.POOL);
      assertTrue(pool.clusters().size() >= 3, "tree affinity gives several clusters: " + pool.clusters().size());
      float[] promoted = sel.promoteRepresentatives(tree, rel);
      int[] top = order(promoted);
      for (int c = 0; c < 3; c++) {
        assertEquals(pool.leaves()[pool.clusters().get(c).representative()], top[c]);
      }
      List<Context> ctxs = new ArrayList<>();
      for (Strategy st : List.of(Strategy.TREE_COVER, Strategy.HYBRID, Strategy.FLAT)) {
        Context c = t.retrieve("Chen codes compilers at night", 150,
            RetrieveOptions.builder().strategy(st).intentionalClustering(true).build());
        assertTrue(c.tokensUsed() <= 150);
        ctxs.add(c);
      }
      assertTrue(ctxs.get(0).complete());
      Context plain = t.retrieve("Chen codes compilers at night", 150,
          RetrieveOptions.builder().strategy(Strategy.HYBRID).intentionalClustering(false).build());
      assertNotEquals(plain.leafIds(), ctxs.get(1).leafIds(), "clustering changes the hybrid list's selection");
    }
  }

  /** Tree affinity: 1 for siblings, 1/2 for cousins under a grandparent, and so on. */
  @Test
  void treeAffinity() {
    assertEquals(1f, IntentionalClustering.affinity(new int[] {5, 9, 12}, new int[] {5, 9, 12}));
    assertEquals(0.5f, IntentionalClustering.affinity(new int[] {4, 9, 12}, new int[] {5, 9, 12}));
    assertEquals(1f / 3, IntentionalClustering.affinity(new int[] {4, 8, 12}, new int[] {5, 9, 12}));
    assertEquals(0.25f, IntentionalClustering.affinity(new int[] {3, 4, 8, 12}, new int[] {5, 12}), 1e-6,
        "the deeper side's distance counts");
  }
}

package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Vectors;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.Random;
import nl.cwts.networkanalysis.Network;
import org.junit.jupiter.api.Test;

/** The re-clustering margin (ADR 0047): old members move only for a gain in quality above it. */
class KeptCommunitiesTest {

  /** Old members keep their start; a new one goes to the old community most of its Leiden community came from. */
  @Test
  void oldMembersStayAndNewOnesFollowLeiden() {
    // members 0-3 old (communities 0 and 1), 4-6 new (singletons 2, 3, 4)
    int[] initial = {0, 0, 1, 1, 2, 3, 4};
    int[] improved = {5, 5, 5, 7, 5, 9, 9};
    // Leiden's 5 holds old 0, 0, 1: the new member 4 goes to 0; its 7 holds old 1 only; its 9 only new members 5, 6
    assertArrayEquals(new int[] {0, 0, 1, 1, 0, 2, 2}, KeptCommunities.of(initial, 2, improved));
    // a tie between two old communities goes to the lower one
    assertArrayEquals(new int[] {0, 1, 0}, KeptCommunities.of(new int[] {0, 1, 2}, 2, new int[] {3, 3, 3}));
    // no new member: the start
    assertArrayEquals(initial, KeptCommunities.of(initial, initial.length, new int[] {1, 1, 1, 1, 1, 1, 1}));
  }

  /**
   * Planted groups started with one member in the wrong group and a new member alone: Leiden moves the first back
   * and places the second. With a margin below that gain the move is kept; with the gain itself or more, the wrong
   * member stays where it started and the new member still goes to its group.
   */
  @Test
  void theMarginDecidesWhetherAnOldMemberMoves() {
    int groups = 6;
    int per = 8;
    int dim = 16;
    Random r = new Random(3);
    int n = groups * per;
    float[] m = new float[n * dim];
    for (int i = 0; i < n; i++) {
      float[] v = new float[dim];
      v[i / per] = 1f;
      for (int d = 0; d < dim; d++) {
        v[d] += 0.05f * (float) r.nextGaussian();
      }
      Vectors.normalize(v);
      System.arraycopy(v, 0, m, i * dim, dim);
    }
    Network net = LeidenClustering.network(ExactKnn.allPairs(m, n, dim, 5));
    int[] initial = new int[n];
    for (int i = 0; i < n; i++) {
      initial[i] = i / per;
    }
    initial[0] = 1; // an old member of group 0 started in group 1's community
    initial[n - 1] = groups; // a new member of the last group, alone
    LeidenClustering leiden = new LeidenClustering(per, 42);
    double resolution = 0.05;
    LeidenClustering.Result free = leiden.improve(net, resolution, initial, groups, Double.NEGATIVE_INFINITY);
    LeidenClustering.Result kept = leiden.improve(net, resolution, initial, groups, 1.0);
    assertEquals(free.assignment()[1], free.assignment()[0], "Leiden moves member 0 back to its group");
    assertEquals(free.assignment()[n - 2], free.assignment()[n - 1], "and places the new member in its group");
    assertEquals(kept.assignment()[per], kept.assignment()[0], "with a large margin member 0 stays where it started");
    assertEquals(kept.assignment()[n - 2], kept.assignment()[n - 1], "the new member is placed all the same");
    double gain = free.quality() - kept.quality();
    assertTrue(gain > 0, "gain " + gain);
    assertArrayEquals(free.assignment(), leiden.improve(net, resolution, initial, groups, gain * 0.99).assignment());
    assertArrayEquals(kept.assignment(), leiden.improve(net, resolution, initial, groups, gain).assignment());
    assertArrayEquals(free.assignment(), leiden.improve(net, resolution, initial).assignment());
  }

  /**
   * 150 one-fact runs into a 2,000-leaf base: with a margin of 0.01, fewer summaries are written than with every
   * improvement kept; the default keeps every improvement, the very levels of a rebuild without the margin.
   */
  @Test
  void aMarginWritesFewerSummariesAndTheDefaultHasNone() {
    Runs withMargin = runs(0.01);
    Runs every = runs(Double.NEGATIVE_INFINITY);
    assertTrue(withMargin.summaries < every.summaries,
        "summaries " + withMargin.summaries + " with the margin, " + every.summaries + " without");
    Runs byDefault = runs(KeptCommunities.margin());
    assertEquals(every.summaries, byDefault.summaries);
    for (int l = 0; l < every.oracle.levels().size(); l++) {
      assertArrayEquals(every.oracle.levels().get(l).parentIds(), byDefault.oracle.levels().get(l).parentIds());
    }
  }

  private record Runs(int summaries, HierarchyState oracle) {}

  private static Runs runs(double margin) {
    HashEmbedder embedder = new HashEmbedder(48);
    SimpleTokenCounter counter = new SimpleTokenCounter();
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(2000, 41), BuildProgress.NONE);
    Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60)
        .reclusterMargin(margin);
    int[] summaries = {0};
    Maintainer.Result last = OneFactRuns.run(m, built, Corpora.synthetic(150, 42), "ins", " later",
        (i, r) -> summaries[0] += r.summarized());
    return new Runs(summaries[0], last.hierarchy());
  }
}

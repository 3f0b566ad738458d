package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The record of a level's parents read from the oracle is the one a run leaves (ADR 0034; Maintainer#prepare). */
class CommunityParentsTest {
  private final HashEmbedder embedder = new HashEmbedder(32);
  private final SimpleTokenCounter counter = new SimpleTokenCounter();

  /**
   * After each of five one-fact runs into 1,200 leaves, every level's record read from the run's oracle names the
   * same parent nodes and next-level indexes, for the same assignment, as the record the run left in its draft.
   */
  @Test
  void theOraclesRecordIsTheRunsRecord() {
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(1200, 61), BuildProgress.NONE);
    Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    int[] compared = {0};
    OneFactRuns.run(m, built, Corpora.synthetic(5, 62), "x", " again", (i, r) -> {
      DraftTree d = m.kept.take(r.tree());
      List<HierarchyState.Level> levels = r.hierarchy().levels();
      for (int lvl = 0; lvl + 1 < levels.size(); lvl++) {
        CommunityParents run = d.records.parents(lvl);
        if (run == null || run.assignment() != levels.get(lvl).assignment()) {
          continue; // a level the run kept from the oracle before it
        }
        CommunityParents read = CommunityParents.ofOracle(d, levels.get(lvl), levels.get(lvl + 1));
        assertNotNull(read, "run " + i + ", level " + lvl);
        assertSame(run.assignment(), read.assignment());
        assertArrayEquals(run.parentOf(), read.parentOf(), "run " + i + ", level " + lvl);
        assertArrayEquals(run.nextIndex(), read.nextIndex(), "run " + i + ", level " + lvl);
        compared[0]++;
      }
    });
    assertTrue(compared[0] >= 5, "levels compared: " + compared[0]);
  }

  /** A writer's draft prepared on open holds the record of every level's parents read from the oracle. */
  @Test
  void aPreparedDraftHoldsTheRecords() {
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(600, 64), BuildProgress.NONE);
    Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    m.prepare(built.tree(), built.hierarchy(), () -> false);
    DraftTree d = m.kept.take(built.tree());
    List<HierarchyState.Level> levels = built.hierarchy().levels();
    assertTrue(levels.size() >= 3, "levels: " + levels.size());
    for (int lvl = 0; lvl + 1 < levels.size(); lvl++) {
      CommunityParents kept = d.records.parents(lvl);
      assertNotNull(kept, "level " + lvl);
      assertSame(levels.get(lvl).assignment(), kept.assignment());
      assertArrayEquals(CommunityParents.ofOracle(d, levels.get(lvl), levels.get(lvl + 1)).nextIndex(),
          kept.nextIndex());
    }
  }

  /** A level whose parent ids name no node of the draft, or without a next level, gets no record. */
  @Test
  void aForeignLevelGetsNoRecord() {
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(300, 63), BuildProgress.NONE);
    DraftTree d = DraftTree.of(built.tree());
    HierarchyState.Level l0 = built.hierarchy().levels().get(0);
    HierarchyState.Level l1 = built.hierarchy().levels().get(1);
    assertNotNull(CommunityParents.ofOracle(d, l0, l1));
    assertNull(CommunityParents.ofOracle(d, l0, null));
    String[] foreign = l0.parentIds().clone();
    for (int i = 0; i < foreign.length; i++) {
      if (!foreign[i].equals(l0.memberIds()[i])) {
        foreign[i] = "nowhere";
        break;
      }
    }
    HierarchyState.Level moved = new HierarchyState.Level(l0.memberIds(), l0.centroids(), foreign, l0.assignment(),
        l0.knnOffsets(), l0.knnNeighbors(), l0.knnWeights(), l0.resolution());
    assertNull(CommunityParents.ofOracle(d, moved, l1));
  }
}

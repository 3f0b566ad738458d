package dev.setree.internal.maintain;

import dev.setree.internal.core.ClassesAhead;
import dev.setree.internal.core.Passes;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The classes of an incremental maintenance run, loaded ahead of a process's first run, the Leiden code run once on
 * a ring of a few nodes (docs/adr/0044-run-classes-loaded-on-open.md), and the loops the run's passes share compiled
 * ({@link Passes#compileAhead}, docs/adr/0045-passes-share-a-loop-compiled-on-open.md). A writer's first run after
 * open otherwise loads about a hundred classes of this module, the core and {@code nl.cwts:networkanalysis} while it
 * is timed, with the compiler threads taking the other core. {@code RunClassesAheadTest} (setree-retrieve) checks in a
 * separate JVM that a run loads none of this module's classes that are not listed here.
 */
final class RunClasses {
  /** This module's classes (by simple name) and the core's that a one-fact run loads, in no particular order. */
  static final String[] NAMES = {
    "AffectedCommunities", "BuildProgress", "Communities", "CommunityParents", "DeferredEmbeddings", "DraftFreeze",
    "DraftFreeze$Columns", "DraftFreeze$Frozen", "DraftFreeze$Renumber", "DraftSums", "DraftSums$ToLook", "EmptyNodes",
    "EmptyNodes$Gone", "FreezeChecks", "FrozenOrder", "ExactKnn", "ExactKnn$TopK", "ExtractiveSummarizer$1",
    "FrozenShape", "IncrementalRebuild", "IncrementalRebuild$Clustering",
    "IncrementalRebuild$Outcome", "IncrementalRebuild$Progress", "InternalRowStore$Rows", "InternalRowStore$Stale",
    "InternalSplice", "InternalSplice$Spliced",
    "KeptDraft$Settle", "KnnGraph", "KnnPatch", "KnnPatch$Rows", "LeafPassages", "LeavesUnder",
    "LeavesUnder$Gathering", "LeavesUnder$Parts", "LeidenClustering", "LeidenClustering$Result",
    "LevelMatch", "LevelMatch$ByOldIndex", "LocalIndex", "Maintainer$Result", "MaximalMarginalRelevance",
    "MaximalMarginalRelevance$Picks",
    "MovedSimilarities", "NearAncestors", "NearestMemberPatch", "NearestMemberPatch$NearRows",
    "NextMembers", "NextMembers$Listed", "OldCommunities", "OldParents",
    "ParentPreservation", "LeftAlone", "RecordedRows", "RecordedRows$Matched",
    "RecordedRows$Matcher", "RelevanceMemo", "RelevanceMemo$Joined", "RelevanceMemo$Ranked", "RunSteps",
    "SummaryPass", "SummaryPass$Result", "SummaryWaves$Marked", "SummaryWaves$MarkFlagged", "TextCut", "TopKRows",
    "dev.setree.internal.maintain.llm.TargetLlmSummarizer",
    "dev.setree.internal.core.Indexes", "dev.setree.internal.core.KnnRowChanges",
    "dev.setree.internal.core.KnnRows", "dev.setree.internal.core.KnnRows$Writer", "dev.setree.internal.core.Passes",
    "dev.setree.internal.core.LeafNeighbours$Hits", "dev.setree.internal.core.LeafNeighbours$TopList",
    "dev.setree.internal.core.ShapeFrom", "dev.setree.internal.core.TreeChanges", "dev.setree.spi.Passage",
    "dev.setree.spi.Summarizer$Request",
    "dev.setree.spi.Summarizer$Summary",
  };

  private static final AtomicBoolean LOADED = new AtomicBoolean();

  private RunClasses() {}

  /**
   * Loads the classes of {@link #NAMES}, runs Leiden once on a ring of 32 nodes, which loads the classes of
   * {@code nl.cwts.networkanalysis} that a run's re-clustering uses and links their calls, and has the loops of
   * {@link Passes} compiled. Once per class loader: later calls return at once.
   *
   * @throws IllegalStateException when a listed class is not there
   */
  static void load() {
    if (LOADED.getAndSet(true)) {
      return;
    }
    ClassesAhead.load(RunClasses.class, NAMES);
    int n = 32;
    int[] offsets = new int[n + 1];
    int[] neighbours = new int[2 * n];
    float[] weights = new float[2 * n];
    int[] initial = new int[n];
    for (int i = 0; i < n; i++) {
      offsets[i + 1] = 2 * (i + 1);
      neighbours[2 * i] = (i + 1) % n;
      neighbours[2 * i + 1] = (i + 2) % n;
      weights[2 * i] = 0.9f;
      weights[2 * i + 1] = 0.5f;
      initial[i] = i / 4;
    }
    new LeidenClustering(4, 1).improve(LeidenClustering.network(new KnnGraph(offsets, neighbours, weights)), 0.5,
        initial);
    Passes.compileAhead();
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;

/**
 * What a build produces: the tree, its hierarchy oracle, and measurements.
 *
 * @param tree the new snapshot
 * @param hierarchy the oracle to save with it
 * @param stats timings and counts
 */
public record BuildResult(Tree tree, HierarchyState hierarchy, Stats stats) {

  /**
   * Timings (nanoseconds) and counts of one build.
   *
   * @param embedNanos embedding the leaves
   * @param knnNanos kNN graphs (exact or NN-descent), all levels
   * @param clusterNanos Leiden, all levels
   * @param summaryNanos deferred summaries and their embeddings
   * @param levels clustering levels
   * @param summaryFallbacks nodes whose summariser failed and that fell back to an extractive summary
   * @param summarized summaries written (summariser calls, fallbacks included)
   */
  public record Stats(long embedNanos, long knnNanos, long clusterNanos, long summaryNanos, int levels,
      int summaryFallbacks, int summarized) {}
}

package dev.setree;

/**
 * What a {@link SETree#build} did: the time of each stage and what became of the summaries.
 *
 * @param embedNanos embedding the leaves
 * @param knnNanos the kNN graphs of every level
 * @param clusterNanos Leiden clustering of every level
 * @param summaryNanos writing and embedding the summaries
 * @param levels clustering levels built
 * @param summaryFallbacks summaries the configured summariser could not write, written extractively instead
 * @param summarized internal nodes summarised
 */
public record BuildReport(long embedNanos, long knnNanos, long clusterNanos, long summaryNanos, int levels,
    int summaryFallbacks, int summarized) {}

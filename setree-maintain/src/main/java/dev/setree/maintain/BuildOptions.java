package dev.setree.maintain;

/**
 * Settings of an index build.
 *
 * @param k neighbours per member in each level's exact kNN graph
 * @param targetArity mean community size the Leiden resolution search aims at
 * @param seed random seed of Leiden (builds are deterministic)
 * @param maxConcurrency summariser calls in flight at once; 0 = number of processors
 * @param topSummaryTokens summary cap for the root and its children
 * @param summaryTokens summary cap for deeper nodes
 */
public record BuildOptions(
    int k, int targetArity, long seed, int maxConcurrency, int topSummaryTokens, int summaryTokens) {

  /** k = 10, arity 8, seed 42, concurrency by processors, summaries of 12 tokens at the top, 24 below. */
  public static final BuildOptions DEFAULTS = new BuildOptions(10, 8, 42L, 0, 12, 24);

  /** Validates the settings. */
  public BuildOptions {
    if (k < 1) {
      throw new IllegalArgumentException("k must be >= 1, got " + k);
    }
    if (targetArity < 2) {
      throw new IllegalArgumentException("target arity must be >= 2, got " + targetArity);
    }
    if (maxConcurrency < 0) {
      throw new IllegalArgumentException("max_concurrency must be >= 0, got " + maxConcurrency);
    }
    if (topSummaryTokens < 1 || summaryTokens < 1) {
      throw new IllegalArgumentException("summary caps must be >= 1");
    }
  }

  /** The number of threads for summaries. */
  int threads() {
    return maxConcurrency == 0 ? Runtime.getRuntime().availableProcessors() : maxConcurrency;
  }
}

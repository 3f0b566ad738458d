package dev.setree.internal.maintain;

/**
 * Settings of an index build.
 *
 * @param k neighbours per member in each level's exact kNN graph
 * @param targetArity mean community size the Leiden resolution search aims at
 * @param seed random seed of Leiden (builds are deterministic)
 * @param maxConcurrency summariser calls in flight at once; 0 = number of processors
 * @param topSummaryTokens summary cap for the root and its children
 * @param summaryTokens summary cap for deeper nodes
 * @param exactKnnLimit the largest level (in members) whose kNN graph is exact ({@link ExactKnn}); larger
 *     levels get the approximate NN-descent graph ({@code NnDescent}). {@link Integer#MAX_VALUE} forces the
 *     exact path, 0 the approximate one (docs/adr/0017-knn.md)
 */
public record BuildOptions(int k, int targetArity, long seed, int maxConcurrency, int topSummaryTokens,
    int summaryTokens, int exactKnnLimit) {

  /** Default {@link #exactKnnLimit()}: up to 20,000 members a level's kNN graph is exact. */
  public static final int EXACT_KNN_LIMIT = 20_000;

  /**
   * k = 10, arity 8, seed 42, concurrency by processors, summaries of 12 tokens at the top, 24 below, exact
   * kNN up to {@value #EXACT_KNN_LIMIT} members.
   */
  public static final BuildOptions DEFAULTS = new BuildOptions(10, 8, 42L, 0, 12, 24);

  /** Settings with the default {@link #EXACT_KNN_LIMIT}. */
  public BuildOptions(int k, int targetArity, long seed, int maxConcurrency, int topSummaryTokens,
      int summaryTokens) {
    this(k, targetArity, seed, maxConcurrency, topSummaryTokens, summaryTokens, EXACT_KNN_LIMIT);
  }

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
    if (exactKnnLimit < 0) {
      throw new IllegalArgumentException("exact kNN limit must be >= 0, got " + exactKnnLimit);
    }
  }

  /** These settings with another {@link #exactKnnLimit()}. */
  public BuildOptions withExactKnnLimit(int limit) {
    return new BuildOptions(k, targetArity, seed, maxConcurrency, topSummaryTokens, summaryTokens, limit);
  }

  /** One level's kNN graph: exact up to {@link #exactKnnLimit()} members, NN-descent above. */
  KnnGraph knnGraph(float[] centroids, int members, int dim) {
    return members <= exactKnnLimit ? ExactKnn.allPairs(centroids, members, dim, k)
        : NnDescent.build(centroids, members, dim, k, seed);
  }

  /** The number of threads for summaries. */
  int threads() {
    return maxConcurrency == 0 ? Runtime.getRuntime().availableProcessors() : maxConcurrency;
  }
}

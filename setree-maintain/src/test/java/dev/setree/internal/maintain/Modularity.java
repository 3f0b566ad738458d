package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;

/**
 * Newman-Girvan modularity of one level's communities on its symmetrised kNN graph (Newman and Girvan,
 * Phys. Rev. E 69, 026113, 2004): {@code Q = sum over communities of (w_in / W - (d_c / 2W)^2)}. Used to
 * compare the quality of an incrementally maintained level with a full rebuild's: unlike CPM quality it
 * does not depend on the resolution, so levels found at different resolutions compare.
 */
final class Modularity {
  private Modularity() {}

  /** Modularity of {@code level}'s assignment on its kNN graph (weights as handed to Leiden). */
  static double of(HierarchyState.Level level) {
    int n = level.size();
    int[] a = level.assignment();
    double total = 0;
    int communities = 0;
    for (int c : a) {
      communities = Math.max(communities, c + 1);
    }
    double[] degree = new double[communities];
    double inside = 0;
    // Undirected edge set: (i, j) present if either lists the other; weight as in LeidenClustering.
    java.util.Map<Long, Double> edges = new java.util.HashMap<>();
    for (int i = 0; i < n; i++) {
      for (int e = level.knnOffsets()[i]; e < level.knnOffsets()[i + 1]; e++) {
        int j = level.knnNeighbors()[e];
        long key = i < j ? ((long) i << 32) | j : ((long) j << 32) | i;
        edges.put(key, Math.max(LeidenClustering.MIN_WEIGHT, level.knnWeights()[e]));
      }
    }
    for (var en : edges.entrySet()) {
      int i = (int) (en.getKey() >>> 32);
      int j = (int) (long) en.getKey();
      double w = en.getValue();
      total += w;
      degree[a[i]] += w;
      degree[a[j]] += w;
      if (a[i] == a[j]) {
        inside += w;
      }
    }
    if (total == 0) {
      return 0;
    }
    double q = inside / total;
    for (double d : degree) {
      q -= (d / (2 * total)) * (d / (2 * total));
    }
    return q;
  }
}

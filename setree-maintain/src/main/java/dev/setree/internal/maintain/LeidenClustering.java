package dev.setree.internal.maintain;

import java.util.Arrays;
import java.util.Random;
import nl.cwts.networkanalysis.Clustering;
import nl.cwts.networkanalysis.LeidenAlgorithm;
import nl.cwts.networkanalysis.Network;
import nl.cwts.util.LargeDoubleArray;
import nl.cwts.util.LargeIntArray;

/**
 * Community detection on one level's kNN graph with the Leiden algorithm (Traag, Waltman and van Eck,
 * "From Louvain to Leiden: guaranteeing well-connected communities", Scientific Reports 9, 5233, 2019),
 * using the authors' reference implementation {@code nl.cwts:networkanalysis}.
 *
 * <p>The graph is the symmetrised kNN graph (an edge when either member lists the other), weighted by
 * cosine similarity floored at {@value #MIN_WEIGHT}. The quality function is CPM (constant Potts model)
 * with unit node weights; its resolution is searched per level (bisection in log space) so that the mean
 * community size comes closest to a target arity: plain modularity at resolution 1 makes bottom-level
 * communities far too large on our data (FINDINGS.md, finding 5; docs/adr/0003-leiden-cpm-target-arity.md).
 * Seeded, hence deterministic. Levels of more than {@value #LARGE_LEVEL} members search the resolution
 * with single-iteration runs and run the chosen one in full.
 */
public final class LeidenClustering {
  static final double MIN_WEIGHT = 1e-3;
  private static final int SEARCH_STEPS = 10;
  private static final int ITERATIONS = 4;
  /**
   * Above this many members the resolution search runs one Leiden iteration per step and only the chosen
   * resolution gets all {@value #ITERATIONS}: a million-leaf level costs a quarter as much (ADR 0017).
   */
  static final int LARGE_LEVEL = 100_000;

  private final int targetArity;
  private final long seed;

  /**
   * @param targetArity the mean community size aimed at (>= 2)
   * @param seed random seed of the Leiden runs
   */
  public LeidenClustering(int targetArity, long seed) {
    if (targetArity < 2) {
      throw new IllegalArgumentException("target arity must be >= 2, got " + targetArity);
    }
    this.targetArity = targetArity;
    this.seed = seed;
  }

  /** The outcome of clustering one level. */
  public record Result(int[] assignment, int communities, double resolution, double quality) {}

  /**
   * Clusters the members of a kNN graph; returns a dense community id per member. The number of
   * communities aimed at is {@code n / targetArity}, but never fewer than {@code min(targetArity, n / 2)}:
   * near the top of the tree this leaves the root about {@code targetArity} children instead of two or
   * three, so the overview names the knowledge base's main topics.
   */
  public Result cluster(KnnGraph knn) {
    int n = knn.size();
    if (n <= 1) {
      return new Result(new int[n], n, 0, 0);
    }
    return search(knn, target(n));
  }

  /** The number of communities {@link #cluster} aims at for {@code n} members. */
  double target(int n) {
    return Math.max(n / (double) targetArity, Math.min(targetArity, n / 2.0));
  }

  /**
   * Whether {@code communities} for {@code n} members is within a quarter of {@link #target} (at least one
   * community either way): close enough that a resolution search would not be worth re-forming a level for.
   */
  boolean nearTarget(int communities, int n) {
    double t = target(n);
    return Math.abs(communities - t) <= Math.max(1, t / 4);
  }

  private Result search(KnnGraph knn, double target) {
    int n = knn.size();
    if (n <= 1) {
      return new Result(new int[n], n, 0, 0);
    }
    Network network = network(knn);
    double lo = Math.log(1e-4);
    double hi = Math.log(1.0);
    Result best = null;
    boolean large = n > LARGE_LEVEL;
    for (int step = 0; step < SEARCH_STEPS; step++) {
      double mid = (lo + hi) / 2;
      Result r = run(network, Math.exp(mid), large ? 1 : ITERATIONS);
      if (best == null || Math.abs(r.communities - target) < Math.abs(best.communities - target)) {
        best = r;
      }
      if (r.communities < target) {
        lo = mid; // too few communities: raise the resolution
      } else if (r.communities > target) {
        hi = mid;
      } else {
        break;
      }
    }
    return large ? run(network, best.resolution(), ITERATIONS) : best;
  }

  /**
   * Improves an existing clustering with Leiden at a fixed CPM resolution (the building block of an
   * incremental rebuild: {@code IncrementalCPMClusteringAlgorithm.improveClustering}).
   *
   * @param initial a community per node (any non-negative ids)
   */
  public Result improve(Network network, double resolution, int[] initial) {
    return improve(network, resolution, initial, Integer.MAX_VALUE, Double.NEGATIVE_INFINITY);
  }

  /**
   * As {@link #improve(Network, double, int[])}, keeping the old members where they started unless Leiden's
   * improvement is worth more than {@code margin} (docs/adr/0047-re-clustering-margin.md): when its CPM quality
   * (as {@code calcQuality} gives it, normalised by the network's edge weight) exceeds that of
   * {@link KeptCommunities#of} by {@code margin} or less, the latter is the result. {@code -Infinity} keeps
   * Leiden's improvement always, as the method above does.
   *
   * @param initial a community per node: old members' numbered below {@code firstNew}, new members' from it on
   * @param firstNew the first community of {@code initial} holding a new member ({@link Integer#MAX_VALUE}: none)
   */
  public Result improve(Network network, double resolution, int[] initial, int firstNew, double margin) {
    LeidenAlgorithm leiden = new LeidenAlgorithm(resolution, ITERATIONS,
        LeidenAlgorithm.DEFAULT_RANDOMNESS, new Random(seed));
    Clustering clustering = new Clustering(initial.clone());
    leiden.improveClustering(network, clustering);
    if (margin != Double.NEGATIVE_INFINITY) {
      Clustering kept = new Clustering(KeptCommunities.of(initial, firstNew, clustering.getClusters()));
      if (leiden.calcQuality(network, clustering) - leiden.calcQuality(network, kept) <= margin) {
        clustering = kept;
      }
    }
    clustering.orderClustersByNNodes();
    return new Result(clustering.getClusters(), clustering.getNClusters(), resolution,
        leiden.calcQuality(network, clustering));
  }

  /** Runs Leiden once at a fixed CPM resolution. */
  public Result run(Network network, double resolution) {
    return run(network, resolution, ITERATIONS);
  }

  private Result run(Network network, double resolution, int iterations) {
    LeidenAlgorithm leiden = new LeidenAlgorithm(resolution, iterations,
        LeidenAlgorithm.DEFAULT_RANDOMNESS, new Random(seed));
    Clustering clustering = leiden.findClustering(network);
    clustering.orderClustersByNNodes();
    return new Result(clustering.getClusters(), clustering.getNClusters(), resolution,
        leiden.calcQuality(network, clustering));
  }

  /** The symmetrised, weighted network of a kNN graph, for Leiden. */
  public static Network network(KnnGraph knn) {
    int n = knn.size();
    int[] offsets = knn.offsets();
    int[] neighbours = knn.neighbors();
    float[] edgeWeights = knn.weights();
    int[] deg = new int[n];
    // Collect undirected neighbour sets: each directed edge (i, j) contributes to rows i and j.
    int[][] rows = new int[n][];
    float[][] rowW = new float[n][];
    int[] fill = new int[n];
    for (int i = 0; i < n; i++) {
      for (int e = offsets[i]; e < offsets[i + 1]; e++) {
        deg[i]++;
        deg[neighbours[e]]++;
      }
    }
    for (int i = 0; i < n; i++) {
      rows[i] = new int[deg[i]];
      rowW[i] = new float[deg[i]];
    }
    for (int i = 0; i < n; i++) {
      for (int e = offsets[i]; e < offsets[i + 1]; e++) {
        int j = neighbours[e];
        float w = edgeWeights[e];
        rows[i][fill[i]] = j;
        rowW[i][fill[i]++] = w;
        rows[j][fill[j]] = i;
        rowW[j][fill[j]++] = w;
      }
    }
    int[][] uniq = new int[n][];
    double[][] uniqW = new double[n][];
    for (int i = 0; i < n; i++) {
      unique(i, rows[i], rowW[i], uniq, uniqW);
    }
    long[] first = new long[n + 1];
    int total = 0;
    for (int i = 0; i < n; i++) {
      first[i] = total;
      total += uniq[i].length;
    }
    first[n] = total;
    LargeIntArray neighbors = new LargeIntArray(total);
    LargeDoubleArray weights = new LargeDoubleArray(total);
    long pos = 0;
    for (int i = 0; i < n; i++) {
      for (int t = 0; t < uniq[i].length; t++) {
        neighbors.set(pos, uniq[i][t]);
        weights.set(pos, uniqW[i][t]);
        pos++;
      }
    }
    return new Network(n, false, first, neighbors, weights, false);
  }

  /**
   * Row {@code i} of the network: the distinct neighbours in {@code row}, ascending, each with the weight of its
   * first occurrence (at least {@link #MIN_WEIGHT}). Sorting each neighbour with its position packed into one long
   * orders them as a stable sort by neighbour does, without boxing.
   */
  private static void unique(int i, int[] row, float[] w, int[][] uniq, double[][] uniqW) {
    int d = row.length;
    long[] keyed = new long[d];
    for (int t = 0; t < d; t++) {
      keyed[t] = (long) row[t] << 32 | t; // neighbours and positions are not negative
    }
    Arrays.sort(keyed);
    int[] u = new int[d];
    double[] uw = new double[d];
    int m = 0;
    for (long k : keyed) {
      int j = (int) (k >>> 32);
      if (m > 0 && u[m - 1] == j) {
        continue;
      }
      u[m] = j;
      uw[m++] = Math.max(MIN_WEIGHT, w[(int) k]);
    }
    uniq[i] = Arrays.copyOf(u, m);
    uniqW[i] = Arrays.copyOf(uw, m);
  }
}

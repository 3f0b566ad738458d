package dev.setree.internal.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Intentional clustering: a retrieval-time selection step for prompts that need several facts (the second
 * source document, {@code shared/seeds/002}; docs/adr/0009-intentional-clustering.md). It changes which
 * candidates are selected, never their scores.
 *
 * <ol>
 *   <li>{@link #clusterCandidates}: clusters are the connected components (union-find with path
 *       compression and union by size) of the candidate pool over edges whose weight is at least a floor;
 *       each cluster lists its members by descending score, its representative is the best member, its
 *       seed score the representative's score; clusters are numbered densely by descending seed score.
 *   <li>{@link #packWithClusters}: stage 1 takes the representative of each of the best
 *       {@code diversityTarget} clusters; with {@code fallbackToScore} stage 1 ends at the first
 *       representative that does not fit, otherwise that cluster is skipped and the next one tried. Stage 2
 *       fills the rest of the budget by score, skipping what is in and what does not fit.
 * </ol>
 * Candidates are local indexes {@code 0..n-1}; ties are broken by the smaller index throughout.
 */
public final class IntentionalClustering {
  private IntentionalClustering() {}

  /**
   * One cluster.
   *
   * @param id dense id, 0 for the cluster with the best seed score
   * @param members candidate indexes by descending score
   * @param representative the best member
   * @param seedScore the representative's score
   */
  public record Cluster(int id, int[] members, int representative, float seedScore) {}

  /**
   * Forms clusters as connected components over edges of weight >= {@code edgeWeightFloor}.
   *
   * @param scores one score per candidate
   * @param edgeSrc edge endpoints (candidate indexes), parallel to {@code edgeDst} and {@code edgeWeight}
   */
  public static List<Cluster> clusterCandidates(float[] scores, int[] edgeSrc, int[] edgeDst, float[] edgeWeight,
      float edgeWeightFloor) {
    int n = scores.length;
    if (edgeSrc.length != edgeDst.length || edgeSrc.length != edgeWeight.length) {
      throw new IllegalArgumentException("edge arrays differ in length");
    }
    int[] parent = new int[n];
    int[] size = new int[n];
    for (int i = 0; i < n; i++) {
      parent[i] = i;
      size[i] = 1;
    }
    for (int e = 0; e < edgeSrc.length; e++) {
      if (edgeWeight[e] >= edgeWeightFloor) {
        int a = find(parent, edgeSrc[e]);
        int b = find(parent, edgeDst[e]);
        if (a != b) {
          if (size[a] < size[b]) {
            int t = a;
            a = b;
            b = t;
          }
          parent[b] = a;
          size[a] += size[b];
        }
      }
    }
    Integer[] byScore = order(scores);
    int[] clusterOfRoot = new int[n];
    Arrays.fill(clusterOfRoot, -1);
    List<List<Integer>> members = new ArrayList<>();
    for (int i : byScore) {
      int r = find(parent, i);
      if (clusterOfRoot[r] < 0) {
        clusterOfRoot[r] = members.size();
        members.add(new ArrayList<>());
      }
      members.get(clusterOfRoot[r]).add(i);
    }
    // Visiting candidates by descending score creates clusters in descending seed-score order.
    List<Cluster> out = new ArrayList<>(members.size());
    for (int c = 0; c < members.size(); c++) {
      int[] m = members.get(c).stream().mapToInt(Integer::intValue).toArray();
      out.add(new Cluster(c, m, m[0], scores[m[0]]));
    }
    return out;
  }

  /**
   * Edges of every pair of candidate leaves weighted by <em>tree affinity</em> {@code 1 / h}, h the number of
   * levels from the deeper of the two up to their lowest common ancestor (1 for siblings): the tree's own
   * neighbourhoods as the similarity graph (docs/adr/0009-intentional-clustering.md).
   *
   * @param leaves candidate leaf indexes of {@code tree}
   * @return {@code {src, dst}} as int arrays and the weights, as an {@link Edges}
   */
  public static Edges treeAffinityEdges(Tree tree, int[] leaves) {
    int n = leaves.length;
    int[][] chains = new int[n][];
    for (int i = 0; i < n; i++) {
      chains[i] = ancestors(tree, leaves[i]);
    }
    int pairs = n * (n - 1) / 2;
    int[] src = new int[pairs];
    int[] dst = new int[pairs];
    float[] w = new float[pairs];
    int e = 0;
    for (int i = 0; i < n; i++) {
      for (int j = i + 1; j < n; j++) {
        src[e] = i;
        dst[e] = j;
        w[e++] = affinity(chains[i], chains[j]);
      }
    }
    return new Edges(src, dst, w);
  }

  /**
   * Candidate-local edges.
   *
   * @param src one endpoint per edge
   * @param dst the other endpoint
   * @param weight the edge weight
   */
  public record Edges(int[] src, int[] dst, float[] weight) {}

  /** Ancestors of a node, parent first, root last. */
  static int[] ancestors(Tree tree, int v) {
    int[] buf = new int[16];
    int k = 0;
    for (int a = tree.parent(v); a >= 0; a = tree.parent(a)) {
      if (k == buf.length) {
        buf = Arrays.copyOf(buf, k * 2);
      }
      buf[k++] = a;
    }
    return Arrays.copyOf(buf, k);
  }

  /** {@code 1 / h} for two ancestor chains (parent first); see {@link #treeAffinityEdges}. */
  public static float affinity(int[] a, int[] b) {
    // The chains share a suffix up to the lowest common ancestor.
    int i = a.length - 1;
    int j = b.length - 1;
    while (i >= 0 && j >= 0 && a[i] == b[j]) {
      i--;
      j--;
    }
    return 1f / (Math.max(i, j) + 2);
  }

  private static int find(int[] parent, int x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }

  private static Integer[] order(float[] scores) {
    Integer[] o = new Integer[scores.length];
    for (int i = 0; i < o.length; i++) {
      o[i] = i;
    }
    Arrays.sort(o, (a, b) -> scores[a] != scores[b] ? Float.compare(scores[b], scores[a]) : Integer.compare(a, b));
    return o;
  }

  /**
   * Packs candidates within a budget in two stages (see the class comment).
   *
   * @param clusters from {@link #clusterCandidates}, in id order
   * @param scores one score per candidate (for stage 2's order)
   * @param cost tokens of each candidate
   * @return the selected candidates, in selection order
   */
  public static int[] packWithClusters(List<Cluster> clusters, float[] scores, int[] cost, int budget,
      int diversityTarget, boolean fallbackToScore) {
    if (diversityTarget < 0) {
      throw new IllegalArgumentException("cluster_diversity_target must be >= 0, got " + diversityTarget);
    }
    int n = scores.length;
    boolean[] in = new boolean[n];
    int[] out = new int[n];
    int count = 0;
    int used = 0;
    int covered = 0;
    for (Cluster c : clusters) {
      if (covered >= diversityTarget) {
        break;
      }
      int rep = c.representative();
      if (used + cost[rep] <= budget) {
        in[rep] = true;
        out[count++] = rep;
        used += cost[rep];
        covered++;
      } else if (fallbackToScore) {
        break;
      }
    }
    for (int i : order(scores)) {
      if (!in[i] && used + cost[i] <= budget) {
        in[i] = true;
        out[count++] = i;
        used += cost[i];
      }
    }
    return Arrays.copyOf(out, count);
  }
}

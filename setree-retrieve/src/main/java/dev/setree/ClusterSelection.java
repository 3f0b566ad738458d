package dev.setree;

import dev.setree.internal.core.ContextFormat;
import dev.setree.internal.core.IntentionalClustering;
import dev.setree.internal.core.LeafRelevance;
import dev.setree.internal.core.Ranking;
import dev.setree.internal.core.Tree;
import java.util.List;

/**
 * Intentional clustering adapted to SETree (docs/adr/0009-intentional-clustering.md): the candidate pool is
 * the best {@value #POOL} leaves by relevance; an edge links two candidates with weight {@code 1 / h}, h the
 * number of levels from the deeper of them up to their lowest common ancestor in the tree (tree affinity:
 * the clusters are the tree's own neighbourhoods, not cosine components, which on our data form one big
 * cluster). {@link IntentionalClustering} then forms the clusters and packs in two stages.
 */
final class ClusterSelection {
  /** Candidates considered (the latency gate is measured at 50, 100 and 200). */
  static final int POOL = 50;

  /** How far above the best relevance a promoted representative is placed, per rank. */
  static final float PROMOTION_STEP = 1e-4f;

  private final float edgeWeightFloor;
  private final int diversityTarget;
  private final boolean fallbackToScore;

  ClusterSelection(float edgeWeightFloor, int diversityTarget, boolean fallbackToScore) {
    this.edgeWeightFloor = edgeWeightFloor;
    this.diversityTarget = diversityTarget;
    this.fallbackToScore = fallbackToScore;
  }

  /** The candidate pool (leaf indexes, best first) and its clusters. */
  record Pool(int[] leaves, float[] scores, List<IntentionalClustering.Cluster> clusters) {}

  Pool pool(Tree tree, float[] relevance, int size) {
    int n = Math.min(size, relevance.length);
    int[] order = Ranking.descending(relevance);
    int[] leaves = new int[n];
    float[] scores = new float[n];
    for (int i = 0; i < n; i++) {
      leaves[i] = order[i];
      scores[i] = relevance[order[i]];
    }
    return pool(tree, leaves, scores);
  }

  private Pool pool(Tree tree, int[] leaves, float[] scores) {
    IntentionalClustering.Edges edges = IntentionalClustering.treeAffinityEdges(tree, leaves);
    return new Pool(leaves, scores, IntentionalClustering.clusterCandidates(scores, edges.src(), edges.dst(),
        edges.weight(), edgeWeightFloor));
  }

  /** For the walk: the stage-1 representatives lead; everything else keeps its relevance order. */
  float[] promoteRepresentatives(Tree tree, float[] relevance) {
    Pool p = pool(tree, relevance, POOL);
    float max = Float.NEGATIVE_INFINITY;
    for (float r : relevance) {
      max = Math.max(max, r);
    }
    float[] out = relevance.clone();
    int k = Math.min(diversityTarget, p.clusters().size());
    for (int c = 0; c < k; c++) {
      // Just above the best relevance, first cluster first: the order changes, the scale does not (the
      // overview's breadth reads these values).
      out[p.leaves()[p.clusters().get(c).representative()]] = max + PROMOTION_STEP * (k - c);
    }
    return out;
  }

  /**
   * {@link #promoteRepresentatives(Tree, float[])} on candidate-driven relevance: the pool is the best
   * candidates, and only candidates' values change.
   */
  LeafRelevance promoteRepresentatives(Tree tree, LeafRelevance relevance) {
    if (relevance.isExact()) {
      throw new IllegalArgumentException("exact relevance: use the float[] form");
    }
    int[] cand = relevance.candidateLeaves();
    float[] values = relevance.candidateValues();
    int[] order = Ranking.descending(values);
    int n = Math.min(POOL, cand.length);
    int[] leaves = new int[n];
    float[] scores = new float[n];
    for (int i = 0; i < n; i++) {
      leaves[i] = cand[order[i]];
      scores[i] = values[order[i]];
    }
    Pool p = pool(tree, leaves, scores);
    float[] out = values.clone();
    if (n == 0) {
      return relevance;
    }
    float max = Math.max(scores[0], relevance.others());
    int k = Math.min(diversityTarget, p.clusters().size());
    for (int c = 0; c < k; c++) {
      out[order[p.clusters().get(c).representative()]] = max + PROMOTION_STEP * (k - c);
    }
    return relevance.withValues(out);
  }

  /** For flat lists: the two-stage pack over the pool, then every other leaf by relevance. */
  int[] packOrder(Tree tree, float[] relevance, int budget, ContextFormat format) {
    Pool p = pool(tree, relevance, POOL);
    int n = p.leaves().length;
    int[] cost = new int[n];
    for (int i = 0; i < n; i++) {
      cost[i] = format.cost(tree, p.leaves()[i]);
    }
    int[] chosen = IntentionalClustering.packWithClusters(p.clusters(), p.scores(), cost, budget, diversityTarget,
        fallbackToScore);
    boolean[] first = new boolean[relevance.length];
    int[] order = new int[relevance.length];
    int k = 0;
    for (int c : chosen) {
      order[k++] = p.leaves()[c];
      first[p.leaves()[c]] = true;
    }
    for (int v : Ranking.descending(relevance)) {
      if (!first[v]) {
        order[k++] = v;
      }
    }
    return order;
  }
}

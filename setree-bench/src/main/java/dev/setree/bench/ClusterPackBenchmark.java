package dev.setree.bench;

import dev.setree.internal.core.IntentionalClustering;
import dev.setree.internal.core.Tree;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Intentional clustering's gate: cluster + pack of {@code candidates} leaves of a 10,000-leaf tree, with
 * tree-affinity edges between every pair (as setree-retrieve's ClusterSelection builds them). Run with
 * {@code -bm sample} for percentiles (the gate: p99 < 5 ms at 200 candidates).
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ClusterPackBenchmark {
  @Param({"50", "100", "200"})
  int candidates;

  Tree tree;
  int[] leaves;
  float[] scores;
  int[] cost;

  @Setup
  public void setup() {
    Random r = new Random(11);
    tree = WalkBenchmark.randomTree(10_000, r);
    leaves = new int[candidates];
    scores = new float[candidates];
    cost = new int[candidates];
    for (int i = 0; i < candidates; i++) {
      leaves[i] = r.nextInt(tree.leafCount());
      scores[i] = 1f - i / (float) candidates;
      cost[i] = 10 + r.nextInt(30);
    }
  }

  @Benchmark
  public int[] clusterAndPack() {
    IntentionalClustering.Edges edges = IntentionalClustering.treeAffinityEdges(tree, leaves);
    List<IntentionalClustering.Cluster> clusters =
        IntentionalClustering.clusterCandidates(scores, edges.src(), edges.dst(), edges.weight(), 0.4f);
    return IntentionalClustering.packWithClusters(clusters, scores, cost, 1024, 3, true);
  }
}

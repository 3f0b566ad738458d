package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.Fact;
import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.internal.core.Vectors;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The incremental rebuild over levels whose kNN graph is the approximate one (NN-descent forced). */
class ApproximateKnnMaintenanceTest {
  final HashEmbedder embedder = new HashEmbedder(48);
  final SimpleTokenCounter counter = new SimpleTokenCounter();
  final BuildOptions approximate = BuildOptions.DEFAULTS.withExactKnnLimit(0);

  /**
   * Random inserts and deletes over a 1,500-leaf base built on NN-descent graphs: every leaf is in the tree
   * once, every level-0 row lists k live neighbours with their exact similarities, every new leaf's row is
   * its exact k nearest, and the level-0 graph keeps a recall >= 0.95 of the exact one.
   */
  @Test
  void newLeavesGetExactRowsAndTheGraphStaysGood() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    List<Fact> base = Corpora.synthetic(1500, seed);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), approximate)
        .build(base, BuildProgress.NONE);
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    Maintainer maintainer = new Maintainer(embedder, counter, new ExtractiveSummarizer(), approximate, 60);
    Set<String> expected = new LinkedHashSet<>();
    base.forEach(f -> expected.add(f.id()));
    List<Fact> pool = Corpora.synthetic(60, seed + 1);
    int next = 0;
    for (int run = 0; run < 6; run++) {
      List<Mutation> batch = new ArrayList<>();
      Set<String> inserted = new LinkedHashSet<>();
      for (int i = 0; i < 8; i++) {
        if (r.nextInt(3) > 0) {
          Fact f = pool.get(next++);
          batch.add(MaintainerTest.insert("new-" + f.id(), f.text()));
          expected.add("new-" + f.id());
          inserted.add("new-" + f.id());
        } else {
          List<String> ids = new ArrayList<>(expected);
          String victim = ids.get(r.nextInt(ids.size()));
          batch.add(MaintainerTest.delete(victim));
          expected.remove(victim);
          inserted.remove(victim);
        }
      }
      Maintainer.Result res = maintainer.run(tree, oracle, batch);
      tree = res.tree();
      oracle = res.hierarchy();
      String ctx = "seed=" + seed + " run " + run + " (" + res.path() + ")";
      new MaintainerTest().checkTree(tree, expected, ctx);
      checkLevel0(oracle.levels().get(0), inserted, ctx);
    }
  }

  private void checkLevel0(HierarchyState.Level level, Set<String> inserted, String ctx) {
    int n = level.size();
    int dim = embedder.dimension();
    int k = BuildOptions.DEFAULTS.k();
    KnnGraph g = new KnnGraph(level.knnOffsets(), level.knnNeighbors(), level.knnWeights());
    NnDescentTest.checkRows(g, level.centroids(), dim, k);
    KnnGraph exact = ExactKnn.allPairs(level.centroids(), n, dim, k);
    for (int i = 0; i < n; i++) {
      if (inserted.contains(level.memberIds()[i])) {
        assertArrayEquals(Arrays.copyOfRange(exact.neighbors(), i * k, (i + 1) * k),
            Arrays.copyOfRange(g.neighbors(), g.offsets()[i], g.offsets()[i + 1]),
            ctx + ": the new leaf " + level.memberIds()[i] + " lists its exact nearest");
      }
    }
    double recall = NnDescentTest.recall(exact, g);
    assertTrue(recall >= 0.95, ctx + ": recall " + recall);
    assertEquals(n + 1, level.knnOffsets().length, ctx);
    assertTrue(Vectors.dot(level.centroids(), 0, level.centroids(), 0, dim) > 0.99f, ctx);
  }
}

package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.Fact;
import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.LeafNeighbours;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Leiden quality of incrementally maintained levels against a full rebuild over the same leaves. */
class MaintenanceQualityTest {

  /**
   * After 500 single inserts into a 2,000-leaf base, each level's modularity stays within 5% of a full
   * rebuild's (for the levels both trees have, below the root wrap); arity and depth are printed.
   */
  @Test
  void fiveHundredInsertsStayCloseToAFullRebuild() {
    HashEmbedder embedder = new HashEmbedder(48);
    SimpleTokenCounter counter = new SimpleTokenCounter();
    List<Fact> base = Corpora.synthetic(2000, 21);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(base, BuildProgress.NONE);
    Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    List<Fact> all = new ArrayList<>(base);
    List<Fact> extra = Corpora.synthetic(500, 22);
    for (int i = 0; i < extra.size(); i++) {
      Fact f = new Fact("ins" + i, extra.get(i).text() + " later", null);
      all.add(f);
      Maintainer.Result r = m.run(tree, oracle, List.of(new Mutation(0, Mutation.Kind.INSERT, f.id(), f.text(), null)));
      tree = r.tree();
      oracle = r.hierarchy();
    }
    BuildResult full = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(all, BuildProgress.NONE);
    assertEquals(2500, tree.leafCount());
    int levels = Math.min(oracle.levels().size(), full.hierarchy().levels().size());
    StringBuilder report = new StringBuilder();
    report.append(String.format("incremental: depth %d, mean arity %.2f, root arity %d; full: depth %d, mean arity %.2f,"
            + " root arity %d%n", tree.depth(), arity(tree), tree.childCount(tree.root()), full.tree().depth(),
        arity(full.tree()), full.tree().childCount(full.tree().root())));
    for (int l = 0; l < levels; l++) {
      HierarchyState.Level inc = oracle.levels().get(l);
      HierarchyState.Level ref = full.hierarchy().levels().get(l);
      double qi = Modularity.of(inc);
      double qf = Modularity.of(ref);
      report.append(String.format("level %d: incremental Q=%.4f (%d members, %s), full Q=%.4f (%d members, %s)%n", l,
          qi, inc.size(), shape(inc), qf, ref.size(), shape(ref)));
      boolean wrap = isWrap(inc) || isWrap(ref);
      if (!wrap) {
        assertTrue(qi >= 0.95 * qf, "level " + l + "\n" + report);
      }
    }
    System.out.print(report);
  }

  /**
   * A level 0 above the exact kNN limit patched from each new leaf's nearest old leaves (the nearest-leaf
   * index, no scan) keeps its graph as close to the exact 10-NN as the patch by scans, and its modularity within
   * 5% of a full rebuild's, over 300 runs of one insert (every third with a delete) into a 2,000-leaf base (exact
   * kNN limit 500).
   */
  @Test
  void nearestLeavesPatchAsWellAsScans() {
    HashEmbedder embedder = new HashEmbedder(48);
    SimpleTokenCounter counter = new SimpleTokenCounter();
    BuildOptions options = BuildOptions.DEFAULTS.withExactKnnLimit(500);
    List<Fact> base = Corpora.synthetic(2000, 31);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), options)
        .build(base, BuildProgress.NONE);
    List<Fact> extra = Corpora.synthetic(300, 32);
    double[] recall = new double[2];
    HierarchyState[] end = new HierarchyState[2];
    int[] asked = new int[1];
    for (int withIndex = 0; withIndex < 2; withIndex++) {
      Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), options, 60);
      boolean index = withIndex == 1;
      Maintainer.Result r = insertsAndDeletes(m, built, base, extra, (t, o) -> {
        if (!index) {
          return null;
        }
        asked[0]++;
        return LeafNeighbours.of(t, o);
      });
      recall[withIndex] = recallOfExact(r.tree(), r.hierarchy().levels().get(0), options.k());
      end[withIndex] = r.hierarchy();
    }
    BuildResult full = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), options)
        .build(afterInsertsAndDeletes(base, extra), BuildProgress.NONE);
    double qScan = Modularity.of(end[0].levels().get(0));
    double qNear = Modularity.of(end[1].levels().get(0));
    double qFull = Modularity.of(full.hierarchy().levels().get(0));
    String report = String.format("level 0 with the exact kNN limit at 500: 10-NN recall by scans %.4f, by nearest"
        + " leaves %.4f (full build %.4f); modularity %.4f / %.4f (full %.4f)%n", recall[0], recall[1],
        recallOfExact(full.tree(), full.hierarchy().levels().get(0), options.k()), qScan, qNear, qFull);
    System.out.print(report);
    assertEquals(extra.size(), asked[0], "the index is asked for once per run");
    assertEquals(2000 - 100 + 300, end[1].levels().get(0).size());
    assertTrue(recall[1] >= recall[0] - 0.005, report);
    assertTrue(qNear >= 0.95 * qFull, report);
  }

  /**
   * The runs of the patch tests: for each extra fact, one run inserting it as {@code ins<i>} (its text and " later"),
   * every third with a delete of a base fact, the rows that listed it repaired; {@code index} gives the run's
   * nearest-leaf index of the tree and oracle it starts from (or null). Returns the last run's result.
   */
  static Maintainer.Result insertsAndDeletes(Maintainer m, BuildResult built, List<Fact> base, List<Fact> extra,
      java.util.function.BiFunction<Tree, HierarchyState, LeafNeighbours> index) {
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    Maintainer.Result r = null;
    for (int i = 0; i < extra.size(); i++) {
      Tree t = tree;
      HierarchyState o = oracle;
      List<Mutation> batch = new ArrayList<>(List.of(
          new Mutation(0, Mutation.Kind.INSERT, "ins" + i, extra.get(i).text() + " later", null)));
      if (i % 3 == 0) {
        batch.add(new Mutation(1, Mutation.Kind.DELETE, base.get(7 * i % base.size()).id(), null, null));
      }
      r = m.run(tree, oracle, batch, () -> index.apply(t, o));
      tree = r.tree();
      oracle = r.hierarchy();
    }
    return r;
  }

  /** The facts after {@link #insertsAndDeletes}: a full build of them is the reference. */
  static List<Fact> afterInsertsAndDeletes(List<Fact> base, List<Fact> extra) {
    List<Fact> all = new ArrayList<>(base);
    for (int i = 0; i < extra.size(); i += 3) {
      all.remove(base.get(7 * i % base.size()));
    }
    for (int i = 0; i < extra.size(); i++) {
      all.add(new Fact("ins" + i, extra.get(i).text() + " later", null));
    }
    return all;
  }

  /** Mean share of each member's exact k nearest (by its leaf embedding) that its row in {@code level0} lists. */
  private static double recallOfExact(Tree tree, HierarchyState.Level level0, int k) {
    int n = level0.size();
    int dim = tree.dimension();
    float[] v = new float[n * dim];
    for (int i = 0; i < n; i++) {
      System.arraycopy(tree.embedding(tree.indexOf(level0.memberIds()[i])), 0, v, i * dim, dim);
    }
    return recallOfExact(level0, v, dim, k);
  }

  /** Mean share of each member's exact k nearest (by its row of {@code rows}) that its row in {@code level} lists. */
  static double recallOfExact(HierarchyState.Level level, float[] rows, int dim, int k) {
    int n = level.size();
    KnnGraph exact = ExactKnn.allPairs(rows, n, dim, k);
    long found = 0;
    long total = 0;
    for (int i = 0; i < n; i++) {
      java.util.Set<Integer> row = new java.util.HashSet<>();
      for (int e = level.knnOffsets()[i]; e < level.knnOffsets()[i + 1]; e++) {
        row.add(level.knnNeighbors()[e]);
      }
      for (int e = exact.offsets()[i]; e < exact.offsets()[i + 1]; e++) {
        found += row.contains(exact.neighbors()[e]) ? 1 : 0;
        total++;
      }
    }
    return found / (double) total;
  }

  /** Communities of two or more, and singletons, of a level. */
  private static String shape(HierarchyState.Level level) {
    java.util.Map<Integer, Integer> size = new java.util.HashMap<>();
    for (int a : level.assignment()) {
      size.merge(a, 1, Integer::sum);
    }
    long singles = size.values().stream().filter(s -> s == 1).count();
    return (size.size() - singles) + " communities + " + singles + " singletons";
  }

  private static boolean isWrap(HierarchyState.Level level) {
    for (int a : level.assignment()) {
      if (a != 0) {
        return false;
      }
    }
    return true;
  }

  private static double arity(Tree t) {
    int internal = t.size() - t.leafCount();
    return internal == 0 ? 0 : (t.size() - 1) / (double) internal;
  }
}

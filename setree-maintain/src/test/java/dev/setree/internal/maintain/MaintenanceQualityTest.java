package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.Fact;
import dev.setree.internal.core.HierarchyState;
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

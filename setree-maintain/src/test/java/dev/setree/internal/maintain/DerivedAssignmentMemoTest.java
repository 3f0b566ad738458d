package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A run's levels carry the store's memo that their assignment is the one derived from their parent ids
 * ({@link ParentPreservation#carryDerived}) when the oracle's levels had it, and then it is so.
 */
class DerivedAssignmentMemoTest {
  private final HashEmbedder embedder = new HashEmbedder(32);
  private final SimpleTokenCounter counter = new SimpleTokenCounter();

  /**
   * Over twelve runs of random inserts and deletes into 1,500 leaves, each level a run makes from a level remembered
   * as derived (as a store remembers a level once it checked it) is remembered as derived, and its assignment is the
   * parent ids numbered in order of first appearance, no id shared by two communities; one made from a level not
   * known to be derived carries no memo. From an oracle whose levels are all remembered as not derived, a run's
   * levels carry none.
   */
  @Test
  void aRunsLevelIsRememberedDerivedWhenTheOraclesWas() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(1500, seed), BuildProgress.NONE);
    Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    List<Fact> pool = Corpora.synthetic(60, seed + 1);
    // A build numbers its communities as the clustering did; a run's levels are numbered in order of first
    // appearance. A store checks a level once and remembers it: done here for the first run's levels.
    Maintainer.Result first = m.run(built.tree(), built.hierarchy(),
        List.of(new Mutation(0, Mutation.Kind.INSERT, "first", pool.get(0).text() + " first", null)));
    for (HierarchyState.Level l : first.hierarchy().levels()) {
      l.rememberAssignmentDerived(Arrays.equals(derived(l.parentIds()), l.assignment()));
    }
    assertEquals(Boolean.TRUE, first.hierarchy().levels().get(0).assignmentDerived(), "seed " + seed);
    Tree tree = first.tree();
    HierarchyState oracle = first.hierarchy();
    int made = 0;
    for (int run = 0; run < 12; run++) {
      List<Mutation> mutations = new ArrayList<>();
      Set<String> deleted = new HashSet<>();
      for (int x = 0; x < 1 + r.nextInt(4); x++) {
        Fact f = pool.get(r.nextInt(pool.size()));
        String gone = tree.id(r.nextInt(tree.leafCount()));
        mutations.add(r.nextInt(3) == 0 && deleted.add(gone)
            ? new Mutation(0, Mutation.Kind.DELETE, gone, null, null)
            : new Mutation(0, Mutation.Kind.INSERT, "n" + run + "-" + x, f.text() + " " + run, null));
      }
      Maintainer.Result res = m.run(tree, oracle, mutations);
      List<HierarchyState.Level> levels = res.hierarchy().levels();
      for (int lvl = 0; lvl < Math.min(levels.size(), oracle.levels().size()); lvl++) {
        HierarchyState.Level l = levels.get(lvl);
        HierarchyState.Level was = oracle.levels().get(lvl);
        String where = "run " + run + ", level " + lvl + ", seed " + seed;
        if (l == was) {
          continue; // kept from the oracle, with its memo
        }
        if (Boolean.TRUE.equals(was.assignmentDerived())) {
          assertEquals(Boolean.TRUE, l.assignmentDerived(), where);
          assertArrayEquals(derived(l.parentIds()), l.assignment(), where);
          made++;
        } else {
          assertNull(l.assignmentDerived(), where);
          l.rememberAssignmentDerived(Arrays.equals(derived(l.parentIds()), l.assignment()));
        }
      }
      tree = res.tree();
      oracle = res.hierarchy();
    }
    assertTrue(made >= 12, "levels made by the runs: " + made + ", seed " + seed);

    for (HierarchyState.Level l : oracle.levels()) {
      l.rememberAssignmentDerived(false);
    }
    Maintainer.Result res = m.run(tree, oracle,
        List.of(new Mutation(0, Mutation.Kind.INSERT, "last", pool.get(0).text() + " last", null)));
    int unknown = 0;
    for (int lvl = 0; lvl < res.hierarchy().levels().size(); lvl++) {
      HierarchyState.Level l = res.hierarchy().levels().get(lvl);
      if (lvl >= oracle.levels().size() || l != oracle.levels().get(lvl)) {
        assertNull(l.assignmentDerived(), "level " + lvl + " made from an oracle not derived, seed " + seed);
        unknown++;
      }
    }
    assertTrue(unknown >= 1, "no level made by the last run, seed " + seed);
  }

  /** The parent ids' communities numbered in order of first appearance: the store's derived assignment. */
  private static int[] derived(String[] parentIds) {
    Map<String, Integer> number = new HashMap<>();
    int[] out = new int[parentIds.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = number.computeIfAbsent(parentIds[i], k -> number.size());
    }
    return out;
  }
}

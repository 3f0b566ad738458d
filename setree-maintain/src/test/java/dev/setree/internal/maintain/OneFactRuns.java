package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.spi.Fact;
import java.util.List;

/** One-fact maintenance runs for tests: each fact inserted by a run of its own, from a build on. */
final class OneFactRuns {
  private OneFactRuns() {}

  /** What a test looks at after run {@code i}. */
  interface After {
    void accept(int i, Maintainer.Result result);
  }

  /**
   * Inserts each of {@code facts} (its text with {@code suffix}, under id {@code prefix + i}) by a run of
   * {@code m} of its own, over the tree and oracle of the run before, from {@code built}'s; returns the last run's
   * result.
   */
  static Maintainer.Result run(Maintainer m, BuildResult built, List<Fact> facts, String prefix, String suffix,
      After after) {
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    Maintainer.Result r = null;
    for (int i = 0; i < facts.size(); i++) {
      r = m.run(tree, oracle,
          List.of(new Mutation(0, Mutation.Kind.INSERT, prefix + i, facts.get(i).text() + suffix, null)));
      tree = r.tree();
      oracle = r.hierarchy();
      after.accept(i, r);
    }
    return r;
  }
}

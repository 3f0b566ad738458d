package dev.setree.internal.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeChanges;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.internal.maintain.BuildOptions;
import dev.setree.internal.maintain.BuildProgress;
import dev.setree.internal.maintain.BuildResult;
import dev.setree.internal.maintain.ExtractiveSummarizer;
import dev.setree.internal.maintain.Maintainer;
import dev.setree.internal.maintain.TreeBuilder;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The save's plan found from a run's change log alone ({@link LoggedNodeDiff}) where the log might not say enough:
 * a log that leaves out a node the run dropped is not trusted, and the parent of a dropped node is compared even
 * when the log does not list it. {@code ChangeLogPlanTest} checks the plans of real logs against full comparisons.
 */
class LoggedNodeDiffTest {
  private final HashEmbedder embedder = new HashEmbedder(48);
  private final SimpleTokenCounter counter = new SimpleTokenCounter();

  /** A one-or-few-fact run whose log the plan reads alone, which dropped an internal node and made none. */
  private record Dropping(Tree before, Tree after, TreeChanges log, int[] gone) {}

  private Dropping findDroppingRun() {
    List<Fact> base = Corpora.synthetic(600, 12);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(base, BuildProgress.NONE);
    Maintainer maintainer = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    List<Fact> pool = Corpora.synthetic(600, 13);
    for (int round = 0; round < 200; round++) {
      List<Mutation> batch = new ArrayList<>();
      for (int x = 0; x <= round % 3; x++) {
        Fact f = pool.get(3 * round + x);
        batch.add(new Mutation(0, Mutation.Kind.INSERT, "added-" + round + "-" + x, f.text(), null));
      }
      Maintainer.Result run = maintainer.run(tree, oracle, batch);
      NodeRows.Diff full = NodeRows.diff(tree, run.tree(), null);
      boolean madeInternal = false;
      for (int i = 0; i < full.numbered().length; i++) {
        madeInternal |= !run.tree().isLeaf(full.numbered()[i]);
      }
      if (full.gone().length > 0 && !madeInternal && LoggedNodeDiff.of(tree, run.tree(), run.changes()) != null) {
        return new Dropping(tree, run.tree(), run.changes(), full.gone());
      }
      tree = run.tree();
      oracle = run.hierarchy();
    }
    return null;
  }

  @Test
  void aLogWithoutANodeTheRunDroppedIsNotTrusted() {
    Dropping d = findDroppingRun();
    assertNotNull(d, "no insert-only run in 200 dropped an internal node and made none");
    List<String> kept = new ArrayList<>();
    for (String id : d.log().ids()) {
      if (d.after().indexOf(id) >= 0) {
        kept.add(id); // the dropped nodes left out
      }
    }
    TreeChanges partial = new TreeChanges(d.before(), kept.toArray(new String[0]), d.log().leafPrefix(), true);
    assertNull(LoggedNodeDiff.of(d.before(), d.after(), partial), "the counts of nodes do not add up");
    NodeRows.Diff full = NodeRows.diff(d.before(), d.after(), null);
    NodeRows.Diff fallback = NodeRows.diff(d.before(), d.after(), partial);
    assertFalse(fallback.byLog(), "the plan compared the trees");
    assertArrayEquals(full.gone(), fallback.gone(), "the rows deleted");
    assertArrayEquals(full.numbered(), fallback.numbered(), "the rows numbered");
  }

  @Test
  void theParentOfADroppedNodeIsComparedThoughTheLogDoesNotListIt() {
    Dropping d = findDroppingRun();
    assertNotNull(d, "no insert-only run in 200 dropped an internal node and made none");
    String[] dropped = Arrays.stream(d.gone()).mapToObj(o -> d.before().id(o)).toArray(String[]::new);
    TreeChanges onlyDropped = new TreeChanges(d.before(), dropped, d.log().leafPrefix(), true);
    NodeRows.Diff plan = LoggedNodeDiff.of(d.before(), d.after(), onlyDropped);
    assertNotNull(plan, "the new leaves are counted without the log, and the dropped nodes are listed");
    assertArrayEquals(d.gone(), plan.gone(), "the rows deleted");
    NodeRows.Diff full = NodeRows.diff(d.before(), d.after(), null);
    int checked = 0;
    for (int o : d.gone()) {
      int p = d.before().parent(o);
      int now = p < 0 ? -1 : d.after().indexOf(d.before().id(p));
      if (now >= 0 && Arrays.binarySearch(full.changed(), now) >= 0) {
        assertTrue(Arrays.binarySearch(plan.changed(), now) >= 0,
            "the parent " + d.before().id(p) + " of dropped node " + d.before().id(o) + " is compared");
        checked++;
      }
    }
    assertTrue(checked > 0, "a dropped node's parent stays with another row");
  }
}

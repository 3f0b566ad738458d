package dev.setree.internal.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A maintenance run's change log (ADR 0034) against the save's full comparison: the rows the save finds changed
 * by comparing only the logged nodes and the paths above them are exactly those it finds by comparing every
 * node, over random insert and delete batches of runs that continue their kept drafts, and over two runs
 * joined into one save; and after one new fact the log leaves most rows uncompared. The log's count of leading
 * leaves kept in place is exactly the count the two trees share.
 */
class ChangeLogPlanTest {
  private final HashEmbedder embedder = new HashEmbedder(48);
  private final SimpleTokenCounter counter = new SimpleTokenCounter();

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {11, 12, 13})
  void loggedPlanFindsTheRowsAFullComparisonFinds(long seed) {
    Random r = new Random(seed);
    List<Fact> base = Corpora.synthetic(600, seed);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(base, BuildProgress.NONE);
    Maintainer maintainer = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    List<String> present = new ArrayList<>();
    base.forEach(f -> present.add(f.id()));
    List<Fact> pool = Corpora.synthetic(400, seed + 1);
    int next = 0;
    int byLog = 0;
    for (int round = 0; round < 24; round++) {
      String at = "seed " + seed + " round " + round;
      List<Mutation> batch = new ArrayList<>();
      int size = round % 8 == 7 ? 40 : 1 + r.nextInt(4); // now and then a larger batch
      for (int x = 0; x < size; x++) {
        if (r.nextInt(3) == 0 && present.size() > 2) {
          batch.add(new Mutation(0, Mutation.Kind.DELETE, present.remove(r.nextInt(present.size())), null, null));
        } else {
          String id = "new" + round + "-" + x;
          batch.add(new Mutation(0, Mutation.Kind.INSERT, id, pool.get(next++).text(), null));
          present.add(id);
        }
      }
      Maintainer.Result run = maintainer.run(tree, oracle, batch);
      if (round % 5 == 4) { // a second run on top, saved with the first as one: the logs joined
        List<Mutation> more = List.of(new Mutation(0, Mutation.Kind.INSERT, "more" + round,
            pool.get(next++).text(), null));
        present.add("more" + round);
        run = run.then(maintainer.run(run.tree(), run.hierarchy(), more));
      }
      assertNotNull(run.changes(), at);
      assertSame(tree, run.changes().from(), at);
      if (assertSamePlan(tree, run.tree(), run.changes(), at)) {
        byLog++;
      }
      assertEquals(commonLeaves(tree, run.tree()), run.changes().leafPrefix(), at + ": the leaves kept in place");
      tree = run.tree();
      oracle = run.hierarchy();
    }
    assertTrue(byLog >= 4, byLog + " of 24 plans found from the log alone");
  }

  @Test
  void oneNewFactLeavesMostRowsUncompared() {
    List<Fact> base = Corpora.synthetic(1500, 7);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(base, BuildProgress.NONE);
    Maintainer maintainer = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Maintainer.Result run = maintainer.run(built.tree(), built.hierarchy(),
        List.of(new Mutation(0, Mutation.Kind.INSERT, "one-more", "Anna bakes sourdough bread on Sundays", null)));
    Tree after = run.tree();
    boolean[] kept = new boolean[built.tree().size()];
    java.util.Arrays.fill(kept, true); // one fact added, nothing gone
    boolean[] compared = run.changes().pathsOf(after, kept);
    int count = 0;
    for (boolean c : compared) {
      count += c ? 1 : 0;
    }
    assertTrue(count > 0 && count < after.size() / 10,
        count + " of " + after.size() + " rows compared after one new fact");
    int[] listed = run.changes().pathList(after, kept, 0); // the same nodes, as a list
    assertEquals(count, listed.length, "the list has each marked node once");
    for (int v : listed) {
      assertTrue(compared[v], "node " + v + " listed but not marked");
    }
    assertTrue(assertSamePlan(built.tree(), after, run.changes(), "one new fact"),
        "the plan after one new fact is found from the log alone");
    assertEquals(built.tree().leafCount(), run.changes().leafPrefix(), "every old leaf kept in place");
  }

  /** How many leading leaves {@code a} and {@code b} share: same id, text, time, tokens and embedding. */
  private static int commonLeaves(Tree a, Tree b) {
    int i = 0;
    while (i < a.leafCount() && i < b.leafCount() && a.id(i).equals(b.id(i)) && a.text(i).equals(b.text(i))
        && java.util.Objects.equals(a.time(i), b.time(i)) && a.tokens(i) == b.tokens(i)
        && java.util.Arrays.equals(a.embedding(i), b.embedding(i))) {
      i++;
    }
    return i;
  }

  /** Asserts that the logged plan writes the rows the full comparison finds; returns whether the log alone told. */
  private static boolean assertSamePlan(Tree before, Tree after, TreeChanges log, String at) {
    NodeRows.Diff full = NodeRows.diff(before, after, null);
    NodeRows.Diff logged = NodeRows.diff(before, after, log);
    assertArrayEquals(full.gone(), logged.gone(), at + ": the rows deleted");
    assertArrayEquals(full.numbered(), logged.numbered(), at + ": the rows numbered");
    assertArrayEquals(full.added(), logged.added(), at + ": the rows inserted");
    if (!java.util.Arrays.equals(full.changed(), logged.changed())) {
      throw new AssertionError(at + ": rows changed " + java.util.Arrays.toString(full.changed())
          + " by the full comparison, " + java.util.Arrays.toString(logged.changed()) + " by the log");
    }
    return logged.byLog();
  }
}

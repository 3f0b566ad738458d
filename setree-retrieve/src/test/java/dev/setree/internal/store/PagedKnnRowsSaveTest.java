package dev.setree.internal.store;

import static dev.setree.testing.TreeAssert.assertSameHierarchy;
import static dev.setree.testing.TreeAssert.assertSameTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.KnnRows;
import dev.setree.internal.core.LeafNeighbours;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore;
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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Level 0 above the exact kNN limit, so that runs patch it from nearest members into paged rows (ADR 0048), saved as
 * diffs into a real SQLite file: the runs (real Leiden), their plans and saves, and the nearest-leaf index derived for
 * the next snapshot never make the paged rows flat; the file read back equals the state in memory after each run.
 */
class PagedKnnRowsSaveTest {
  private final HashEmbedder embedder = new HashEmbedder(48);
  private final SimpleTokenCounter counter = new SimpleTokenCounter();
  @TempDir Path dir;

  @Test
  void pagedRowsAreSavedAndReadBackWithoutBeingMadeFlat() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    BuildOptions options = BuildOptions.DEFAULTS.withExactKnnLimit(100);
    List<Fact> base = Corpora.synthetic(500, seed);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), options)
        .build(base, BuildProgress.NONE);
    Maintainer maintainer = new Maintainer(embedder, counter, new ExtractiveSummarizer(), options, 60);
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    List<String> present = new ArrayList<>();
    base.forEach(f -> present.add(f.id()));
    List<Fact> pool = Corpora.synthetic(100, seed + 1);
    int paged = 0;
    LeafNeighbours nearest = LeafNeighbours.of(tree, oracle);
    try (SqliteTreeStore store = SqliteTreeStore.open(dir.resolve("kb.db"), "hash-48", 48)) {
      store.saveTreeWithHierarchy(tree, oracle, 0);
      for (int run = 0; run < 12; run++) {
        String at = "seed=" + seed + " run " + run;
        List<Mutation> batch = new ArrayList<>();
        for (int x = 1 + r.nextInt(3); x > 0; x--) {
          String id = "new" + run + "-" + x;
          batch.add(new Mutation(0, Mutation.Kind.INSERT, id, pool.get(run * 4 + x).text(), null));
          present.add(id);
        }
        if (run % 4 == 3) { // now and then a delete: the patch then writes every row into new pages
          batch.add(new Mutation(0, Mutation.Kind.DELETE, present.remove(r.nextInt(present.size())), null, null));
        }
        boolean pagedBefore = oracle.levels().get(0).knn().paged();
        int flattened = KnnRows.flattened();
        LeafNeighbours index = nearest;
        Maintainer.Result result = maintainer.run(tree, oracle, batch, () -> index);
        long generation = store.generation();
        store.saveChanges(store.planChanges(tree, oracle, result.tree(), result.hierarchy(), result.changes()),
            generation, new long[0]);
        nearest = nearest.next(result.tree(), result.hierarchy()); // the next snapshot's index, as a writer derives it
        HierarchyState.Level level0 = result.hierarchy().levels().get(0);
        assertTrue(level0.size() > options.exactKnnLimit(), at + ": level 0 is approximate");
        assertTrue(level0.knn().paged(), at + ": level 0's rows are paged");
        assertEquals(flattened, KnnRows.flattened(), at + ": paged rows made flat by the run, its save or the index");
        paged += pagedBefore ? 1 : 0;
        tree = result.tree();
        oracle = result.hierarchy();
        TreeStore.State disk = store.load();
        assertSameTree(tree, disk.tree());
        assertSameHierarchy(oracle, disk.hierarchy());
      }
    }
    assertTrue(paged >= 10, "seed=" + seed + ": " + paged + " runs started from paged rows");
  }
}

package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What a maintenance run's tree says of the rows it kept ({@link Tree#sameRowsAs}, made by {@link DraftTree#toTree}):
 * every node it names has, bit for bit, the summary embedding, leaf-centroid and loss of the node it names in the
 * run's base tree, and it names most of the nodes a run did not touch.
 */
class FrozenRowsTest {
  final HashEmbedder embedder = new HashEmbedder(48);
  final SimpleTokenCounter counter = new SimpleTokenCounter();

  @Test
  void aRunsTreeNamesOnlyRowsItKeptBitForBit() {
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(1500, 91), BuildProgress.NONE);
    Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    List<Fact> pool = Corpora.synthetic(40, 92);
    Random rnd = new Random(93);
    List<String> inserted = new ArrayList<>();
    int named = 0;
    int internalAfterFirst = 0;
    for (int i = 0; i < pool.size(); i++) {
      List<Mutation> batch = new ArrayList<>();
      batch.add(new Mutation(0, Mutation.Kind.INSERT, "n" + i, pool.get(i).text(), null));
      inserted.add("n" + i);
      if (i % 5 == 4) {
        batch.add(new Mutation(0, Mutation.Kind.DELETE, inserted.remove(rnd.nextInt(inserted.size())), null, null));
      }
      Maintainer.Result r = m.run(tree, oracle, batch);
      Tree next = r.tree();
      for (int v = next.leafCount(); v < next.size(); v++) {
        assertFalse(next.sameRowsAs(next, v, v), "a tree names rows of another tree only");
        int o = tree.indexOf(next.id(v));
        for (int x = tree.leafCount(); x < tree.size(); x++) {
          if (next.sameRowsAs(tree, x, v)) {
            assertEquals(o, x, "node " + next.id(v) + " named the rows of " + tree.id(x));
            assertArrayEquals(tree.embedding(x), next.embedding(v), "summary embedding of " + next.id(v));
            assertArrayEquals(tree.centroid(x), next.centroid(v), "centroid of " + next.id(v));
            assertEquals(Float.floatToRawIntBits(tree.loss(x)), Float.floatToRawIntBits(next.loss(v)));
            if (i > 0) {
              named++;
            }
          }
        }
      }
      if (i > 0) {
        internalAfterFirst += next.size() - next.leafCount();
      }
      tree = next;
      oracle = r.hierarchy();
    }
    // The first run starts from a copy of the built tree, whose centroids it computes again: it names nothing.
    // Later runs continue from the draft the run before froze, and touch a few paths of the tree.
    assertTrue(named > internalAfterFirst / 2, named + " of " + internalAfterFirst + " internal nodes named");
  }
}

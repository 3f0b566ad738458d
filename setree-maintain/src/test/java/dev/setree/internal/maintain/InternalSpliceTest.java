package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.TreeAssert;
import java.util.List;
import org.junit.jupiter.api.Test;

class InternalSpliceTest {
  final HashEmbedder embedder = new HashEmbedder(48);
  final SimpleTokenCounter counter = new SimpleTokenCounter();

  /**
   * A one-fact run whose top level grows a level (a root made above the old one), or loses one (the old root dropped,
   * a node below it left on top), freezes by splicing the nodes it made into the base's order, as a run that keeps its
   * root does, and gives the tree and oracle of a run whose passes look at every node (its freeze sorts every internal
   * node by level). A spliced freeze gives an index only to the new leaves and to the internal nodes from the first one
   * whose place among them changed: the nodes before keep theirs.
   */
  @Test
  void aRunThatChangesTheRootIsSplicedAndGivesWhatEveryNodesPassesGive() {
    List<Fact> facts = Corpora.synthetic(110, 7);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(facts.subList(0, 12), BuildProgress.NONE);
    Maintainer continuing = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    int grew = 0;
    int shrank = 0;
    int allKept = 0;
    int someMoved = 0;
    for (int i = 12; i < facts.size(); i++) {
      List<Mutation> batch = List.of(new Mutation(0, Mutation.Kind.INSERT, "x" + i, facts.get(i).text(), null));
      Maintainer everyNode = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
      everyNode.kept.everyNode();
      Maintainer.Result expected = everyNode.run(tree, oracle, batch);
      long renumbered = DraftFreeze.RENUMBERED.get();
      Maintainer.Result actual = continuing.run(tree, oracle, batch);
      renumbered = DraftFreeze.RENUMBERED.get() - renumbered;
      String ctx = "fact " + i;
      assertEquals(expected.path(), actual.path(), ctx);
      try {
        TreeAssert.assertSameTree(expected.tree(), actual.tree());
        TreeAssert.assertSameHierarchy(expected.hierarchy(), actual.hierarchy());
      } catch (AssertionError e) {
        throw new AssertionError(ctx + ": " + e.getMessage(), e);
      }
      Tree after = actual.tree();
      if (actual.changes().orderKept()) {
        int internal = after.size() - after.leafCount();
        int unmoved = unmoved(tree, after);
        assertEquals(after.leafCount() - tree.leafCount() + internal - unmoved, renumbered, ctx + ": nodes renumbered");
        allKept += unmoved == internal ? 1 : 0;
        someMoved += unmoved < internal ? 1 : 0;
      }
      int change = Integer.compare(after.level(after.root()), tree.level(tree.root()));
      if (change != 0) {
        grew += change > 0 ? 1 : 0;
        shrank += change < 0 ? 1 : 0;
        assertTrue(!tree.id(tree.root()).equals(after.id(after.root())), ctx + ": another root");
        assertTrue(actual.changes().orderKept(), ctx + ": the run that changed the root was frozen by splicing");
      }
      tree = after;
      oracle = actual.hierarchy();
    }
    assertTrue(grew >= 2 && shrank >= 1, "the runs grew the tree by a level " + grew + " times, shrank it " + shrank);
    assertTrue(allKept >= 10 && someMoved >= 10, "spliced runs that kept every internal node's place " + allKept
        + ", that did not " + someMoved);
    assertSettledAsACopy(continuing.kept.take(tree), DraftTree.of(tree));
  }

  /**
   * Fails unless the kept draft, settled, holds what a copy of its tree holds: each node where it is in the tree
   * ({@link DraftNode#index}), its creation order, and its children in the tree's order (a leaf carried forward
   * before the internal nodes beside it).
   */
  private static void assertSettledAsACopy(DraftTree settled, DraftTree copy) {
    assertTrue(settled != null, "the draft was kept");
    assertEquals(copy.byId.size(), settled.byId.size(), "nodes");
    int mixed = 0;
    for (DraftNode n : copy.byId.values()) {
      DraftNode m = settled.byId.get(n.id);
      assertEquals(n.index, m.index, n.id + ": index");
      assertEquals(n.order, m.order, n.id + ": order");
      assertEquals(n.children.stream().map(c -> c.id).toList(), m.children.stream().map(c -> c.id).toList(),
          n.id + ": children");
      mixed += n.children.stream().anyMatch(c -> c.leaf) && n.children.stream().anyMatch(c -> !c.leaf) ? 1 : 0;
    }
    assertTrue(mixed > 0, "no node has both a leaf and an internal node as children");
  }

  /** How many of {@code after}'s internal nodes lead them at the places they had among {@code before}'s. */
  private static int unmoved(Tree before, Tree after) {
    int p = 0;
    while (p < after.size() - after.leafCount() && p < before.size() - before.leafCount()
        && after.id(after.leafCount() + p).equals(before.id(before.leafCount() + p))) {
      p++;
    }
    return p;
  }
}

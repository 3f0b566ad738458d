package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.LeafNeighbours;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The members near a vector at every level of the oracle ({@link Maintainer.NearAncestors}), and the patch of an
 * approximate level above the leaves made from them instead of scans of the level.
 */
class NearAncestorsTest {
  private final HashEmbedder embedder = new HashEmbedder(48);
  private final SimpleTokenCounter counter = new SimpleTokenCounter();
  /** 2,000 leaves with this limit: levels 0 and 1 approximate (NN-descent), the levels above exact. */
  private final BuildOptions options = BuildOptions.DEFAULTS.withExactKnnLimit(100);

  /**
   * For a leaf's own embedding, the members found at each level include the one holding that leaf, as the
   * oracle's parent ids say (followed level by level, a member carried alone standing for itself), each once.
   */
  @Test
  void theMemberHoldingTheNearestLeafIsFoundAtEveryLevel() {
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), options)
        .build(Corpora.synthetic(2000, 41), BuildProgress.NONE);
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    assertTrue(oracle.levels().size() >= 3, "levels: " + oracle.levels().size());
    assertTrue(oracle.levels().get(1).size() > options.exactKnnLimit(), "level 1 is approximate");
    Maintainer.NearAncestors near = new Maintainer.NearAncestors(tree, oracle, LeafNeighbours.of(tree, oracle),
        Integer.MAX_VALUE);
    for (int v = 0; v < tree.leafCount(); v += 97) {
      String id = tree.id(v);
      for (int level = 0; level < oracle.levels().size(); level++) {
        HierarchyState.Level members = oracle.levels().get(level);
        assertTrue(near.knows(level));
        int holder = members.indexOf(id, -1);
        assertTrue(holder >= 0, id + " is not a member of level " + level);
        int[] found = near.of(tree.embedding(v), level);
        Set<Integer> distinct = new HashSet<>();
        for (int i : found) {
          assertTrue(i >= -1 && i < members.size(), "level " + level + ": index " + i);
          assertTrue(i < 0 || distinct.add(i), "level " + level + ": member " + i + " twice");
        }
        assertTrue(distinct.contains(holder), "leaf " + id + ": level " + level + "'s member " + holder + " ("
            + members.memberIds()[holder] + ") not among " + Arrays.toString(found));
        String parent = members.parentIds()[holder];
        id = parent == null ? id : parent; // the member of the next level
      }
    }
    assertFalse(near.knows(oracle.levels().size()));
    assertFalse(new Maintainer.NearAncestors(tree, oracle, LeafNeighbours.of(tree, oracle), 1).knows(1));
  }

  /**
   * Level 1 above the exact kNN limit, patched from the members near each moved member, keeps a graph as close to
   * its exact 10-NN as the patch by scans of the level, and its modularity within 5% of a full rebuild's, over 150
   * runs of one insert (every third with a delete) into a 2,000-leaf base. Level 0 is patched from the nearest
   * leaves in both; the two end with different level-1 graphs, so the near members were used.
   */
  @Test
  void anApproximateLevelOneIsPatchedAsWellAsByScans() {
    List<Fact> base = Corpora.synthetic(2000, 31);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), options)
        .build(base, BuildProgress.NONE);
    List<Fact> extra = Corpora.synthetic(150, 32);
    double[] recall = new double[2];
    HierarchyState[] end = new HierarchyState[2];
    for (int allLevels = 0; allLevels < 2; allLevels++) {
      Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), options, 60)
          .nearMembersBelow(allLevels == 1 ? Integer.MAX_VALUE : 1);
      Tree tree = built.tree();
      HierarchyState oracle = built.hierarchy();
      for (int i = 0; i < extra.size(); i++) {
        Tree t = tree;
        HierarchyState o = oracle;
        List<Mutation> batch = new ArrayList<>(List.of(
            new Mutation(0, Mutation.Kind.INSERT, "ins" + i, extra.get(i).text() + " later", null)));
        if (i % 3 == 0) {
          batch.add(new Mutation(1, Mutation.Kind.DELETE, base.get(7 * i % base.size()).id(), null, null));
        }
        Maintainer.Result r = m.run(tree, oracle, batch, () -> LeafNeighbours.of(t, o));
        tree = r.tree();
        oracle = r.hierarchy();
      }
      HierarchyState.Level level1 = oracle.levels().get(1);
      assertTrue(level1.size() > options.exactKnnLimit(), "level 1 is still approximate: " + level1.size());
      recall[allLevels] = recallOfExact(level1, tree.dimension(), options.k());
      end[allLevels] = oracle;
    }
    List<Fact> all = new ArrayList<>(base);
    for (int i = 0; i < extra.size(); i += 3) {
      all.remove(base.get(7 * i % base.size()));
    }
    for (int i = 0; i < extra.size(); i++) {
      all.add(new Fact("ins" + i, extra.get(i).text() + " later", null));
    }
    BuildResult full = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), options)
        .build(all, BuildProgress.NONE);
    HierarchyState.Level fullLevel1 = full.hierarchy().levels().get(1);
    double qScan = Modularity.of(end[0].levels().get(1));
    double qNear = Modularity.of(end[1].levels().get(1));
    double qFull = Modularity.of(fullLevel1);
    String report = String.format("level 1 with the exact kNN limit at 100: 10-NN recall by scans %.4f, by near"
        + " members %.4f (full build %.4f); modularity %.4f / %.4f (full %.4f)%n", recall[0], recall[1],
        recallOfExact(fullLevel1, full.tree().dimension(), options.k()), qScan, qNear, qFull);
    System.out.print(report);
    assertFalse(Arrays.equals(end[0].levels().get(1).knnNeighbors(), end[1].levels().get(1).knnNeighbors()),
        "the same level-1 graph: the near members were not used");
    assertTrue(recall[1] >= recall[0] - 0.02, report);
    assertTrue(qNear >= 0.95 * qFull, report);
  }

  /** Mean share of each member's exact k nearest (by its centroid row) that its row in {@code level} lists. */
  private static double recallOfExact(HierarchyState.Level level, int dim, int k) {
    int n = level.size();
    KnnGraph exact = ExactKnn.allPairs(level.centroids(), n, dim, k);
    long found = 0;
    long total = 0;
    for (int i = 0; i < n; i++) {
      Set<Integer> row = new HashSet<>();
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
}

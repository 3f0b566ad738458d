package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.LeafNeighbours;
import dev.setree.internal.core.Tree;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The members near a vector at every level of the oracle ({@link NearAncestors}), and the patch of an
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
    NearAncestors near = new NearAncestors(tree, oracle, LeafNeighbours.of(tree, oracle),
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
    assertFalse(new NearAncestors(tree, oracle, LeafNeighbours.of(tree, oracle), 1).knows(1));
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
      Maintainer.Result r = MaintenanceQualityTest.insertsAndDeletes(m, built, base, extra, LeafNeighbours::of);
      HierarchyState.Level level1 = r.hierarchy().levels().get(1);
      assertTrue(level1.size() > options.exactKnnLimit(), "level 1 is still approximate: " + level1.size());
      recall[allLevels] = MaintenanceQualityTest.recallOfExact(level1, level1.centroids(), r.tree().dimension(),
          options.k());
      end[allLevels] = r.hierarchy();
    }
    BuildResult full = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), options)
        .build(MaintenanceQualityTest.afterInsertsAndDeletes(base, extra), BuildProgress.NONE);
    HierarchyState.Level fullLevel1 = full.hierarchy().levels().get(1);
    double qScan = Modularity.of(end[0].levels().get(1));
    double qNear = Modularity.of(end[1].levels().get(1));
    double qFull = Modularity.of(fullLevel1);
    String report = String.format("level 1 with the exact kNN limit at 100: 10-NN recall by scans %.4f, by near"
        + " members %.4f (full build %.4f); modularity %.4f / %.4f (full %.4f)%n", recall[0], recall[1],
        MaintenanceQualityTest.recallOfExact(fullLevel1, fullLevel1.centroids(), full.tree().dimension(),
            options.k()), qScan, qNear, qFull);
    System.out.print(report);
    assertFalse(Arrays.equals(end[0].levels().get(1).knnNeighbors(), end[1].levels().get(1).knnNeighbors()),
        "the same level-1 graph: the near members were not used");
    assertTrue(recall[1] >= recall[0] - 0.02, report);
    assertTrue(qNear >= 0.95 * qFull, report);
  }
}

package dev.setree.internal.store;

import static dev.setree.testing.TreeAssert.assertSameHierarchy;
import static dev.setree.testing.TreeAssert.assertSameTree;
import static dev.setree.testing.TreeAssert.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The open's load of the oracle's kNN rows alone ({@link SqliteTreeStore#loadLeafKnnIfChanged}) and the later
 * load of the whole oracle at the generation of the tree ({@link SqliteTreeStore#loadHierarchy(Tree, long)}),
 * against the load of both at once (ADR 0028).
 */
class LeafKnnLoadTest {
  private static final String MODEL = "test-model";

  @TempDir Path dir;

  /** Level 0's kNN rows equal the whole load's, bit for bit; the whole oracle read later equals it. */
  @Test
  void leafKnnRowsAndTheLaterWholeOracleEqualTheLoadOfBoth() {
    for (long seed = 1; seed <= 20; seed++) {
      Path file = dir.resolve("kb" + seed + ".db");
      Tree tree = RandomTrees.tree(seed, 5 + (int) seed * 7, RandomTrees.DIM, "n");
      HierarchyState oracle = RandomTrees.hierarchy(tree, seed);
      try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
        store.saveTreeWithHierarchy(tree, oracle, 0);
        TreeStore.State both = store.load();
        TreeStore.State knn = store.loadLeafKnnIfChanged(-1, t -> true, null);
        String at = "seed " + seed;
        assertEquals(both.generation(), knn.generation(), at);
        assertSameTree(both.tree(), knn.tree());
        assertEquals(1, knn.hierarchy().levels().size(), at);
        HierarchyState.Level l0 = both.hierarchy().levels().get(0);
        HierarchyState.Level k0 = knn.hierarchy().levels().get(0);
        assertTrue(k0.isKnnOnly(), at);
        assertNull(k0.centroids(), at);
        assertNull(k0.parentIds(), at);
        assertNull(k0.assignment(), at);
        assertArrayEquals(l0.memberIds(), k0.memberIds(), at);
        assertArrayEquals(l0.knnOffsets(), k0.knnOffsets(), at);
        assertArrayEquals(l0.knnNeighbors(), k0.knnNeighbors(), at);
        assertArrayEquals(bits(l0.knnWeights()), bits(k0.knnWeights()), at);
        assertSameHierarchy(both.hierarchy(), store.loadHierarchy(knn.tree(), knn.generation()));
        assertTrue(store.loadLeafKnnIfChanged(-1, t -> false, null).hierarchy().isEmpty(), at);
      }
    }
  }

  /** The whole oracle is refused once another save committed: it would not be the one saved with the tree. */
  @Test
  void wholeOracleOfAnOlderGenerationIsRefused() {
    Path file = dir.resolve("kb.db");
    Tree tree = RandomTrees.tree(3, 30, RandomTrees.DIM, "n");
    HierarchyState oracle = RandomTrees.hierarchy(tree, 3);
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM);
        SqliteTreeStore other = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(tree, oracle, 0);
      TreeStore.State opened = store.loadLeafKnnIfChanged(-1, t -> true, null);
      Tree next = RandomTrees.tree(4, 31, RandomTrees.DIM, "n");
      other.saveChanges(opened.tree(), oracle, next, RandomTrees.hierarchy(next, 4), opened.generation(), new long[0]);
      TreeStore.StaleStateException e = assertThrows(TreeStore.StaleStateException.class,
          () -> store.loadHierarchy(opened.tree(), opened.generation()));
      assertTrue(e.getMessage().contains("generation " + opened.generation()), e.getMessage());
      TreeStore.State now = store.load();
      assertSameHierarchy(now.hierarchy(), store.loadHierarchy(now.tree(), now.generation()));
    }
  }

  /**
   * The kNN rows are checked as the whole load checks them; the other levels' rows are only stepped over, and
   * a fault in them is reported by the whole oracle's load.
   */
  @Test
  void faultsInLevelZeroAreReportedOnOpenTheRestByTheWholeLoad() throws Exception {
    Path file = dir.resolve("kb.db");
    Tree tree = RandomTrees.tree(5, 40, RandomTrees.DIM, "n");
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(tree, RandomTrees.hierarchy(tree, 5), 0);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
      st.executeUpdate("UPDATE members SET knn_weights = x'0102' WHERE level = 1");
    }
    try (SqliteTreeStore store = SqliteTreeStore.openReadOnly(file)) {
      TreeStore.State knn = store.loadLeafKnnIfChanged(-1, t -> true, null);
      StoreFormatException e = assertThrows(StoreFormatException.class,
          () -> store.loadHierarchy(knn.tree(), knn.generation()));
      assertTrue(e.getMessage().contains("is corrupt: hierarchy level 1"), e.getMessage());
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
      st.executeUpdate("UPDATE members SET knn_weights = x'0102' WHERE level = 0");
    }
    try (SqliteTreeStore store = SqliteTreeStore.openReadOnly(file)) {
      StoreFormatException whole = assertThrows(StoreFormatException.class, store::load);
      StoreFormatException e = assertThrows(StoreFormatException.class,
          () -> store.loadLeafKnnIfChanged(-1, t -> true, null));
      assertEquals(whole.getMessage(), e.getMessage());
    }
  }
}

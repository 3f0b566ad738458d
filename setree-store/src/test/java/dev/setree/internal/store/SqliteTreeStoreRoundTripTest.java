package dev.setree.internal.store;

import static dev.setree.testing.TreeAssert.assertSameHierarchy;
import static dev.setree.testing.TreeAssert.assertSameTree;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.Vectors;
import dev.setree.testing.TreeAssert;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SqliteTreeStoreRoundTripTest {
  private static final String MODEL = "test-model";

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5})
  void randomTreeAndHierarchySurviveReopenBitExact(long seed) {
    Path file = dir.resolve("kb.db");
    Tree tree = RandomTrees.tree(seed);
    HierarchyState hierarchy = RandomTrees.hierarchy(tree, seed);
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(tree, hierarchy, 0);
      assertSameTree(tree, store.loadTree());
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      assertSameTree(tree, store.loadTree());
      assertSameHierarchy(hierarchy, store.loadHierarchy());
    }
    assertEquals(List.of("kb.db"), TestFiles.listing(dir), "a closed store is a single file");
  }

  /**
   * The load sizes its array of leaf embeddings by the oracle's count of level 0 members, a hint only: a
   * count that is right, too small, too large or missing loads the same tree.
   */
  @ParameterizedTest
  @ValueSource(strings = {"right", "1", "one less", "seven more", "huge", "none"})
  void theLeafCountHintDoesNotChangeTheLoadedTree(String hint) throws SQLException {
    Path file = dir.resolve("kb.db");
    Tree tree = RandomTrees.tree(6);
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(tree, RandomTrees.hierarchy(tree, 6), 0);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement()) {
      assertEquals(tree.leafCount(), queryInt(st, "SELECT member_count FROM levels WHERE level = 0"));
      String set = "UPDATE levels SET member_count = %d WHERE level = 0";
      switch (hint) {
        case "right" -> { }
        case "1" -> st.executeUpdate(set.formatted(1));
        case "one less" -> st.executeUpdate(set.formatted(tree.leafCount() - 1));
        case "seven more" -> st.executeUpdate(set.formatted(tree.leafCount() + 7));
        case "huge" -> st.executeUpdate(set.formatted(Long.MAX_VALUE));
        case "none" -> st.executeUpdate("DELETE FROM levels WHERE level = 0");
        default -> throw new AssertionError(hint);
      }
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      assertSameTree(tree, store.loadTree());
    }
  }

  @Test
  void newStoreIsEmpty() {
    try (SqliteTreeStore store = SqliteTreeStore.open(dir.resolve("kb.db"), MODEL, 16)) {
      Tree tree = store.loadTree();
      assertTrue(tree.isEmpty());
      assertEquals(16, tree.dimension());
      assertTrue(store.loadHierarchy().isEmpty());
      assertTrue(store.pendingMutations().isEmpty());
      assertEquals(MODEL, store.modelId());
      assertEquals(16, store.dimension());
      assertEquals(dir.resolve("kb.db").toAbsolutePath(), store.path());
    }
  }

  @Test
  void emptyAndSingleLeafTreesRoundTrip() {
    Path file = dir.resolve("kb.db");
    Tree single = RandomTrees.tree(7, 1, 4, "single");
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, 4)) {
      store.saveTreeWithHierarchy(single, HierarchyState.empty(), 0);
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, 4)) {
      assertSameTree(single, store.loadTree());
      store.saveTreeWithHierarchy(Tree.empty(4), HierarchyState.empty(), 0);
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, 4)) {
      assertSameTree(Tree.empty(4), store.loadTree());
      assertTrue(store.loadHierarchy().isEmpty());
    }
  }

  @Test
  void hierarchyThatVersionTwoCannotHoldIsRefusedWithoutWriting() {
    Path file = dir.resolve("kb.db");
    Tree tree = RandomTrees.tree(3);
    HierarchyState good = RandomTrees.hierarchy(tree, 3);
    HierarchyState.Level l0 = good.levels().get(0);
    HierarchyState nullArrays = new HierarchyState(List.of(new HierarchyState.Level(l0.memberIds(), null,
        l0.parentIds(), null, null, null, null, Double.NaN)));
    String[] shuffled = l0.memberIds().clone();
    String first = shuffled[0];
    shuffled[0] = shuffled[1];
    shuffled[1] = first;
    HierarchyState wrongOrder = new HierarchyState(List.of(new HierarchyState.Level(shuffled, l0.centroids(),
        l0.parentIds(), l0.assignment(), l0.knnOffsets(), l0.knnNeighbors(), l0.knnWeights(), 0.5)));
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(tree, good, 0);
      long generation = store.generation();
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> store.saveTreeWithHierarchy(tree, nullArrays, 0));
      assertTrue(e.getMessage().contains("lacks some of its arrays"), e.getMessage());
      e = assertThrows(IllegalArgumentException.class, () -> store.saveTreeWithHierarchy(tree, wrongOrder, 0));
      assertTrue(e.getMessage().contains("leaves in tree order"), e.getMessage());
      assertEquals(generation, store.generation());
      assertSameHierarchy(good, store.loadHierarchy());
    }
  }

  /**
   * A writer's loaded leaf rows have room for more leaves, so that its first run after open writes new rows there
   * instead of copying every row (at 50,000 leaves, 77 MB); a read-only open's are exactly the leaves'. Level 0 of
   * the oracle shares the array either way.
   */
  @Test
  void aWritersLeafRowsHaveRoomForMoreLeavesAndAReadersDoNot() {
    Path file = dir.resolve("kb.db");
    Tree tree = RandomTrees.tree(1, 300, RandomTrees.DIM, "a");
    HierarchyState oracle = RandomTrees.hierarchy(tree, 1);
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(tree, oracle, 0);
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      var state = store.load();
      assertEquals(Vectors.lengthWithRoom(300, RandomTrees.DIM), state.tree().leafEmbeddings().length);
      assertTrue(state.tree().leafEmbeddings().length >= (300 + 64) * RandomTrees.DIM, "room for 64 leaves or more");
      assertTrue(state.tree().leafEmbeddings() == state.hierarchy().levels().get(0).centroids(), "level 0 shares");
      assertSameTree(tree, state.tree());
      assertSameHierarchy(oracle, state.hierarchy());
    }
    try (SqliteTreeStore store = SqliteTreeStore.openReadOnly(file)) {
      var state = store.load();
      assertEquals(300 * RandomTrees.DIM, state.tree().leafEmbeddings().length);
      assertTrue(state.tree().leafEmbeddings() == state.hierarchy().levels().get(0).centroids(), "level 0 shares");
      assertSameTree(tree, state.tree());
    }
  }

  @Test
  void laterSaveReplacesEarlierOne() {
    Path file = dir.resolve("kb.db");
    Tree a = RandomTrees.tree(1, 300, RandomTrees.DIM, "a");
    Tree b = RandomTrees.tree(2, 20, RandomTrees.DIM, "b");
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(a, RandomTrees.hierarchy(a, 1), 0);
      store.saveTreeWithHierarchy(b, RandomTrees.hierarchy(b, 2), 0);
      assertSameTree(b, store.loadTree());
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      assertSameTree(b, store.loadTree());
      assertSameHierarchy(RandomTrees.hierarchy(b, 2), store.loadHierarchy());
    }
  }

  @Test
  void fileHoldsTheDocumentedFormat() throws SQLException {
    Path file = dir.resolve("kb.db");
    Tree tree = RandomTrees.tree(9);
    HierarchyState hierarchy = RandomTrees.hierarchy(tree, 9);
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(tree, hierarchy, 0);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement()) {
      assertEquals(0x53455452, queryInt(st, "PRAGMA application_id"));
      assertEquals(2, queryInt(st, "PRAGMA user_version"));
      assertEquals("delete", queryString(st, "PRAGMA journal_mode"), "a closed store is in rollback mode");
      assertEquals("2", queryString(st, "SELECT value FROM meta WHERE key = 'format_version'"));
      assertEquals(MODEL, queryString(st, "SELECT value FROM meta WHERE key = 'model_id'"));
      assertEquals("8", queryString(st, "SELECT value FROM meta WHERE key = 'dimension'"));
      assertNotNull(queryString(st, "SELECT value FROM meta WHERE key = 'created_at'"));
      assertEquals(1, queryInt(st, "SELECT generation FROM state"));
      assertEquals(tree.size(), queryInt(st, "SELECT count(*) FROM nodes"));
      assertEquals(tree.leafCount(), queryInt(st, "SELECT count(*) FROM nodes WHERE is_leaf = 1"));
      assertEquals(2, queryInt(st, "SELECT count(*) FROM levels"));
      int members = hierarchy.levels().get(0).size() + hierarchy.levels().get(1).size();
      assertEquals(members, queryInt(st, "SELECT count(*) FROM members"));
      assertEquals(0, queryInt(st, "SELECT count(*) FROM members WHERE level = 0 AND centroid IS NOT NULL"),
          "level 0's centroids are the leaves' embeddings, not stored twice");
      assertEquals(1, queryInt(st, "SELECT count(*) FROM levels WHERE level = 0 AND member_ids IS NULL"),
          "level 0's members are the leaves in tree order");
      int root = tree.root();
      try (ResultSet rs = st.executeQuery("SELECT parent_id, leaf_count, subtree_depth FROM nodes WHERE id = '"
          + tree.id(root) + "'")) {
        rs.next();
        assertNull(rs.getString(1), "the root's parent_id is NULL");
        assertEquals(tree.leafCount(), rs.getInt(2));
        assertEquals(tree.depth(), rs.getInt(3));
      }
      int unknown = tree.leafCount(); // RandomTrees gives the first internal node unknown faithfulness
      try (ResultSet rs = st.executeQuery("SELECT faithfulness, embedding, centroid, loss, parent_id FROM nodes"
          + " WHERE id = '" + tree.id(unknown) + "'")) {
        rs.next();
        rs.getInt(1);
        assertTrue(rs.wasNull(), "unknown faithfulness is NULL");
        assertArrayEquals(TreeAssert.bits(tree.embedding(unknown)), TreeAssert.bits(leFloats(rs.getBytes(2))));
        assertArrayEquals(TreeAssert.bits(tree.centroid(unknown)), TreeAssert.bits(leFloats(rs.getBytes(3))));
        assertEquals(tree.loss(unknown), rs.getDouble(4), 0.0);
        assertEquals(tree.id(tree.parent(unknown)), rs.getString(5));
      }
      try (ResultSet rs = st.executeQuery("SELECT centroid, sources, faithfulness, ord FROM nodes"
          + " WHERE is_leaf = 1 ORDER BY ord LIMIT 1")) {
        rs.next();
        assertNull(rs.getBytes(1));
        assertNull(rs.getBytes(2));
        assertEquals(100, rs.getInt(3));
        assertEquals(0, rs.getInt(4));
      }
      int quoting = tree.leafCount() + 3; // every third internal node quotes leaves
      String[] expected = new String[tree.sourceCount(quoting)];
      for (int i = 0; i < expected.length; i++) {
        expected[i] = tree.id(tree.source(quoting, i));
      }
      try (ResultSet rs = st.executeQuery("SELECT sources FROM nodes WHERE id = '" + tree.id(quoting) + "'")) {
        rs.next();
        assertArrayEquals(expected, Blobs.toStrings(rs.getBytes(1)));
      }
    }
  }

  @Test
  void openCreatesParentDirectoriesAndAcceptsZeroByteFile() throws Exception {
    Path nested = dir.resolve("a/b/kb.db");
    try (SqliteTreeStore store = SqliteTreeStore.open(nested, MODEL, 4)) {
      assertTrue(store.loadTree().isEmpty());
    }
    Path empty = Files.createFile(dir.resolve("empty.db"));
    try (SqliteTreeStore store = SqliteTreeStore.open(empty, MODEL, 4)) {
      store.saveTreeWithHierarchy(RandomTrees.tree(1, 5, 4, "z"), HierarchyState.empty(), 0);
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(empty, MODEL, 4)) {
      assertEquals(5, store.loadTree().leafCount());
    }
  }

  @Test
  void blankSqliteDatabaseBecomesAKnowledgeBase() throws Exception {
    Path file = dir.resolve("blank.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement()) {
      st.execute("CREATE TABLE t (x)"); // leaves a header page behind, but no table
      st.execute("DROP TABLE t");
    }
    assertTrue(Files.size(file) > 0);
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, 4)) {
      assertTrue(store.loadTree().isEmpty());
    }
  }

  @Test
  void rejectsTreeOfOtherDimensionAndInconsistentLevelWithoutWriting() {
    Path file = dir.resolve("kb.db");
    Tree tree = RandomTrees.tree(1);
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(tree, HierarchyState.empty(), 0);
      Tree other = RandomTrees.tree(1, 5, 4, "x");
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> store.saveTreeWithHierarchy(other, HierarchyState.empty(), 0));
      assertTrue(e.getMessage().contains("dimension 4"), e.getMessage());
      HierarchyState bad = new HierarchyState(List.of(new HierarchyState.Level(
          new String[] {"a", "b"}, new float[3], null, null, null, null, null, Double.NaN)));
      e = assertThrows(IllegalArgumentException.class, () -> store.saveTreeWithHierarchy(tree, bad, 0));
      assertTrue(e.getMessage().contains("level 0"), e.getMessage());
      assertThrows(IllegalArgumentException.class,
          () -> store.saveTreeWithHierarchy(tree, HierarchyState.empty(), -1));
      assertSameTree(tree, store.loadTree());
    }
  }

  @Test
  void closeIsIdempotentAndLaterCallsFail() {
    SqliteTreeStore store = SqliteTreeStore.open(dir.resolve("kb.db"), MODEL, 4);
    store.close();
    store.close();
    for (Runnable call : List.<Runnable>of(
        store::loadTree,
        store::loadHierarchy,
        store::pendingMutations,
        () -> store.saveTreeWithHierarchy(Tree.empty(4), HierarchyState.empty(), 0),
        () -> store.appendMutation(new dev.setree.internal.core.TreeStore.Mutation(
            0, dev.setree.internal.core.TreeStore.Mutation.Kind.DELETE, "x", null, null)),
        store::modelId,
        store::dimension,
        store::path)) {
      IllegalStateException e = assertThrows(IllegalStateException.class, call::run);
      assertEquals("store is closed", e.getMessage());
    }
  }

  @Test
  void rejectsBadArguments() {
    Path file = dir.resolve("kb.db");
    assertThrows(IllegalArgumentException.class, () -> SqliteTreeStore.open(file, " ", 4));
    assertThrows(IllegalArgumentException.class, () -> SqliteTreeStore.open(file, MODEL, 0));
    assertThrows(NullPointerException.class, () -> SqliteTreeStore.open(null, MODEL, 4));
    assertTrue(Files.notExists(file));
  }

  static int queryInt(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  static String queryString(Statement st, String sql) throws SQLException {
    try (ResultSet rs = st.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static float[] leFloats(byte[] bytes) {
    float[] out = new float[bytes.length / 4];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
    return out;
  }
}

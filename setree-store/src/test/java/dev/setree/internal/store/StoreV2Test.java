package dev.setree.internal.store;

import static dev.setree.testing.TreeAssert.assertSameHierarchy;
import static dev.setree.testing.TreeAssert.assertSameTree;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Format version 2: migration from version 1, diff saves, generations. */
class StoreV2Test {
  private static final String V1_MODEL = "hash-16";
  private static final String MODEL = "test-model";

  @TempDir Path dir;

  private Path v1Copy() throws Exception {
    Path file = dir.resolve("v1.db");
    try (InputStream in = StoreV2Test.class.getResourceAsStream("/fixtures/v1-small.db")) {
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
    }
    return file;
  }

  @Test
  void versionOneFileIsReadReadOnlyWithoutChangeAndMigratedOnOpen() throws Exception {
    Path file = v1Copy();
    byte[] bytes = Files.readAllBytes(file);
    FileTime mtime = Files.getLastModifiedTime(file);
    Tree v1Tree;
    HierarchyState v1Oracle;
    List<TreeStore.Mutation> v1Pending;
    try (SqliteTreeStore ro = SqliteTreeStore.openReadOnly(file)) {
      assertEquals(1, ro.formatVersion());
      TreeStore.State s = ro.load();
      v1Tree = s.tree();
      v1Oracle = s.hierarchy();
      v1Pending = s.pending();
      assertEquals(40, v1Tree.leafCount());
      assertEquals(2, v1Pending.size());
      assertFalse(v1Oracle.isEmpty());
    }
    assertArrayEquals(bytes, Files.readAllBytes(file), "a read-only open of a version-1 file changes nothing");
    assertEquals(mtime, Files.getLastModifiedTime(file));

    try (SqliteTreeStore store = SqliteTreeStore.open(file, V1_MODEL, 16)) {
      assertEquals(2, store.formatVersion());
      TreeStore.State s = store.load();
      assertSameTree(v1Tree, s.tree());
      assertSameHierarchy(v1Oracle, s.hierarchy());
      assertEquals(v1Pending, s.pending());
      assertEquals(1, s.generation());
      assertEquals(2, s.lastSeq());
      long seq = store.appendMutation(new TreeStore.Mutation(0, TreeStore.Mutation.Kind.INSERT, "x", "a new fact", null));
      assertEquals(3, seq, "sequence numbers continue after migration");
    }
    try (SqliteTreeStore store = SqliteTreeStore.openReadOnly(file)) {
      assertEquals(2, store.formatVersion());
      assertSameTree(v1Tree, store.loadTree());
    }
  }

  /** Any pair of trees over one id space: a diff save and a full save load back the same. */
  @Test
  void diffSavesEqualFullSavesOverRandomPairs() {
    Random r = new Random(20261201);
    for (int round = 0; round < 12; round++) {
      long seed = r.nextLong();
      Path diffFile = dir.resolve("diff-" + round + ".db");
      Path fullFile = dir.resolve("full-" + round + ".db");
      try (SqliteTreeStore diff = SqliteTreeStore.open(diffFile, MODEL, RandomTrees.DIM);
          SqliteTreeStore full = SqliteTreeStore.open(fullFile, MODEL, RandomTrees.DIM)) {
        Tree before = RandomTrees.tree(seed, 5 + r.nextInt(60), RandomTrees.DIM, "n");
        HierarchyState beforeOracle = RandomTrees.hierarchy(before, seed);
        diff.saveTreeWithHierarchy(before, beforeOracle, 0);
        for (int step = 0; step < 4; step++) {
          long s2 = r.nextLong();
          Tree after = r.nextBoolean()
              ? RandomTrees.tree(s2, 5 + r.nextInt(60), RandomTrees.DIM, "n")
              : RandomTrees.tree(seed, before.leafCount(), RandomTrees.DIM, "n"); // identical rows
          HierarchyState afterOracle = r.nextBoolean() ? RandomTrees.hierarchy(after, s2) : HierarchyState.empty();
          String at = "seed " + seed + " step " + step;
          long g = diff.generation();
          long next = diff.saveChanges(before, beforeOracle, after, afterOracle, g, new long[0]);
          assertEquals(g + 1, next, at);
          full.saveTreeWithHierarchy(after, afterOracle, 0);
          TreeStore.State d = diff.load();
          TreeStore.State f = full.load();
          assertSameTree(after, d.tree());
          assertSameTree(f.tree(), d.tree());
          assertSameHierarchy(afterOracle, d.hierarchy());
          assertSameHierarchy(f.hierarchy(), d.hierarchy());
          // A load that tells its rows reads the same, and tells the leaf rows in the tree's leaf order (after
          // diff saves whose ord numbers were appended or rewritten), then that tree (ADR 0025).
          List<String> told = new ArrayList<>();
          Tree[] toldTree = new Tree[1];
          TreeStore.State t = diff.loadIfChanged(-1, tree -> true, new SqliteTreeStore.TreeRows() {
            @Override
            public void leaf(String id, String text) {
              assertNull(toldTree[0], "a leaf row after the tree");
              told.add(id + "\n" + text);
            }

            @Override
            public void tree(Tree tree) {
              toldTree[0] = tree;
            }
          });
          assertSameTree(after, t.tree());
          assertSameHierarchy(afterOracle, t.hierarchy());
          assertSame(t.tree(), toldTree[0], at);
          List<String> leaves = new ArrayList<>();
          for (int v = 0; v < after.leafCount(); v++) {
            leaves.add(after.id(v) + "\n" + after.text(v));
          }
          assertEquals(leaves, told, at);
          before = after;
          beforeOracle = afterOracle;
        }
      }
    }
  }

  /**
   * A loaded oracle names its members and their parents with the loaded tree's own id strings (the same objects),
   * as a maintenance run's oracle does, so that a first run after open compares them by reference; and it is the
   * oracle that was saved.
   */
  @Test
  void aLoadedOracleSharesTheTreesIdStrings() {
    Tree tree = RandomTrees.tree(7, 250, RandomTrees.DIM, "n");
    HierarchyState oracle = RandomTrees.hierarchy(tree, 7);
    Path file = dir.resolve("ids.db");
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(tree, oracle, 0);
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      TreeStore.State s = store.load();
      assertSameHierarchy(oracle, s.hierarchy());
      int shared = 0;
      for (HierarchyState.Level l : s.hierarchy().levels()) {
        for (int i = 0; i < l.size(); i++) {
          for (String id : new String[] {l.memberIds()[i], l.parentIds()[i]}) {
            int v = s.tree().indexOf(id);
            assertTrue(v >= 0, id + " is a node of the tree");
            assertSame(s.tree().id(v), id, id + " is the tree's own string");
            shared++;
          }
        }
      }
      assertTrue(shared > 400, "ids looked at: " + shared);
    }
  }

  @Test
  void unchangedTreeWritesNothingAndStaleGenerationIsRefused() {
    Path file = dir.resolve("kb.db");
    Tree tree = RandomTrees.tree(1, 200, RandomTrees.DIM, "n");
    HierarchyState oracle = RandomTrees.hierarchy(tree, 1);
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(tree, oracle, 0);
      long full = store.lastSaveBytes();
      long seq = store.appendMutation(new TreeStore.Mutation(0, TreeStore.Mutation.Kind.DELETE, tree.id(0), null, null));
      long g = store.saveChanges(tree, oracle, tree, oracle, 1, new long[] {seq});
      assertEquals(2, g);
      assertEquals(0, store.lastSaveBytes(), "an unchanged tree writes no row");
      assertTrue(full > 10_000, "a full save writes every row: " + full);
      assertTrue(store.pendingMutations().isEmpty(), "the applied mutation is removed");
      long other = store.appendMutation(new TreeStore.Mutation(0, TreeStore.Mutation.Kind.DELETE, tree.id(1), null, null));
      TreeStore.StaleStateException e = assertThrows(TreeStore.StaleStateException.class,
          () -> store.saveChanges(tree, oracle, Tree.empty(RandomTrees.DIM), HierarchyState.empty(), 1,
              new long[] {other}));
      assertTrue(e.getMessage().contains("generation 2"), e.getMessage());
      assertSameTree(tree, store.loadTree());
      assertEquals(1, store.pendingMutations().size(), "a refused save removes no mutation");
      assertEquals(2, store.generation());
    }
  }

  /**
   * A save worked out ahead of the write (without the lock) writes what the one-step save writes, and is refused
   * when another save committed between the plan and the write.
   */
  @Test
  void aSavePlannedAheadIsWrittenLaterOrRefused() {
    Tree tree = RandomTrees.tree(3, 300, RandomTrees.DIM, "n");
    HierarchyState oracle = RandomTrees.hierarchy(tree, 3);
    Tree next = RandomTrees.tree(4, 320, RandomTrees.DIM, "n");
    HierarchyState nextOracle = RandomTrees.hierarchy(next, 4);
    Path planned = dir.resolve("planned.db");
    Path direct = dir.resolve("direct.db");
    try (SqliteTreeStore a = SqliteTreeStore.open(planned, MODEL, RandomTrees.DIM);
        SqliteTreeStore b = SqliteTreeStore.open(direct, MODEL, RandomTrees.DIM)) {
      a.saveTreeWithHierarchy(tree, oracle, 0);
      b.saveTreeWithHierarchy(tree, oracle, 0);
      SavePlan plan = a.planChanges(tree, oracle, next, nextOracle);
      assertSame(next, plan.after());
      assertEquals(2, a.saveChanges(plan, 1, new long[0]));
      assertEquals(2, b.saveChanges(tree, oracle, next, nextOracle, 1, new long[0]));
      assertEquals(b.lastSaveBytes(), a.lastSaveBytes(), "the same rows written");
      assertSameTree(b.loadTree(), a.loadTree());
      assertSameTree(next, a.loadTree());
      assertSameHierarchy(b.load().hierarchy(), a.load().hierarchy());

      SavePlan stale = a.planChanges(next, nextOracle, tree, oracle);
      a.saveChanges(next, nextOracle, next, nextOracle, 2, new long[0]); // another save commits first
      assertThrows(TreeStore.StaleStateException.class, () -> a.saveChanges(stale, 2, new long[0]));
      assertSameTree(next, a.loadTree());
      assertEquals(3, a.generation());
    }
  }
}

package dev.setree.internal.store;

import static dev.setree.testing.TreeAssert.assertSameHierarchy;
import static dev.setree.testing.TreeAssert.assertSameTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteTreeStoreSaveFailureTest {
  private static final String MODEL = "test-model";

  @TempDir Path dir;
  private Path file;
  private Tree a;
  private HierarchyState ha;
  private Tree b;
  private HierarchyState hb;

  @BeforeEach
  void saveStateA() {
    file = dir.resolve("kb.db");
    a = RandomTrees.tree(11, 60, RandomTrees.DIM, "a");
    ha = RandomTrees.hierarchy(a, 11);
    b = RandomTrees.tree(12, 120, RandomTrees.DIM, "b");
    hb = RandomTrees.hierarchy(b, 12);
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(a, ha, 0);
      store.appendMutation(new Mutation(0, Mutation.Kind.INSERT, "m1", "text one", null));
      store.appendMutation(new Mutation(0, Mutation.Kind.DELETE, "a-leaf-1", null, null));
    }
  }

  @Test
  void exceptionAfterNodesWrittenKeepsPreviousState() {
    RuntimeException boom = new RuntimeException("injected failure");
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.afterNodesWrittenHook = () -> {
        throw boom;
      };
      StoreException e = assertThrows(StoreException.class, () -> store.saveTreeWithHierarchy(b, hb, 2));
      assertSame(boom, e.getCause());
      assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
      assertStateA(store);
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      assertStateA(store);
    }
  }

  @Test
  void nullTextIsRefusedBeforeItReachesTheStore() {
    // The schema's NOT NULL on nodes.text is a second line of defence: Tree itself refuses a null text,
    // so a broken tree cannot even be handed to a save.
    String[] texts = new String[b.size()];
    for (int v = 0; v < b.size(); v++) {
      texts[v] = v == 30 ? null : b.text(v);
    }
    NullPointerException e = assertThrows(NullPointerException.class, () -> copyWithTexts(b, texts));
    assertTrue(e.getMessage().contains("text of node"), e.getMessage());
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      assertStateA(store);
    }
  }

  @Test
  void storeRemainsUsableAfterFailedSave() {
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.afterNodesWrittenHook = () -> {
        throw new IllegalStateException("injected");
      };
      assertThrows(StoreException.class, () -> store.saveTreeWithHierarchy(b, hb, 2));
      store.afterNodesWrittenHook = null;
      store.saveTreeWithHierarchy(b, hb, 2);
      assertEquals(3, store.appendMutation(new Mutation(0, Mutation.Kind.DELETE, "b-leaf-0", null, null)));
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      assertSameTree(b, store.loadTree());
      assertSameHierarchy(hb, store.loadHierarchy());
      assertEquals(List.of(3L), store.pendingMutations().stream().map(Mutation::seq).toList());
    }
  }

  @Test
  void errorMidSaveRollsBackAndPropagatesUnwrapped() {
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.afterNodesWrittenHook = () -> {
        throw new StackOverflowError("injected error");
      };
      assertThrows(StackOverflowError.class, () -> store.saveTreeWithHierarchy(b, hb, 2));
      assertStateA(store);
    }
  }

  /** A real crash: another JVM halts in the middle of a save; the next open finds state A. */
  @Test
  void processKilledMidSaveKeepsPreviousState() throws IOException, InterruptedException {
    String out = runCrashingChild("mid-save");
    assertTrue(out.contains("halting mid-save"), out);
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      assertStateA(store);
    }
  }

  /**
   * Another JVM commits state B and halts before closing, so B lives only in the write-ahead log; a
   * read-only open and then a read-write open both find B, and closing folds the log back into the file.
   */
  @Test
  void processKilledAfterCommitKeepsCommittedState() throws IOException, InterruptedException {
    String out = runCrashingChild("after-commit");
    assertTrue(out.contains("halting after commit"), out);
    assertTrue(Files.size(dir.resolve("kb.db-wal")) > 0, "state B should be in the WAL only");
    try (SqliteTreeStore store = SqliteTreeStore.openReadOnly(file)) {
      assertSameTree(b, store.loadTree());
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      assertSameTree(b, store.loadTree());
      assertSameHierarchy(hb, store.loadHierarchy());
      assertEquals(List.of(), store.pendingMutations());
    }
    assertEquals(List.of("kb.db"), TestFiles.listing(dir));
  }

  private String runCrashingChild(String mode) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            CrashingSaver.class.getName(), file.toString(), mode)
        .redirectErrorStream(true)
        .start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child did not finish");
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(CrashingSaver.EXIT_CODE, p.exitValue(), out);
    return out;
  }

  private void assertStateA(SqliteTreeStore store) {
    assertSameTree(a, store.loadTree());
    assertSameHierarchy(ha, store.loadHierarchy());
    assertEquals(List.of(1L, 2L), store.pendingMutations().stream().map(Mutation::seq).toList());
  }

  private static Tree copyWithTexts(Tree t, String[] texts) {
    int n = t.size();
    String[] ids = new String[n];
    String[] times = new String[n];
    String[] summarizers = new String[n];
    int[] tokens = new int[n];
    int[] level = new int[n];
    int[] parent = new int[n];
    int[] faithfulness = new int[n];
    int[][] sources = new int[n][];
    for (int v = 0; v < n; v++) {
      ids[v] = t.id(v);
      times[v] = t.time(v);
      summarizers[v] = t.summarizerKind(v);
      tokens[v] = t.tokens(v);
      level[v] = t.level(v);
      parent[v] = t.parent(v);
      faithfulness[v] = t.faithfulness(v);
      sources[v] = new int[t.sourceCount(v)];
      for (int i = 0; i < sources[v].length; i++) {
        sources[v][i] = t.source(v, i);
      }
    }
    return new Tree(t.dimension(), t.leafCount(), ids, texts, times, summarizers, tokens, level, parent,
        t.leafEmbeddings().clone(), t.internalRows().denseEmbeddings(), t.internalRows().denseCentroids(), faithfulness,
        sources);
  }

  /**
   * Child-process entry point: with "mid-save", halts the JVM halfway through saving a large state B
   * over state A; with "after-commit", saves state B (as the test's {@code b}) and halts before closing.
   */
  static final class CrashingSaver {
    static final int EXIT_CODE = 42;

    public static void main(String[] args) {
      SqliteTreeStore store = SqliteTreeStore.open(Path.of(args[0]), MODEL, RandomTrees.DIM);
      if (args[1].equals("mid-save")) {
        Tree big = RandomTrees.tree(12, 3000, RandomTrees.DIM, "b");
        store.afterNodesWrittenHook = () -> halt("halting mid-save");
        store.saveTreeWithHierarchy(big, RandomTrees.hierarchy(big, 12), 2);
        System.out.println("save completed, which it must not");
      } else {
        Tree b = RandomTrees.tree(12, 120, RandomTrees.DIM, "b");
        store.saveTreeWithHierarchy(b, RandomTrees.hierarchy(b, 12), 2);
        halt("halting after commit");
      }
    }

    private static void halt(String message) {
      System.out.println(message);
      System.out.flush();
      Runtime.getRuntime().halt(EXIT_CODE);
    }
  }
}

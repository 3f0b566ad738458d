package dev.setree.internal.store;

import dev.setree.testing.TreeAssert;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConcurrentAccessTest {
  private static final String MODEL = "test-model";
  private static final int VERSIONS = 40;

  @TempDir Path dir;

  private static int leavesOf(int version) {
    return 20 + (version % 7) * 15;
  }

  @Test
  void loadsDuringRepeatedSavesSeeWholeVersionsOnly() throws Exception {
    List<Tree> trees = new ArrayList<>();
    List<HierarchyState> hierarchies = new ArrayList<>();
    for (int v = 0; v < VERSIONS; v++) {
      Tree t = RandomTrees.tree(v, leavesOf(v), RandomTrees.DIM, "v" + v);
      trees.add(t);
      hierarchies.add(RandomTrees.hierarchy(t, v));
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(dir.resolve("kb.db"), MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(trees.get(0), hierarchies.get(0), 0);
      AtomicBoolean done = new AtomicBoolean();
      ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
      AtomicInteger loads = new AtomicInteger();
      List<Thread> loaders = new ArrayList<>();
      for (int i = 0; i < 2; i++) {
        Thread t = new Thread(() -> {
          try {
            while (!done.get()) {
              checkWhole(store.loadTree());
              checkWhole(store.loadHierarchy());
              loads.incrementAndGet();
            }
          } catch (Throwable e) {
            failures.add(e);
          }
        }, "loader-" + i);
        t.start();
        loaders.add(t);
      }
      try {
        // At least 3 rounds, and on until the loaders have overlapped many saves (bounded for slow CI).
        for (int round = 0; round < 3 || (loads.get() < 200 && round < 100); round++) {
          for (int v = 1; v < VERSIONS; v++) {
            store.saveTreeWithHierarchy(trees.get(v), hierarchies.get(v), 0);
          }
        }
      } finally {
        done.set(true);
        for (Thread t : loaders) {
          t.join();
        }
      }
      if (!failures.isEmpty()) {
        AssertionError e = new AssertionError(failures.size() + " loader failures");
        failures.forEach(e::addSuppressed);
        throw e;
      }
      assertTrue(loads.get() >= 200, "the loaders ran only " + loads.get() + " times");
      TreeAssert.assertSameTree(trees.get(VERSIONS - 1), store.loadTree());
    }
  }

  /** The tree is one saved version: its leaf count is that version's and every id carries its prefix. */
  private static void checkWhole(Tree t) {
    String prefix = t.id(0).substring(0, t.id(0).indexOf('-') + 1);
    int version = Integer.parseInt(prefix.substring(1, prefix.length() - 1));
    assertEquals(leavesOf(version), t.leafCount(), "leaf count of version " + version);
    for (int v = 0; v < t.size(); v++) {
      assertTrue(t.id(v).startsWith(prefix), "node " + v + " of version " + version + " is " + t.id(v));
    }
  }

  private static void checkWhole(HierarchyState h) {
    assertEquals(2, h.levels().size());
    String[] members = h.levels().get(0).memberIds();
    String prefix = members[0].substring(0, members[0].indexOf('-') + 1);
    int version = Integer.parseInt(prefix.substring(1, prefix.length() - 1));
    assertEquals(leavesOf(version), members.length, "level 0 of version " + version);
    for (String id : members) {
      assertTrue(id.startsWith(prefix), id + " in level 0 of version " + version);
    }
  }
}

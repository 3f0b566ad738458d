package dev.setree.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.internal.core.TreeStore.Mutation.Kind;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PendingMutationsTest {
  private static final String MODEL = "test-model";

  @TempDir Path dir;

  @Test
  void appendListDropAppliedAndSurviveReopen() {
    Path file = dir.resolve("kb.db");
    Tree tree = RandomTrees.tree(1);
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      assertEquals(1, store.appendMutation(new Mutation(0, Kind.INSERT, "f1", "the sky is blue", "2024-05-01")));
      assertEquals(2, store.appendMutation(new Mutation(99, Kind.DELETE, "f0", null, null)));
      assertEquals(3, store.appendMutation(new Mutation(0, Kind.INSERT, "f2\nodd id", "grass is green", null)));
      assertEquals(List.of(
          new Mutation(1, Kind.INSERT, "f1", "the sky is blue", "2024-05-01"),
          new Mutation(2, Kind.DELETE, "f0", null, null),
          new Mutation(3, Kind.INSERT, "f2\nodd id", "grass is green", null)), store.pendingMutations());
      store.saveTreeWithHierarchy(tree, HierarchyState.empty(), 2);
      assertEquals(List.of(new Mutation(3, Kind.INSERT, "f2\nodd id", "grass is green", null)),
          store.pendingMutations());
    }
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      assertEquals(List.of(new Mutation(3, Kind.INSERT, "f2\nodd id", "grass is green", null)),
          store.pendingMutations());
      store.saveTreeWithHierarchy(tree, HierarchyState.empty(), 3);
      assertTrue(store.pendingMutations().isEmpty());
      assertEquals(4, store.appendMutation(new Mutation(0, Kind.DELETE, "f1", null, null)),
          "sequence numbers are never reused");
    }
  }

  @Test
  void saveWithZeroKeepsAllMutations() {
    try (SqliteTreeStore store = SqliteTreeStore.open(dir.resolve("kb.db"), MODEL, RandomTrees.DIM)) {
      store.appendMutation(new Mutation(0, Kind.DELETE, "a", null, null));
      store.appendMutation(new Mutation(0, Kind.DELETE, "b", null, null));
      store.saveTreeWithHierarchy(RandomTrees.tree(2), HierarchyState.empty(), 0);
      assertEquals(2, store.pendingMutations().size());
    }
  }

  @Test
  void invalidMutationsAreRejected() {
    try (SqliteTreeStore store = SqliteTreeStore.open(dir.resolve("kb.db"), MODEL, RandomTrees.DIM)) {
      assertThrows(IllegalArgumentException.class,
          () -> store.appendMutation(new Mutation(0, Kind.INSERT, "f", null, null)));
      assertThrows(NullPointerException.class,
          () -> store.appendMutation(new Mutation(0, null, "f", "t", null)));
      assertThrows(NullPointerException.class,
          () -> store.appendMutation(new Mutation(0, Kind.DELETE, null, null, null)));
      assertTrue(store.pendingMutations().isEmpty());
    }
  }

  @Test
  void concurrentAppendsGetDistinctIncreasingSequenceNumbers() throws Exception {
    try (SqliteTreeStore store = SqliteTreeStore.open(dir.resolve("kb.db"), MODEL, RandomTrees.DIM)) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<Long>> futures = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
          String id = "f" + i;
          futures.add(pool.submit(() -> store.appendMutation(new Mutation(0, Kind.DELETE, id, null, null))));
        }
        Set<Long> seqs = new HashSet<>();
        for (Future<Long> f : futures) {
          seqs.add(f.get());
        }
        assertEquals(100, seqs.size());
      } finally {
        pool.shutdownNow();
      }
      List<Mutation> pending = store.pendingMutations();
      assertEquals(100, pending.size());
      for (int i = 1; i < pending.size(); i++) {
        assertTrue(pending.get(i - 1).seq() < pending.get(i).seq());
      }
    }
  }
}

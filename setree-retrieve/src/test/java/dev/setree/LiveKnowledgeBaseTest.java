package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore;
import dev.setree.spi.Fact;
import dev.setree.internal.store.SqliteTreeStore;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.TempKnowledgeBase;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Inserts and deletes through the facade: durability, visibility, concurrency, crashes. */
@ExtendWith(TempKnowledgeBase.class)
class LiveKnowledgeBaseTest {

  static SETreeConfig config(long quietMillis) {
    return SETreeConfig.builder().embedder(new HashEmbedder(48)).tokenCounter(new SimpleTokenCounter())
        .quietWindowMillis(quietMillis).build();
  }

  /** An empty knowledge base grows from its first insert; mutations become visible after maintenance. */
  @Test
  void firstInsertsGrowAnEmptyKnowledgeBase(@TempKnowledgeBase.File Path kb) throws Exception {
    try (SETree t = SETree.open(kb, config(50))) {
      Ack a = t.insert("the user works on SETree");
      assertEquals("insert queued", a.message());
      assertTrue(a.seq() > 0);
      assertEquals(0, t.tree().leafCount(), "not visible before maintenance");
      t.awaitMaintenance().get(30, TimeUnit.SECONDS);
      assertEquals(1, t.tree().leafCount());
      assertEquals(2, t.tree().size(), "one leaf under an internal root");
      assertTrue(t.retrieve("what does the user work on?", 50).text().contains("the user works on SETree"));
      t.insert("the user writes Java 17");
      t.insert("the user reads Hacker News");
      t.awaitMaintenance().get(30, TimeUnit.SECONDS);
      assertEquals(3, t.tree().leafCount());
      assertEquals("the user reads Hacker News", t.retrieve("Hacker News", 8).items().stream()
          .filter(Context.Item::isLeaf).findFirst().orElseThrow().text());
    }
  }

  /** Bursts coalesce into few runs; deleting every leaf leaves a valid empty knowledge base. */
  @Test
  void burstsCoalesceAndDeletesEmptyTheBase(@TempKnowledgeBase.File Path kb) throws Exception {
    try (SETree t = SETree.open(kb, config(300))) {
      List<String> ids = new ArrayList<>();
      for (Fact f : Corpora.synthetic(40, 3)) {
        ids.add(t.insert(f).leafId());
      }
      t.awaitMaintenance().get(30, TimeUnit.SECONDS);
      assertEquals(40, t.tree().leafCount());
      assertEquals(40, t.lastMaintenanceRun().inserted(), "one run applied the whole burst");
      for (String id : ids) {
        t.delete(id);
      }
      t.triggerMaintain();
      t.awaitMaintenance().get(30, TimeUnit.SECONDS);
      assertTrue(t.tree().isEmpty());
      Context c = t.retrieve("anything", 100);
      assertEquals("", c.text());
    }
    try (SETree t = SETree.open(kb, config(300))) {
      assertTrue(t.tree().isEmpty());
      assertEquals(0, t.pendingMutations());
    }
  }

  /** Duplicate text, duplicate id, empty or huge text, unknown delete, closed instance. */
  @Test
  void documentedRefusals(@TempKnowledgeBase.File Path kb) throws Exception {
    SETree t = SETree.open(kb, config(20));
    t.build(Corpora.synthetic(30, 1), BuildProgress.NONE);
    Ack dup = t.insert(Corpora.synthetic(30, 1).get(3).text());
    assertTrue(dup.duplicate());
    assertEquals("f3", dup.leafId());
    Ack queued = t.insert(new Fact("n1", "a brand new fact", null));
    assertTrue(t.insert("a brand new fact").duplicate(), "a queued text is a duplicate too");
    assertEquals("n1", queued.leafId());
    var e = assertThrows(IllegalArgumentException.class, () -> t.insert(new Fact("f4", "other text", null)));
    assertTrue(e.getMessage().contains("already exists"));
    assertThrows(IllegalArgumentException.class, () -> t.insert("   "));
    var huge = assertThrows(IllegalArgumentException.class, () -> t.insert("x".repeat(Fact.MAX_CHARS + 1)));
    assertTrue(huge.getMessage().contains("at most"));
    var unknown = assertThrows(IllegalArgumentException.class, () -> t.delete("no-such-leaf"));
    assertTrue(unknown.getMessage().contains("unknown leaf id 'no-such-leaf'"));
    t.delete("f5");
    assertThrows(IllegalArgumentException.class, () -> t.delete("f5"), "already queued for deletion");
    assertThrows(IllegalArgumentException.class, () -> t.insert(new Fact("_n3", "reserved", null)));
    t.awaitMaintenance().get(30, TimeUnit.SECONDS);
    assertEquals(30, t.tree().leafCount());
    assertTrue(t.tree().indexOf("n1") >= 0);
    assertEquals(-1, t.tree().indexOf("f5"));
    t.close();
    assertThrows(IllegalStateException.class, () -> t.insert("late"));
    assertThrows(IllegalStateException.class, () -> t.delete("n1"));
  }

  /**
   * A read-only SETree never writes, refuses mutations, and picks up what a writer commits (it notices
   * the commit on retrieve and loads the new generation in the background).
   */
  @Test
  void readOnlyReaderFollowsAWriter(@TempKnowledgeBase.File Path kb) throws Exception {
    try (SETree writer = SETree.open(kb, config(60_000))) {
      writer.build(Corpora.synthetic(40, 4), BuildProgress.NONE);
      try (SETree reader = SETree.openReadOnly(kb, config(60_000))) {
        assertTrue(reader.isReadOnly());
        assertThrows(IllegalStateException.class, () -> reader.insert("nope"));
        assertThrows(IllegalStateException.class, () -> reader.delete("f1"));
        assertThrows(IllegalStateException.class, reader::triggerMaintain);
        assertEquals(40, reader.tree().leafCount());
        writer.insert(new Fact("new-1", "Oskar repairs violins in Lisbon", null));
        writer.triggerMaintain();
        writer.awaitMaintenance().get(30, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (reader.tree().indexOf("new-1") < 0 && System.nanoTime() < deadline) {
          reader.retrieve("violins", 32);
          Thread.sleep(20);
        }
        assertTrue(reader.tree().indexOf("new-1") >= 0, "the reader loaded the writer's new generation");
        assertTrue(reader.retrieve("who repairs violins?", 64).text().contains("Oskar"));
      }
    }
    assertThrows(KnowledgeBaseException.class,
        () -> SETree.openReadOnly(kb.resolveSibling("missing.db"), config(10)));
  }

  /** Acknowledged mutations survive a close before maintenance and are replayed by the next open. */
  @Test
  void pendingMutationsAreReplayedOnOpen(@TempKnowledgeBase.File Path kb) throws Exception {
    try (SETree t = SETree.open(kb, config(60_000))) {
      t.build(Corpora.synthetic(50, 2), BuildProgress.NONE);
      t.insert(new Fact("late-1", "Goran collects maps at night", null));
      t.delete("f7");
    }
    try (SETree t = SETree.open(kb, config(20))) {
      assertEquals(2, t.pendingMutations());
      t.awaitMaintenance().get(30, TimeUnit.SECONDS);
      assertTrue(t.tree().indexOf("late-1") >= 0);
      assertEquals(-1, t.tree().indexOf("f7"));
      assertEquals(0, t.pendingMutations());
    }
  }

  /** Readers during a stream of inserts never fail and always see a whole, consistent tree. */
  @Test
  void readersDuringInsertsSeeConsistentTrees(@TempKnowledgeBase.File Path kb) throws Exception {
    try (SETree t = SETree.open(kb, config(10))) {
      t.build(Corpora.synthetic(300, 4), BuildProgress.NONE);
      AtomicBoolean stop = new AtomicBoolean();
      ExecutorService pool = Executors.newFixedThreadPool(3);
      try {
        List<Future<Integer>> readers = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
          readers.add(pool.submit(() -> {
            int n = 0;
            while (!stop.get()) {
              Tree tree = t.tree().tree();
              assertEquals(tree.leafCount(), tree.leavesUnder(tree.root()));
              Context c = t.retrieve("Emil reads history with friends", 150);
              assertTrue(c.tokensUsed() <= 150);
              assertTrue(c.complete());
              n++;
            }
            return n;
          }));
        }
        List<Fact> more = Corpora.synthetic(120, 99);
        for (int i = 0; i < more.size(); i++) {
          t.insert(new Fact("x" + i, more.get(i).text() + " extra", null));
          if (i % 20 == 0) {
            Thread.sleep(30);
          }
        }
        t.awaitMaintenance().get(60, TimeUnit.SECONDS);
        stop.set(true);
        for (Future<Integer> f : readers) {
          assertTrue(f.get() > 0);
        }
        assertEquals(420, t.tree().leafCount());
      } finally {
        stop.set(true);
        pool.shutdownNow();
      }
    }
  }

  /**
   * A child JVM inserting with frequent maintenance runs is killed (SIGKILL) at random points; on reopen
   * every acknowledged insert is in the tree or pending, and tree and oracle are one consistent state.
   */
  @Test
  void killedMidMaintenanceLosesNothing(@TempKnowledgeBase.File Path kb) throws Exception {
    Set<String> acked = new HashSet<>();
    for (int round = 0; round < 3; round++) {
      Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), CrashWorker.class.getName(), kb.toString(),
          String.valueOf(round))
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      int killAfter = 40 + 35 * round;
      int seen = 0;
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          if (line.startsWith("ACK ")) {
            acked.add(line.substring(4));
            if (++seen >= killAfter) {
              p.destroyForcibly(); // SIGKILL on Linux
              break;
            }
          }
        }
      }
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      assertTrue(seen >= killAfter, "the worker acknowledged " + seen + " inserts");
      try (SqliteTreeStore store = SqliteTreeStore.open(kb, "hash-48", 48)) {
        Tree tree = store.loadTree();
        HierarchyState h = store.loadHierarchy();
        Set<String> present = new HashSet<>();
        for (int v = 0; v < tree.leafCount(); v++) {
          present.add(tree.id(v));
        }
        for (TreeStore.Mutation m : store.pendingMutations()) {
          present.add(m.leafId());
        }
        for (String id : acked) {
          assertTrue(present.contains(id), "round " + round + ": acknowledged " + id + " was lost");
        }
        if (!tree.isEmpty()) {
          assertEquals(tree.leafCount(), h.levels().get(0).size(), "oracle and tree from the same commit");
          for (int i = 0; i < tree.leafCount(); i++) {
            assertEquals(tree.id(i), h.levels().get(0).memberIds()[i]);
          }
        }
      }
    }
    try (SETree t = SETree.open(kb, config(10))) {
      t.awaitMaintenance().get(60, TimeUnit.SECONDS);
      for (String id : acked) {
        assertTrue(t.tree().indexOf(id) >= 0, id);
      }
      assertFalse(t.tree().isEmpty());
    }
  }

  /** The worker process of {@link #killedMidMaintenanceLosesNothing}. */
  public static final class CrashWorker {
    public static void main(String[] args) throws Exception {
      Path kb = Path.of(args[0]);
      int round = Integer.parseInt(args[1]);
      try (SETree t = SETree.open(kb, config(5))) {
        List<Fact> facts = Corpora.synthetic(1000, 1000 + round);
        for (int i = 0; i < facts.size(); i++) {
          Ack a = t.insert(new Fact("r" + round + "-" + i, facts.get(i).text() + " r" + round, null));
          System.out.println("ACK " + a.leafId());
          System.out.flush();
          if (i % 7 == 0) {
            t.triggerMaintain();
          }
          Thread.sleep(2);
        }
      }
    }
  }
}

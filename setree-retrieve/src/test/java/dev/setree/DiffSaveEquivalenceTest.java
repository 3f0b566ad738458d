package dev.setree;

import static dev.setree.testing.TreeAssert.assertSameHierarchy;
import static dev.setree.testing.TreeAssert.assertSameTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.TreeStore;
import dev.setree.spi.Fact;
import dev.setree.internal.store.SqliteTreeStore;
import dev.setree.testing.Corpora;
import dev.setree.testing.TempKnowledgeBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Many maintenance runs saved as diffs: after each, the file read back equals the snapshot in memory, and a
 * full save of that snapshot into another file reads back the same. Random insert/delete batches; the seed
 * is in the test name and every message.
 */
@org.junit.jupiter.api.extension.ExtendWith(TempKnowledgeBase.class)
class DiffSaveEquivalenceTest {

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void reopenedTreeEqualsMemoryAndAFullSave(long seed, @TempKnowledgeBase.File Path kb,
      @TempKnowledgeBase.File Path full) throws Exception {
    Random r = new Random(seed);
    List<Fact> pool = Corpora.synthetic(400, seed);
    List<String> live = new ArrayList<>();
    long bytesWritten = 0;
    long fullBytes;
    try (SETree t = SETree.open(kb, LiveKnowledgeBaseTest.config(3_600_000))) {
      t.build(pool.subList(0, 150), BuildProgress.NONE);
      try (SqliteTreeStore s = SqliteTreeStore.open(full, "hash-48", 48)) {
        s.saveTreeWithHierarchy(t.tree().tree(), t.currentSnapshot().hierarchy(), 0);
        fullBytes = s.lastSaveBytes();
      }
      for (int i = 0; i < 150; i++) {
        live.add(pool.get(i).id());
      }
      int next = 150;
      for (int run = 0; run < 25; run++) {
        String at = "seed " + seed + " run " + run;
        int inserts = r.nextInt(6);
        int deletes = r.nextInt(4);
        for (int i = 0; i < inserts && next < pool.size(); i++) {
          t.insert(pool.get(next));
          live.add(pool.get(next++).id());
        }
        for (int i = 0; i < deletes && live.size() > 3; i++) {
          t.delete(live.remove(r.nextInt(live.size())));
        }
        t.triggerMaintain();
        t.awaitMaintenance().get(60, TimeUnit.SECONDS);
        Snapshot mem = t.currentSnapshot();
        assertEquals(live.size(), mem.tree().leafCount(), at);
        if (t.lastMaintenanceRun() != null) {
          bytesWritten += t.lastMaintenanceRun().bytesWritten();
        }
        try (SqliteTreeStore ro = SqliteTreeStore.openReadOnly(kb)) {
          TreeStore.State disk = ro.load();
          assertEquals(mem.generation(), disk.generation(), at);
          assertSameTree(mem.tree(), disk.tree());
          assertSameHierarchy(mem.hierarchy(), disk.hierarchy());
        }
        try (SqliteTreeStore s = SqliteTreeStore.open(full, "hash-48", 48)) {
          s.saveTreeWithHierarchy(mem.tree(), mem.hierarchy(), 0);
          TreeStore.State whole = s.load();
          assertSameTree(mem.tree(), whole.tree());
          assertSameHierarchy(mem.hierarchy(), whole.hierarchy());
        }
      }
      // One fact more: a run writes the rows on the fact's path and the oracle members it touched.
      t.insert(pool.get(pool.size() - 1));
      t.triggerMaintain();
      t.awaitMaintenance().get(60, TimeUnit.SECONDS);
      long one = t.lastMaintenanceRun().bytesWritten();
      System.out.println("seed " + seed + ": 25 runs wrote " + bytesWritten + " bytes, one insert " + one
          + ", a full save " + fullBytes);
      assertTrue(one > 0 && one < fullBytes / 4,
          "a one-fact run wrote " + one + " bytes; a full save writes " + fullBytes);
    }
  }
}

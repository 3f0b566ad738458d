package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.TempKnowledgeBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * After a maintenance run the writer copies the run's pages from the write-ahead log into the database file
 * (a passive checkpoint, docs/store-format.md "Checkpoints"), so that the next save does not pay SQLite's
 * automatic checkpoint of several runs' pages. Seen from outside SQLite: the database file alone, copied without
 * its log, holds the run.
 */
@ExtendWith(TempKnowledgeBase.class)
class CheckpointAfterRunTest {

  @Test
  void theDatabaseFileHoldsARunOnceItIsVisible(@TempKnowledgeBase.File Path kb) throws Exception {
    SETreeConfig cfg = SETreeConfig.builder().embedder(new HashEmbedder(48)).tokenCounter(new SimpleTokenCounter())
        .quietWindowMillis(20).build();
    try (SETree t = SETree.open(kb, cfg)) {
      t.build(Corpora.synthetic(120, 6), BuildProgress.NONE);
      int built = t.stats().leaves();
      t.insert(new Fact("n1", "Ilse restores clocks in Ghent", null));
      t.awaitMaintenance().get(30, TimeUnit.SECONDS);
      assertEquals(built + 1, t.stats().leaves());
      // The checkpoint follows the run on the maintenance thread, after its waiters are told: wait for it.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      int inFile = leavesInTheFileAlone(kb, cfg);
      while (inFile != built + 1 && System.nanoTime() < deadline) {
        Thread.sleep(20);
        inFile = leavesInTheFileAlone(kb, cfg);
      }
      assertEquals(built + 1, inFile, "the run's pages are in the database file, not only in its log");
    }
  }

  /** The leaves of a copy of the database file alone (without its -wal), opened read-only; -1 for a torn copy. */
  private static int leavesInTheFileAlone(Path kb, SETreeConfig cfg) throws Exception {
    Path copy = kb.resolveSibling("alone.db");
    for (String side : new String[] {"", "-wal", "-shm"}) {
      Files.deleteIfExists(copy.resolveSibling(copy.getFileName() + side));
    }
    Files.copy(kb, copy, StandardCopyOption.REPLACE_EXISTING);
    try (SETree c = SETree.openReadOnly(copy, cfg)) {
      return c.stats().leaves();
    } catch (KnowledgeBaseException e) {
      return -1; // copied while a checkpoint wrote: try again
    }
  }
}

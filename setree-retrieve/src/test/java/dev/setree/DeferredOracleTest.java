package dev.setree;

import static dev.setree.testing.TreeAssert.assertSameHierarchy;
import static dev.setree.testing.TreeAssert.assertSameTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.TreeStore;
import dev.setree.internal.store.SqliteTreeStore;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.TempKnowledgeBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The open reads of the oracle only what retrieves search and the rest when a maintenance run first needs it
 * (ADR 0028): the runs, the files they write and the retrieves are those of a knowledge base whose oracle was
 * in memory from the start, and an open's oracle is never read once another process committed a newer tree.
 */
@ExtendWith(TempKnowledgeBase.class)
class DeferredOracleTest {
  private static final String[] PROMPTS = {"Chen visits kyoto alone", "what does the user like to eat",
      "the state of the project in 2023", "music and travel"};

  private static final RetrieveOptions CANDIDATES = RetrieveOptions.builder().path(RetrievePath.APPROXIMATE).build();

  private static SETreeConfig config(RetrievePath path) {
    return SETreeConfig.builder().embedder(new HashEmbedder(48)).tokenCounter(new SimpleTokenCounter())
        .retrievePath(path).quietWindowMillis(3_600_000).build(); // runs only when triggered
  }

  /**
   * Two copies of one build: one keeps the oracle the build left in memory, the other is reopened (kNN rows
   * alone, the rest read by its first run). Random batches of inserts and deletes: after every run both have
   * the same tree and oracle and wrote the same bytes, and their retrieves agree before the first run.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void runsAfterAnOpenEqualRunsFromTheOracleInMemory(long seed, @TempKnowledgeBase.File Path eagerKb,
      @TempKnowledgeBase.File Path lazyKb) throws Exception {
    RetrievePath path = seed % 2 == 0 ? RetrievePath.EXACT : RetrievePath.APPROXIMATE;
    List<Fact> pool = Corpora.synthetic(260, seed);
    try (SETree b = SETree.open(lazyKb, config(path))) {
      b.build(pool.subList(0, 160), BuildProgress.NONE);
    }
    try (SETree eager = SETree.open(eagerKb, config(path))) {
      eager.build(pool.subList(0, 160), BuildProgress.NONE);
      assertTrue(eager.currentSnapshot().oracle().isRead());
      try (SETree lazy = SETree.open(lazyKb, config(path))) {
        DeferredOracle opened = lazy.currentSnapshot().oracle();
        assertFalse(opened.isRead(), "the open read the whole oracle");
        assertFalse(opened.leafKnn().isEmpty(), "a writer reads the kNN rows on open, whatever its default path");
        assertTrue(lazy.currentSnapshot().neighbours().hasGraph());
        assertSameTree(eager.tree().tree(), lazy.tree().tree());
        for (String prompt : PROMPTS) {
          assertEquals(eager.retrieve(prompt, 256).text(), lazy.retrieve(prompt, 256).text(), prompt);
          // the path this call asks for, whatever the default: the candidate path searches the kNN graph
          assertEquals(eager.retrieve(prompt, 256, CANDIDATES).text(), lazy.retrieve(prompt, 256, CANDIDATES).text(),
              prompt + " (candidate path)");
        }
        assertFalse(opened.isRead(), "a retrieve read the whole oracle");
        Random r = new Random(seed);
        List<String> live = new ArrayList<>();
        for (int i = 0; i < 160; i++) {
          live.add(pool.get(i).id());
        }
        int next = 160;
        for (int run = 0; run < 12; run++) {
          String at = "seed " + seed + " run " + run;
          int inserts = 1 + r.nextInt(5);
          int deletes = r.nextInt(3);
          for (int i = 0; i < inserts && next < pool.size(); i++) {
            eager.insert(pool.get(next));
            lazy.insert(pool.get(next));
            live.add(pool.get(next++).id());
          }
          for (int i = 0; i < deletes && live.size() > 3; i++) {
            String id = live.remove(r.nextInt(live.size()));
            eager.delete(id);
            lazy.delete(id);
          }
          for (SETree t : List.of(eager, lazy)) {
            t.triggerMaintain();
            t.awaitMaintenance().get(60, TimeUnit.SECONDS);
          }
          assertSameTree(eager.tree().tree(), lazy.tree().tree());
          assertSameHierarchy(eager.currentSnapshot().hierarchy(), lazy.currentSnapshot().hierarchy());
          assertEquals(eager.lastMaintenanceRun().bytesWritten(), lazy.lastMaintenanceRun().bytesWritten(), at);
          for (String prompt : PROMPTS) {
            assertEquals(eager.retrieve(prompt, 256).text(), lazy.retrieve(prompt, 256).text(), at + ": " + prompt);
            assertEquals(eager.retrieve(prompt, 256, CANDIDATES).text(), lazy.retrieve(prompt, 256, CANDIDATES).text(),
                at + ": " + prompt + " (candidate path)");
          }
        }
      }
    }
    try (SqliteTreeStore e = SqliteTreeStore.openReadOnly(eagerKb);
        SqliteTreeStore l = SqliteTreeStore.openReadOnly(lazyKb)) {
      TreeStore.State es = e.load();
      TreeStore.State ls = l.load();
      assertSameTree(es.tree(), ls.tree());
      assertSameHierarchy(es.hierarchy(), ls.hierarchy());
      assertEquals(es.generation(), ls.generation());
    }
  }

  /**
   * Another process commits between this one's open and its first run: the open's oracle is refused (it would
   * belong to the older tree), and the run starts from the newer state, as one process making both runs does.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(value = RetrievePath.class, names = {"EXACT", "APPROXIMATE"})
  void anotherProcessCommitsBetweenOpenAndFirstRun(RetrievePath path, @TempKnowledgeBase.File Path kb,
      @TempKnowledgeBase.File Path ref) throws Exception {
    List<Fact> pool = Corpora.synthetic(200, 11);
    Fact x = pool.get(150);
    Fact y = pool.get(151);
    for (Path p : List.of(kb, ref)) {
      try (SETree t = SETree.open(p, config(path))) {
        t.build(pool.subList(0, 150), BuildProgress.NONE);
      }
    }
    try (SETree a = SETree.open(kb, config(path))) {
      Snapshot opened = a.currentSnapshot();
      assertFalse(opened.oracle().isRead());
      try (SETree b = SETree.open(kb, config(path))) { // another process: its own connections and writer lock
        b.insert(x);
        b.triggerMaintain();
        b.awaitMaintenance().get(60, TimeUnit.SECONDS);
      }
      assertThrows(TreeStore.StaleStateException.class, opened::hierarchy,
          "the open's oracle was read after another process committed a newer tree");
      assertFalse(opened.oracle().isRead());
      a.insert(y);
      a.triggerMaintain();
      a.awaitMaintenance().get(60, TimeUnit.SECONDS);
      assertTrue(a.tree().tree().indexOf(x.id()) >= 0 && a.tree().tree().indexOf(y.id()) >= 0);
    }
    try (SETree t = SETree.open(ref, config(path))) {
      for (Fact f : List.of(x, y)) {
        t.insert(f);
        t.triggerMaintain();
        t.awaitMaintenance().get(60, TimeUnit.SECONDS);
      }
    }
    try (SqliteTreeStore k = SqliteTreeStore.openReadOnly(kb); SqliteTreeStore r = SqliteTreeStore.openReadOnly(ref)) {
      TreeStore.State ks = k.load();
      TreeStore.State rs = r.load();
      assertSameTree(rs.tree(), ks.tree());
      assertSameHierarchy(rs.hierarchy(), ks.hierarchy());
    }
  }

  /**
   * An accepted mutation reads the whole oracle ahead of the run, on another thread, and what it reads is the
   * oracle the file holds.
   */
  @org.junit.jupiter.api.Test
  void anAcceptedMutationReadsTheOracleAhead(@TempKnowledgeBase.File Path kb) throws Exception {
    List<Fact> pool = Corpora.synthetic(120, 5);
    try (SETree t = SETree.open(kb, config(RetrievePath.APPROXIMATE))) {
      t.build(pool.subList(0, 100), BuildProgress.NONE);
    }
    TreeStore.State stored;
    try (SqliteTreeStore s = SqliteTreeStore.openReadOnly(kb)) {
      stored = s.load();
    }
    try (SETree t = SETree.open(kb, config(RetrievePath.APPROXIMATE))) {
      DeferredOracle opened = t.currentSnapshot().oracle();
      assertFalse(opened.isRead());
      t.insert(pool.get(100));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!opened.isRead() && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertTrue(opened.isRead(), "the oracle was not read ahead of the run");
      assertSameHierarchy(stored.hierarchy(), opened.whole());
    }
  }
}

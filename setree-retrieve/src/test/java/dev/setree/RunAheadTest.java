package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.Embedder;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.ForwardingEmbedder;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.TempKnowledgeBase;
import dev.setree.testing.TreeAssert;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A maintenance run computed while the quiet window runs (docs/adr/0032): saved as the run at the window's end
 * would have computed it, with later mutations applied on top, and dropped when another writer committed first.
 */
@ExtendWith(TempKnowledgeBase.class)
class RunAheadTest {

  private static SETreeConfig config(Embedder embedder, long quietMillis) {
    return SETreeConfig.builder().embedder(embedder).tokenCounter(new SimpleTokenCounter())
        .quietWindowMillis(quietMillis).build();
  }

  /**
   * The same inserts on two copies of one knowledge base: made by this process (the run is computed ahead), and
   * left pending by another writer that closed (the next open's run computes it after the window). Same trees,
   * same oracles.
   */
  @Test
  void aRunComputedAheadSavesWhatTheRunWouldHave(@TempKnowledgeBase.File Path kb) throws Exception {
    Embedder e = new HashEmbedder(48);
    try (SETree t = SETree.open(kb, config(e, 50))) {
      t.build(Corpora.synthetic(120, 6), BuildProgress.NONE);
    }
    Path other = kb.resolveSibling("other.db");
    Files.copy(kb, other);
    List<Fact> inserts = List.of(new Fact("n1", "Ilse restores clocks in Ghent", null),
        new Fact("n2", "Ilse restores a clock from Bruges", null));
    try (SETree ahead = SETree.open(kb, config(e, 50))) {
      for (Fact f : inserts) {
        try (SETree leaver = SETree.open(other, config(e, 60_000))) {
          leaver.insert(f); // closed before its window ends: the mutation stays pending
        }
        ahead.insert(f);
        ahead.awaitMaintenance().get(30, TimeUnit.SECONDS);
        try (SETree later = SETree.open(other, config(e, 20))) {
          later.awaitMaintenance().get(30, TimeUnit.SECONDS);
          assertEquals(0, later.writer().aheadSaved(), "another process's mutation is applied after the window");
          TreeAssert.assertSameTree(later.currentSnapshot().tree(), ahead.currentSnapshot().tree());
          TreeAssert.assertSameHierarchy(later.currentSnapshot().hierarchy(), ahead.currentSnapshot().hierarchy());
        }
      }
      assertEquals(2, ahead.writer().aheadSaved());
      assertEquals(0, ahead.writer().aheadDropped());
      assertTrue(ahead.lastMaintenanceRun().totalNanos() >= ahead.lastMaintenanceRun().rebuildNanos(),
          "the run's time counts the part computed ahead");
    }
  }

  /**
   * A writer copies the tree on open, before any mutation: its first run continues from that copy rather than
   * making one (MaintainerTest checks that a run from a copy made ahead gives what a run from its own copy gives),
   * and writes the new leaf's row into the room the load left after the leaves' rows instead of copying every row.
   */
  @Test
  void aWriterCopiesTheTreeOnOpen(@TempKnowledgeBase.File Path kb) throws Exception {
    Embedder e = new HashEmbedder(48);
    try (SETree t = SETree.open(kb, config(e, 50))) {
      t.build(Corpora.synthetic(120, 6), BuildProgress.NONE);
    }
    try (SETree t = SETree.open(kb, config(e, 50))) {
      float[] loaded = t.currentSnapshot().tree().leafEmbeddings();
      t.insert(new Fact("n1", "Ilse restores clocks in Ghent", null));
      t.awaitMaintenance().get(30, TimeUnit.SECONDS);
      assertEquals(1, t.writer().draftsReused(), "the first run continued from the copy made on open");
      assertEquals(1, t.writer().aheadSaved());
      assertEquals(121, t.tree().leafCount());
      assertTrue(loaded == t.currentSnapshot().tree().leafEmbeddings(), "the new row went into the loaded rows' room");
      TreeAssert.assertSameTree(t.currentSnapshot().tree(), reopened(kb, e));
    }
  }

  /** Mutations accepted while the run is computed ahead are applied on top of it, in the same commit. */
  @Test
  void mutationsAcceptedMeanwhileAreAppliedOnTop(@TempKnowledgeBase.File Path kb) throws Exception {
    GatedEmbedder gated = new GatedEmbedder(new HashEmbedder(48), "Piet tunes organs in Delft");
    try (SETree t = heldAhead(kb, gated, 200, 7)) {
      t.insert(new Fact("g2", "Piet tunes a harmonium", null));
      t.delete("f3");
      gated.release.countDown();
      t.awaitMaintenance().get(30, TimeUnit.SECONDS);
      MaintenanceReport r = t.lastMaintenanceRun();
      assertEquals(1, t.writer().aheadSaved());
      assertEquals(3, r.mutations(), "one run applied all three");
      assertEquals(2, r.inserted());
      assertEquals(1, r.deleted());
      assertEquals(121, t.tree().leafCount());
      assertEquals(-1, t.tree().indexOf("f3"));
      assertStepsTimed(r);
      TreeAssert.assertSameTree(t.currentSnapshot().tree(), reopened(kb, gated));
    }
  }

  /** A run computed ahead of another writer's commit is dropped; that writer's state is continued from. */
  @Test
  void aRunAheadOfAnotherWritersCommitIsDropped(@TempKnowledgeBase.File Path kb) throws Exception {
    Embedder plain = new HashEmbedder(48);
    GatedEmbedder gated = new GatedEmbedder(plain, "Wim paints ferries");
    try (SETree t = heldAhead(kb, gated, 200, 8)) {
      try (SETree other = SETree.open(kb, config(plain, 60_000))) {
        other.insert(new Fact("o1", "Olga sails to Texel", null));
        other.triggerMaintain(); // applies both pending inserts and commits first
        other.awaitMaintenance().get(30, TimeUnit.SECONDS);
        assertEquals(122, other.tree().leafCount());
      }
      gated.release.countDown();
      t.awaitMaintenance().get(30, TimeUnit.SECONDS);
      awaitDropped(t);
      assertEquals(0, t.writer().aheadSaved());
      assertEquals(122, t.tree().leafCount());
      assertTrue(t.tree().indexOf("w1") >= 0 && t.tree().indexOf("o1") >= 0);
      assertEquals(0, t.pendingMutations());
      TreeAssert.assertSameTree(t.currentSnapshot().tree(), reopened(kb, plain));
    }
  }

  /**
   * A run's report times the rebuild's steps (once each, also when a second pass ran on top of the run computed
   * ahead), then the save worked out, written and installed; all of them within the run's total time.
   */
  private static void assertStepsTimed(MaintenanceReport r) {
    List<String> names = List.copyOf(r.stepNanos().keySet());
    assertEquals(List.of("load", "embed", "draft"), names.subList(0, 3), names.toString());
    assertEquals(List.of("freeze", "plan", "save", "install", "cache"), names.subList(names.size() - 5,
        names.size()), names.toString());
    assertTrue(names.contains("level 0 match") && names.contains("level 0 parents") && names.contains("summaries"),
        names.toString());
    long sum = r.stepNanos().values().stream().mapToLong(Long::longValue).sum();
    assertTrue(r.stepNanos().values().stream().allMatch(v -> v >= 0), r.stepNanos().toString());
    assertTrue(sum <= r.totalNanos(), sum + " ns of steps in a run of " + r.totalNanos() + " ns");
  }

  /**
   * Another writer's build commits a new tree while the run is computed ahead, and leaves the mutation
   * pending: the run ahead, from the old tree, is dropped, and the mutation is applied to the built tree.
   */
  @Test
  void aRunAheadOfAnotherWritersBuildIsDropped(@TempKnowledgeBase.File Path kb) throws Exception {
    Embedder plain = new HashEmbedder(48);
    GatedEmbedder gated = new GatedEmbedder(plain, "Wim paints ferries");
    try (SETree t = heldAhead(kb, gated, 200, 8)) {
      try (SETree other = SETree.open(kb, config(plain, 60_000))) {
        other.build(Corpora.synthetic(90, 9), BuildProgress.NONE);
      }
      gated.release.countDown();
      t.awaitMaintenance().get(30, TimeUnit.SECONDS);
      awaitDropped(t);
      assertEquals(0, t.writer().aheadSaved());
      assertEquals(91, t.tree().leafCount(), "the other writer's 90 leaves and the insert");
      assertTrue(t.tree().indexOf("w1") >= 0);
      TreeAssert.assertSameTree(t.currentSnapshot().tree(), reopened(kb, plain));
    }
  }

  /** Closing gives up a run being computed ahead at its next step (nobody would save it); nothing is lost. */
  @Test
  void closingGivesUpTheRunComputedAhead(@TempKnowledgeBase.File Path kb) throws Exception {
    GatedEmbedder gated = new GatedEmbedder(new HashEmbedder(48), "Anke grows tulips in Lisse");
    SETree t = heldAhead(kb, gated, 60_000, 9);
    int calls = gated.calls.get();
    Thread closer = new Thread(t::close, "closer");
    closer.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (closer.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
      Thread.sleep(5); // close waits for the maintenance thread once it has asked the run to stop
    }
    gated.release.countDown();
    closer.join(30_000);
    assertFalse(closer.isAlive());
    assertEquals(calls, gated.calls.get(), "the run stopped after the embedding: no summary was embedded");
    try (SETree again = SETree.open(kb, config(new HashEmbedder(48), 60_000))) {
      assertEquals(1, again.pendingMutations(), "the insert stays pending for the next writer");
      assertEquals(120, again.tree().leafCount());
    }
  }

  /**
   * A knowledge base of 120 synthetic leaves, opened with {@code gated}, that has just accepted an insert of the
   * gate's text (id {@code w1}): its writer is computing the run ahead and is held in the insert's embedding.
   */
  private static SETree heldAhead(Path kb, GatedEmbedder gated, long quietMillis, long seed) throws Exception {
    SETree t = SETree.open(kb, config(gated, quietMillis));
    t.build(Corpora.synthetic(120, seed), BuildProgress.NONE);
    t.insert(new Fact("w1", gated.gate, null));
    assertTrue(gated.entered.await(30, TimeUnit.SECONDS), "the run ahead embeds the pending insert");
    return t;
  }

  /**
   * Waits for the run to drop what it computed ahead. The run notes that after it has loaded the other writer's
   * state, and loading it already tells {@code awaitMaintenance} that the mutations are applied.
   */
  private static void awaitDropped(SETree t) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (t.writer().aheadDropped() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertEquals(1, t.writer().aheadDropped());
  }

  private static dev.setree.internal.core.Tree reopened(Path kb, Embedder e) {
    try (SETree r = SETree.openReadOnly(kb, config(e, 20))) {
      return r.currentSnapshot().tree();
    }
  }

  /** Answers like its delegate, except that the first call embedding {@code gate} waits for {@link #release}. */
  private static final class GatedEmbedder extends ForwardingEmbedder {
    private final String gate;
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger calls = new AtomicInteger();

    GatedEmbedder(Embedder delegate, String gate) {
      super(delegate);
      this.gate = gate;
    }

    @Override
    public float[][] embed(List<String> texts) {
      calls.incrementAndGet();
      if (texts.contains(gate) && entered.getCount() > 0) {
        entered.countDown();
        try {
          if (!release.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the test never released the gate");
          }
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(ex);
        }
      }
      return delegate.embed(texts);
    }
  }
}

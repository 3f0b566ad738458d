package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.maintain.ExtractiveSummarizer;
import dev.setree.spi.Embedder;
import dev.setree.spi.Fact;
import dev.setree.spi.Summarizer;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Warm-up runs on open (docs/adr/0038): rehearsals of a maintenance run that leave nothing behind, given up when
 * a mutation arrives.
 */
@ExtendWith(TempKnowledgeBase.class)
class WarmUpTest {

  private static SETreeConfig config(Embedder embedder, int warmUpRuns) {
    return SETreeConfig.builder().embedder(embedder).tokenCounter(new SimpleTokenCounter()).quietWindowMillis(50)
        .warmUpRuns(warmUpRuns).build();
  }

  /**
   * Rehearsals are real runs (the model embeds each made-up fact) and leave nothing behind: the snapshot, the
   * pending queue and the file are as they were, the writer's first real run continues from the draft copied on
   * open, and it makes the tree and oracle that a writer that did not rehearse makes from the same file.
   */
  @Test
  void rehearsalsLeaveNothingBehind(@TempKnowledgeBase.File Path kb) throws Exception {
    Embedder plain = new HashEmbedder(48);
    try (SETree t = SETree.open(kb, config(plain, 0))) {
      t.build(Corpora.synthetic(120, 6), BuildProgress.NONE);
    }
    Path other = kb.resolveSibling("other.db");
    Files.copy(kb, other);
    CountingEmbedder counting = new CountingEmbedder(plain);
    Fact fact = new Fact("n1", "Ilse restores clocks in Ghent", null);
    try (SETree t = SETree.open(kb, config(counting, 0))) {
      Snapshot before = t.currentSnapshot();
      int texts = counting.texts.get();
      assertEquals(3, t.writer().rehearse(() -> false, 3));
      assertTrue(counting.texts.get() >= texts + 3, "each rehearsal embedded its made-up fact");
      assertSame(before, t.currentSnapshot(), "a rehearsal shows nothing");
      assertEquals(0, t.pendingMutations());
      try (SETree reader = SETree.openReadOnly(kb, config(plain, 0))) {
        TreeAssert.assertSameTree(before.tree(), reader.currentSnapshot().tree());
      }
      t.insert(fact);
      t.awaitMaintenance().get(30, TimeUnit.SECONDS);
      assertEquals(1, t.writer().draftsReused(), "the run continued from the draft copied on open");
      assertEquals(121, t.tree().leafCount());
      for (int i = 0; i < 3; i++) {
        assertEquals(-1, t.tree().indexOf("setree:warm-up:" + i));
      }
      try (SETree u = SETree.open(other, config(plain, 0))) {
        u.insert(fact);
        u.awaitMaintenance().get(30, TimeUnit.SECONDS);
        TreeAssert.assertSameTree(u.currentSnapshot().tree(), t.currentSnapshot().tree());
        TreeAssert.assertSameHierarchy(u.currentSnapshot().hierarchy(), t.currentSnapshot().hierarchy());
        assertEquals(u.retrieve("clocks in Ghent", 200).text(), t.retrieve("clocks in Ghent", 200).text());
      }
      try (SETree reopened = SETree.openReadOnly(kb, config(plain, 0))) {
        TreeAssert.assertSameTree(t.currentSnapshot().tree(), reopened.currentSnapshot().tree());
      }
    }
  }

  /** A rehearsal is given up at its next step once the signal says so, and the next ones are not started. */
  @Test
  void rehearsalsStopWhenTold(@TempKnowledgeBase.File Path kb) throws Exception {
    Embedder plain = new HashEmbedder(48);
    try (SETree t = SETree.open(kb, config(plain, 0))) {
      t.build(Corpora.synthetic(120, 6), BuildProgress.NONE);
    }
    AtomicBoolean stop = new AtomicBoolean();
    CountingEmbedder stopping = new CountingEmbedder(plain) {
      @Override
      public float[][] embed(List<String> texts) {
        stop.set(true); // the first rehearsal's fact: it stops after its embedding
        return super.embed(texts);
      }
    };
    try (SETree t = SETree.open(kb, config(stopping, 0))) {
      assertEquals(0, t.writer().rehearse(stop::get, 3));
      assertEquals(1, stopping.calls.get(), "no rehearsal went past the signal");
    }
  }

  /** Only the extractive summariser is rehearsed with: a summariser that may cost per call is not. */
  @Test
  void noRehearsalWithAnotherSummariser(@TempKnowledgeBase.File Path kb) throws Exception {
    Embedder plain = new HashEmbedder(48);
    try (SETree t = SETree.open(kb, config(plain, 0))) {
      t.build(Corpora.synthetic(120, 6), BuildProgress.NONE);
    }
    CountingEmbedder counting = new CountingEmbedder(plain);
    ExtractiveSummarizer extractive = new ExtractiveSummarizer();
    SETreeConfig own = SETreeConfig.builder().embedder(counting).tokenCounter(new SimpleTokenCounter())
        .summarizer(new Summarizer() { // the extractive summaries, as a host's own summariser
          @Override
          public String kind() {
            return "host";
          }

          @Override
          public Summary summarize(Request request) {
            return extractive.summarize(request);
          }
        }).warmUpRuns(0).build();
    try (SETree t = SETree.open(kb, own)) {
      assertEquals(0, t.writer().rehearse(() -> false, 3));
      assertEquals(0, counting.calls.get());
    }
  }

  /**
   * The scheduler's signal for work done while the writer is idle turns true when a mutation is accepted (this
   * process's or another's) and when it closes; work that sees it true at its start does not start.
   */
  @Test
  void idleWorkIsToldOfAMutation() throws Exception {
    try (MaintenanceScheduler s = new MaintenanceScheduler(60_000, () -> 0, stop -> { }, () -> 0, () -> { })) {
      CountDownLatch started = new CountDownLatch(1);
      CountDownLatch told = new CountDownLatch(1);
      s.whileIdle(untilTold(started, told));
      assertTrue(started.await(10, TimeUnit.SECONDS));
      assertFalse(told.await(100, TimeUnit.MILLISECONDS), "not told before a mutation");
      s.ownMutationAccepted();
      assertTrue(told.await(10, TimeUnit.SECONDS), "told of this process's mutation");

      // Work queued before a mutation that has not started by then: the thread is held until the mutation.
      CountDownLatch gate = new CountDownLatch(1);
      s.whileIdle(stop -> {
        try {
          gate.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      AtomicInteger ran = new AtomicInteger();
      s.whileIdle(stop -> ran.incrementAndGet());
      s.mutationAccepted(); // another process's, seen pending
      gate.countDown();
      CountDownLatch secondStarted = new CountDownLatch(1);
      CountDownLatch second = new CountDownLatch(1);
      s.whileIdle(untilTold(secondStarted, second));
      assertTrue(secondStarted.await(10, TimeUnit.SECONDS));
      s.mutationAccepted();
      assertTrue(second.await(10, TimeUnit.SECONDS), "told of another process's mutation");
      assertEquals(0, ran.get(), "work queued before a mutation does not start after it");
    }
  }

  /** Idle work that counts {@code started} down, waits until its signal turns true, then counts {@code told} down. */
  private static Consumer<BooleanSupplier> untilTold(CountDownLatch started, CountDownLatch told) {
    return stop -> {
      started.countDown();
      while (!stop.getAsBoolean()) {
        Thread.onSpinWait();
      }
      told.countDown();
    };
  }

  /** Answers like its delegate, counting its calls and the texts it embedded. */
  private static class CountingEmbedder extends ForwardingEmbedder {
    final AtomicInteger calls = new AtomicInteger();
    final AtomicInteger texts = new AtomicInteger();

    CountingEmbedder(Embedder delegate) {
      super(delegate);
    }

    @Override
    public float[][] embed(List<String> batch) {
      calls.incrementAndGet();
      texts.addAndGet(batch.size());
      return delegate.embed(batch);
    }
  }
}

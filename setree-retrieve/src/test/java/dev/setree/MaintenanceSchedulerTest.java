package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The writer's clock: a burst of this process's mutations is prepared for once, then run once. */
class MaintenanceSchedulerTest {

  @Test
  void ownMutationsPrepareTheRunOnceBeforeItRuns() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    AtomicLong accepted = new AtomicLong();
    try (MaintenanceScheduler s = new MaintenanceScheduler(200, () -> {
      events.add("run");
      return accepted.get();
    }, stop -> events.add("prepare"), accepted::get, () -> {})) {
      for (int i = 1; i <= 5; i++) {
        accepted.set(i);
        s.ownMutationAccepted();
      }
      s.await().get(10, TimeUnit.SECONDS);
      assertEquals(List.of("prepare", "run"), events);
      // Another process's mutation seen pending: no preparing (that process applies it, most of the time).
      accepted.set(6);
      s.mutationAccepted();
      s.await().get(10, TimeUnit.SECONDS);
      assertEquals(List.of("prepare", "run", "run"), events);
    }
  }

  @Test
  void aFailedPreparationLeavesTheRunToDoIt() throws Exception {
    AtomicLong accepted = new AtomicLong(1);
    List<String> events = new CopyOnWriteArrayList<>();
    try (MaintenanceScheduler s = new MaintenanceScheduler(0, () -> {
      events.add("run");
      return accepted.get();
    }, stop -> {
      throw new IllegalStateException("no memory for a copy");
    }, accepted::get, () -> {})) {
      s.ownMutationAccepted();
      s.await().get(10, TimeUnit.SECONDS);
      assertEquals(List.of("run"), events);
      assertEquals(null, s.lastError());
    }
  }

  /**
   * The work after a run (the write-ahead log's checkpoint) comes once the run's waiters are told, so that neither
   * waits for it, and only after a run that succeeded.
   */
  @Test
  void theWorkAfterARunFollowsItsWaitersAndOnlyASuccessfulRun() throws Exception {
    List<String> events = new CopyOnWriteArrayList<>();
    AtomicLong accepted = new AtomicLong(1);
    AtomicBoolean failNext = new AtomicBoolean();
    Semaphore after = new Semaphore(0);
    try (MaintenanceScheduler s = new MaintenanceScheduler(0, () -> {
      if (failNext.getAndSet(false)) {
        events.add("failed");
        throw new IllegalStateException("the disk is full");
      }
      events.add("run");
      return accepted.get();
    }, stop -> {}, accepted::get, () -> {
      events.add("after");
      after.release();
    })) {
      s.await().thenRun(() -> events.add("told"));
      s.mutationAccepted();
      assertTrue(after.tryAcquire(10, TimeUnit.SECONDS));
      failNext.set(true);
      accepted.set(2);
      CompletableFuture<Void> second = s.await().thenRun(() -> events.add("told"));
      s.mutationAccepted();
      second.get(10, TimeUnit.SECONDS); // the failed run is retried after 1 s
      assertTrue(after.tryAcquire(10, TimeUnit.SECONDS));
      assertEquals(List.of("run", "told", "after", "failed", "run", "told", "after"), events);
    }
  }

  /**
   * Idle work with a delay runs once no mutation came for the delay, not at all when one came meanwhile (nor does it
   * then run later), is replaced by a later call, and does not hold up a close.
   */
  @Test
  void idleWorkAfterADelayRunsOnlyWhenNoMutationCameMeanwhile() throws Exception {
    AtomicLong accepted = new AtomicLong();
    List<String> events = new CopyOnWriteArrayList<>();
    Semaphore done = new Semaphore(0);
    try (MaintenanceScheduler s = new MaintenanceScheduler(10_000, () -> accepted.get(), stop -> {}, accepted::get,
        () -> {})) {
      long t0 = System.nanoTime();
      s.whileIdleAfter(200, stop -> {
        events.add("idle " + stop.getAsBoolean());
        done.release();
      });
      assertTrue(done.tryAcquire(10, TimeUnit.SECONDS));
      assertTrue(System.nanoTime() - t0 >= 200_000_000L, "not before its delay");
      assertEquals(List.of("idle false"), events);

      s.whileIdleAfter(200, stop -> events.add("after a mutation"));
      accepted.set(1);
      s.mutationAccepted(); // its run waits for a quiet window of 10 s
      Thread.sleep(400);
      assertEquals(List.of("idle false"), events, "a mutation came during the delay");
      s.whileIdleAfter(100, stop -> events.add("replaced"));
      s.whileIdleAfter(100, stop -> {
        events.add("last");
        done.release();
      });
      assertTrue(done.tryAcquire(10, TimeUnit.SECONDS));
      Thread.sleep(300);
      assertEquals(List.of("idle false", "last"), events, "the replaced work never ran");

      s.whileIdleAfter(60_000, stop -> events.add("never"));
      long c0 = System.nanoTime();
      s.close();
      assertTrue(System.nanoTime() - c0 < 5_000_000_000L, "the close did not wait for the idle work's delay");
    }
    assertEquals(List.of("idle false", "last"), events);
  }
}

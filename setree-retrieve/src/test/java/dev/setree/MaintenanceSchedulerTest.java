package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
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
    }, stop -> events.add("prepare"), accepted::get)) {
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
    }, accepted::get)) {
      s.ownMutationAccepted();
      s.await().get(10, TimeUnit.SECONDS);
      assertEquals(List.of("run"), events);
      assertEquals(null, s.lastError());
    }
  }
}

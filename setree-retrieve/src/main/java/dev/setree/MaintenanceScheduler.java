package dev.setree;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The single writer's clock: after each accepted mutation it waits for a quiet window (coalescing bursts:
 * every new mutation restarts the window), then runs one maintenance run on its own thread. A failed run is
 * retried with exponential back-off (1 s doubling to 60 s); nothing is lost, since mutations stay in the
 * pending table until a run that applied them commits. While the window runs after a mutation of this
 * process, the thread prepares the run ({@code prepare}: the run computed ahead, docs/adr/0032, or work the
 * run would do first, whatever the mutations); a writer also prepares once on open ({@link #prepareOnOpen}), and
 * then does work for an idle writer until a mutation arrives ({@link #whileIdle}: warm-up runs, docs/adr/0038).
 * After a successful run, once its waiters are told, the thread does the work that follows a run
 * ({@code afterRun}: the write-ahead log's checkpoint).
 */
final class MaintenanceScheduler implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger("dev.setree.maintenance");

  /** One maintenance run; returns the highest sequence number it applied (0 if none). */
  interface Run {
    long run() throws Exception;
  }

  private final ScheduledExecutorService executor;
  private final long quietMillis;
  private final Run run;
  private final Consumer<BooleanSupplier> prepare;
  /**
   * Done after each successful run, once its waiters are told: the write-ahead log's passive checkpoint, so that the
   * next save starts the log afresh instead of paying SQLite's automatic checkpoint of several runs' pages
   * (docs/store-format.md, "Checkpoints").
   */
  private final Runnable afterRun;
  /** Set first by {@link #close}: a preparation under way is given up at its next step. */
  private volatile boolean closing;
  private final LongSupplier latestAccepted;
  /** How many mutations were accepted (this process's or seen pending): a warm-up gives up when it changes. */
  private volatile long acceptedCount;
  /** Whether the coming run is prepared for (or its preparation queued): once per run, not per mutation. */
  private boolean prepareQueued;
  private final List<Waiter> waiters = new ArrayList<>();
  private ScheduledFuture<?> scheduled;
  /** The idle work waiting out its delay ({@link #whileIdleAfter}): cancelled by the next one and on close. */
  private ScheduledFuture<?> idleLater;
  private long applied;
  private long backoffMillis;
  private volatile Exception lastError;

  private record Waiter(long seq, CompletableFuture<Void> future) {}

  /**
   * @param prepare the run computed ahead, or what it would do first whatever its mutations, done while the
   *     quiet window runs (on the maintenance thread, never during a run); its failure only costs the run the
   *     time it saved. It is given a signal that turns true when the scheduler closes, and may then give up
   *     with a {@link CancellationException}: nothing would use what it prepares
   * @param afterRun done on the maintenance thread after each successful run, once the mutations it applied are
   *     reported applied, so that neither the run nor its waiters wait for it; its failure is logged and loses
   *     nothing the run did
   */
  MaintenanceScheduler(long quietMillis, Run run, Consumer<BooleanSupplier> prepare, LongSupplier latestAccepted,
      Runnable afterRun) {
    this.quietMillis = quietMillis;
    this.run = run;
    this.prepare = prepare;
    this.afterRun = afterRun;
    this.latestAccepted = latestAccepted;
    this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "setree-maintenance");
      t.setDaemon(true);
      return t;
    });
  }

  /** A mutation was accepted (another process's, seen pending): (re)start the quiet window. */
  synchronized void mutationAccepted() {
    acceptedCount++;
    schedule(quietMillis);
  }

  /**
   * This process accepted a mutation: prepare the run now, and (re)start the quiet window. (Another
   * process's mutations do not prepare: that process applies them itself, most of the time.)
   */
  synchronized void ownMutationAccepted() {
    acceptedCount++;
    if (!prepareQueued && !executor.isShutdown()) {
      prepareQueued = true;
      executor.execute(this::prepareOnce);
    }
    schedule(quietMillis);
  }

  /**
   * A writer was opened: does {@code work} now on the maintenance thread, before any mutation (what the first
   * run would do first), given the same closing signal as a preparation and likewise free to give up.
   */
  synchronized void prepareOnOpen(Consumer<BooleanSupplier> work) {
    if (!executor.isShutdown()) {
      executor.execute(() -> prepare(work));
    }
  }

  /**
   * Does {@code work} on the maintenance thread once what is queued there is done, given a signal that turns
   * true when the scheduler closes or a mutation is accepted: work for a writer with nothing to do, such as
   * warm-up runs (docs/adr/0038), which then gives up as a preparation does.
   */
  synchronized void whileIdle(Consumer<BooleanSupplier> work) {
    if (!executor.isShutdown()) {
      long since = acceptedCount;
      executor.execute(() -> prepare(work, () -> closing || acceptedCount != since));
    }
  }

  /**
   * {@link #whileIdle}, once no mutation has been accepted for {@code afterMillis} (else not at all): work that would
   * slow a run it came just before, such as code that HotSpot then compiles beside the run (docs/adr/0046), is left
   * to a writer that is really idle. Replaces the work of an earlier call that is still waiting.
   */
  synchronized void whileIdleAfter(long afterMillis, Consumer<BooleanSupplier> work) {
    if (!executor.isShutdown()) {
      long since = acceptedCount;
      if (idleLater != null) {
        idleLater.cancel(false);
      }
      idleLater = executor.schedule(() -> prepare(work, () -> closing || acceptedCount != since), afterMillis,
          TimeUnit.MILLISECONDS);
    }
  }

  private void prepareOnce() {
    prepare(prepare);
  }

  private void prepare(Consumer<BooleanSupplier> work) {
    prepare(work, () -> closing);
  }

  private void prepare(Consumer<BooleanSupplier> work, BooleanSupplier stop) {
    if (stop.getAsBoolean()) {
      return;
    }
    try {
      work.accept(stop);
    } catch (CancellationException e) {
      // closing: what was being prepared would not be used
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "preparing the maintenance run failed; the run will do it: " + e, e);
    }
  }

  /** Runs maintenance as soon as possible. */
  synchronized void triggerNow() {
    schedule(0);
  }

  private void schedule(long delayMillis) {
    if (executor.isShutdown()) {
      return;
    }
    if (scheduled != null && !scheduled.isDone()) {
      scheduled.cancel(false);
    }
    scheduled = executor.schedule(this::runOnce, delayMillis, TimeUnit.MILLISECONDS);
  }

  /** Completes when every mutation accepted before this call has been applied. */
  synchronized CompletableFuture<Void> await() {
    long target = latestAccepted.getAsLong();
    CompletableFuture<Void> f = new CompletableFuture<>();
    if (applied >= target) {
      f.complete(null);
    } else {
      waiters.add(new Waiter(target, f));
    }
    return f;
  }

  /** Records what was applied outside the scheduler (for example by a build that ran the pending queue). */
  synchronized void markApplied(long seq) {
    applied = Math.max(applied, seq);
    completeWaiters();
  }

  Exception lastError() {
    return lastError;
  }

  private void runOnce() {
    synchronized (this) {
      prepareQueued = false; // a mutation accepted from now on prepares the run after this one
    }
    try {
      long seq = run.run();
      lastError = null;
      synchronized (this) {
        backoffMillis = 0;
        applied = Math.max(applied, seq);
        completeWaiters();
        if (latestAccepted.getAsLong() > applied && (scheduled == null || scheduled.isDone())) {
          schedule(quietMillis);
        }
      }
    } catch (Exception | Error e) {
      fail(e);
      return;
    }
    try {
      afterRun.run();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "the work after a maintenance run failed: " + e, e);
    }
  }

  /** A failed run: logged, kept for {@link #lastError}, and retried with back-off. */
  private void fail(Throwable e) {
    lastError = e instanceof Exception ex ? ex : new RuntimeException(e);
    LOG.log(System.Logger.Level.WARNING, "maintenance run failed, will retry: " + e, e);
    synchronized (this) {
      backoffMillis = backoffMillis == 0 ? 1000 : Math.min(60_000, backoffMillis * 2);
      schedule(backoffMillis);
    }
  }

  private void completeWaiters() {
    waiters.removeIf(w -> {
      if (applied >= w.seq()) {
        w.future().complete(null);
        return true;
      }
      return false;
    });
  }

  /** Stops the writer, letting a running maintenance run finish (up to 60 s). */
  @Override
  public void close() {
    closing = true; // a preparation under way gives up at its next step; a run under way finishes
    synchronized (this) {
      if (scheduled != null) {
        scheduled.cancel(false);
      }
      if (idleLater != null) {
        idleLater.cancel(false);
      }
      executor.shutdown();
      for (Waiter w : waiters) {
        w.future().completeExceptionally(new IllegalStateException("the SETree was closed before maintenance ran"));
      }
      waiters.clear();
    }
    try {
      executor.awaitTermination(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

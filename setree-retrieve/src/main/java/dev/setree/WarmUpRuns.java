package dev.setree;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.RowDots;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.internal.maintain.LaneCode;
import dev.setree.internal.maintain.Maintainer;
import dev.setree.internal.store.SqliteTreeStore;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Warm-up runs on open (docs/adr/0038): rehearsals of a one-fact maintenance run that a writer may make while it
 * waits for its first mutation, so that the JIT has compiled much of a run's code before the first real one.
 * Nothing of them is saved, shown or kept, and the writer lock is not taken. Once no mutation has come for a while
 * after open, or after a run until it is done, a writer also compiles the lane code of a summary's leaf-row products
 * ({@link LaneCode#compile}, docs/adr/0046).
 */
final class WarmUpRuns {
  private static final System.Logger LOG = System.getLogger("dev.setree.maintenance");
  /** The fewest leaves of a tree whose writer makes warm-up runs on open. */
  static final int MIN_LEAVES = 4096;
  /**
   * How long a writer waits with no mutation before it compiles the lane code: compiling in the gaps between
   * back-to-back runs, HotSpot's compiler threads then busy beside the next run, made the first run after open
   * about 30 ms slower at 50,000 leaves (docs/adr/0046).
   */
  static final long LANES_AFTER_IDLE_MS = 250;
  /**
   * The same wait after open, longer: a process's first retrieve after open took 700-1,000 ms at 50,000 leaves, and
   * compiling beside it made it about 100 ms slower (docs/adr/0046).
   */
  static final long LANES_AFTER_OPEN_MS = 1_000;
  /** The id prefix of a warm-up run's made-up fact. */
  private static final String ID_PREFIX = "setree:warm-up:";
  /** Whether a maintenance run ran in this JVM: its code is then compiled, or being compiled, for every writer. */
  private static final AtomicBoolean RUN_CODE_WARM = new AtomicBoolean();

  private final StateFollower state;
  private final SqliteTreeStore store;
  /** A new maintainer for each warm-up, or null when the writer's summariser may cost per call (an LLM). */
  private final Supplier<Maintainer> maintainers;
  /** The scheduler whose thread does the writer's work while no mutation waits: set on open. */
  private volatile MaintenanceScheduler idle;

  WarmUpRuns(StateFollower state, SqliteTreeStore store, Supplier<Maintainer> maintainers) {
    this.state = state;
    this.store = store;
    this.maintainers = maintainers;
  }

  /** Notes that a maintenance run ran in this JVM: later writers make no warm-up runs. */
  static void runCodeCompiled() {
    RUN_CODE_WARM.set(true);
  }

  /**
   * On open: once what is queued on {@code scheduler}'s thread is done, and while no mutation arrives, up to
   * {@code runs} warm-up runs ({@link #warmUp}); then, once no mutation has come for {@value #LANES_AFTER_OPEN_MS} ms,
   * the lane code compiled ({@link LaneCode#compile}).
   */
  void onOpen(MaintenanceScheduler scheduler, int runs) {
    idle = scheduler;
    scheduler.whileIdle(stop -> warmUp(stop, runs));
    scheduler.whileIdleAfter(LANES_AFTER_OPEN_MS, stop -> LaneCode.compile(state.snapshot().tree(), stop));
  }

  /**
   * After a run over a tree that became {@code tree}: notes that a run ran ({@link #runCodeCompiled}), and, while
   * the lane code is not compiled, has the scheduler's thread go on compiling it once no mutation has come for
   * {@value #LANES_AFTER_IDLE_MS} ms.
   */
  void afterRun(Tree tree) {
    runCodeCompiled();
    laneCodeWhenIdle(tree);
  }

  /**
   * While the lane code is not compiled, has the scheduler's thread compile it for {@code tree} (a run's or a
   * build's) once no mutation has come for {@value #LANES_AFTER_IDLE_MS} ms.
   */
  void laneCodeWhenIdle(Tree tree) {
    MaintenanceScheduler s = idle;
    if (s != null && !RowDots.lanes()) {
      s.whileIdleAfter(LANES_AFTER_IDLE_MS, stop -> LaneCode.compile(tree, stop));
    }
  }

  /**
   * Up to {@code runs} {@linkplain #rehearse rehearsals}, unless a run or a warm-up already ran in this JVM (the
   * code is compiled, or being compiled, for every writer) or the tree has fewer than {@value #MIN_LEAVES} leaves
   * (its first run is short anyway). A failure is logged and loses nothing. Returns the rehearsals completed.
   *
   * @param stop turns true when a mutation is accepted or the writer closes: the warm-up then gives up at its
   *     next step, leaving nothing behind
   */
  int warmUp(BooleanSupplier stop, int runs) {
    if (runs <= 0 || state.snapshot().tree().leafCount() < MIN_LEAVES || RUN_CODE_WARM.get()) {
      return 0;
    }
    long t0 = System.nanoTime();
    int done;
    try {
      done = rehearse(stop, runs);
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "a warm-up run failed; nothing was written, and the first run will be"
          + " slower: " + e, e);
      return 0;
    }
    if (done > 0) {
      runCodeCompiled();
    }
    int completed = done;
    LOG.log(System.Logger.Level.DEBUG, () -> String.format(Locale.ROOT, "warm-up: %d of %d runs in %.0f ms",
        completed, runs, (System.nanoTime() - t0) / 1e6));
    return done;
  }

  /**
   * Up to {@code runs} maintenance runs of made-up one-fact inserts, each over the last one's result, starting from
   * the snapshot: each fact is the text of a leaf of the tree under an id no fact has; each run's save is worked
   * out and its next snapshot's tables are derived, as a real run's are. They are made by a maintainer of their
   * own, so the writer's maintainer keeps its draft and its record of the last tree it made. None with a
   * summariser whose calls may cost, nor for a tree without an oracle. Returns the runs completed before
   * {@code stop} said to give up.
   */
  int rehearse(BooleanSupplier stop, int runs) {
    Snapshot s = state.snapshot();
    if (maintainers == null || s.tree().leafCount() < 2 || s.hierarchy().isEmpty()) {
      return 0;
    }
    Maintainer rehearsal = maintainers.get();
    Tree base = s.tree();
    HierarchyState baseHierarchy = s.hierarchy();
    Snapshot.Derived derived = s.derived();
    int done = 0;
    while (done < runs && !stop.getAsBoolean()) {
      String text = base.text((int) ((done * 7919L + base.leafCount() / 2) % base.leafCount()));
      Mutation m = new Mutation(done + 1, Mutation.Kind.INSERT, ID_PREFIX + done, text, null);
      Maintainer.Result r;
      try {
        r = rehearsal.run(base, baseHierarchy, List.of(m), derived::neighbours, stop);
      } catch (CancellationException e) {
        break;
      }
      store.planChanges(base, baseHierarchy, r.tree(), r.hierarchy(), r.changes());
      derived = state.derive(derived, r.tree(), r.hierarchy());
      base = r.tree();
      baseHierarchy = r.hierarchy();
      done++;
    }
    return done;
  }
}

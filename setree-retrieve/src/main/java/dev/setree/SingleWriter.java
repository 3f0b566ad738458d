package dev.setree;

import dev.setree.internal.core.ClassesAhead;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.internal.core.TreeStore;
import dev.setree.internal.embed.MiniLmEmbedder;
import dev.setree.internal.maintain.BuildOptions;
import dev.setree.internal.maintain.BuildResult;
import dev.setree.internal.maintain.ExtractiveSummarizer;
import dev.setree.internal.maintain.Maintainer;
import dev.setree.internal.maintain.TreeBuilder;
import dev.setree.internal.maintain.llm.TargetLlmSummarizer;
import dev.setree.spi.Embedder;
import dev.setree.spi.Fact;
import dev.setree.spi.Summarizer;
import dev.setree.spi.TokenCounter;
import dev.setree.internal.store.SaveClasses;
import dev.setree.internal.store.SavePlan;
import dev.setree.internal.store.SqliteTreeStore;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * This process's writer of a knowledge base: builds and maintenance runs, each holding the knowledge base's
 * cross-process writer lock and then this process's write lock, each saved in one transaction and then
 * installed as the new snapshot. It owns the summariser writes use: the config's, else a Target LLM
 * summariser on {@link SETreeConfig#llm()} (closed with it), else the extractive one.
 */
final class SingleWriter implements AutoCloseable {
  private final SETreeConfig config;
  private final Embedder embedder;
  private final TokenCounter counter;
  private final Summarizer summarizer;
  /** The LLM summariser made from {@link SETreeConfig#llm()} (closed with this), or null. */
  private final TargetLlmSummarizer ownedLlm;
  private final SqliteTreeStore store;
  private final StateFollower state;
  private final Maintainer maintainer;
  /** Serialises this process's writers (build, maintenance runs); taken after the store's writer lock. */
  private final Object writeLock = new Object();
  private volatile MaintenanceReport lastRun;
  /** Warm-up runs on open, by maintainers of their own (docs/adr/0038). */
  private final WarmUpRuns warmUps;
  /** Whether runs are computed ahead in the quiet window: only with a summariser that costs nothing per call. */
  private final boolean computesAhead;
  /** The run computed ahead in the quiet window, not saved yet, or null (maintenance thread only). */
  private volatile Ahead ahead;
  /** Runs computed ahead that were saved, and that were dropped because another writer committed first. */
  private final AtomicInteger aheadSaved = new AtomicInteger();
  private final AtomicInteger aheadDropped = new AtomicInteger();
  /**
   * The bundled model when it is this writer's embedder, else null: its maintenance runs embed on the model's
   * single-threaded view, whose session {@link #prepareRun} makes before the second run (ADR 0039).
   */
  private final MiniLmEmbedder singleThreadedModel;
  /** Whether {@link #prepareRun} has made the single-threaded session (maintenance thread only). */
  private boolean singleThreadedMade;
  private final CompletableFuture<Void> copiedAhead = new CompletableFuture<>();
  /** Derives each run's next snapshot beside its save ({@link #deriveBeside}); its thread starts on first use. */
  private final ExecutorService deriver = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "setree-derive");
    t.setDaemon(true);
    return t;
  });

  /**
   * A maintenance run computed in the quiet window (docs/adr/0032): from {@code base}, this process's snapshot
   * then, with the mutations pending then ({@code seqs}, in order), and its save worked out ({@code plan}, in
   * {@code planNanos}). Nothing of it is saved or shown: the run at the window's end takes it when it starts
   * from the same snapshot and these are still the first pending mutations.
   */
  private record Ahead(Snapshot base, long[] seqs, Maintainer.Result result, SavePlan plan, long planNanos) {
    /** Whether {@code pending} starts with exactly this run's mutations. */
    boolean leads(List<Mutation> pending) {
      if (pending.size() < seqs.length) {
        return false;
      }
      for (int i = 0; i < seqs.length; i++) {
        if (pending.get(i).seq() != seqs[i]) {
          return false;
        }
      }
      return true;
    }
  }

  SingleWriter(SETreeConfig config, Embedder embedder, TokenCounter counter, SqliteTreeStore store,
      StateFollower state, boolean readOnly) {
    this.config = config;
    this.embedder = embedder;
    this.counter = counter;
    this.store = store;
    this.state = state;
    if (config.summarizer() != null) {
      this.summarizer = config.summarizer();
      this.ownedLlm = null;
    } else if (config.llm() != null && !readOnly) {
      this.ownedLlm = new TargetLlmSummarizer(config.llmSettings());
      this.summarizer = ownedLlm;
    } else {
      this.summarizer = new ExtractiveSummarizer();
      this.ownedLlm = null;
    }
    this.singleThreadedModel = !readOnly && embedder instanceof MiniLmEmbedder mini ? mini : null;
    Embedder forRuns = singleThreadedModel != null ? singleThreadedModel.singleThreaded() : embedder;
    this.maintainer = new Maintainer(forRuns, counter, summarizer, buildOptions(), config.faithfulnessThreshold());
    this.computesAhead = summarizer instanceof ExtractiveSummarizer;
    this.warmUps = new WarmUpRuns(state, store, computesAhead ? () -> new Maintainer(forRuns, counter, summarizer,
        buildOptions(), config.faithfulnessThreshold()) : null);
  }

  /** See {@link SETree#build(java.util.Collection, BuildProgress)}. */
  BuildReport build(List<Fact> facts, BuildProgress progress) {
    checkLlm(); // a dead endpoint fails the build before anything is written
    try (SqliteTreeStore.WriterLease lease = store.lockWriter()) {
      synchronized (writeLock) {
        TreeBuilder builder = new TreeBuilder(embedder, counter, summarizer, buildOptions());
        BuildResult result = builder.build(facts, progress::update);
        store.saveTreeWithHierarchy(result.tree(), result.hierarchy(), 0);
        state.install(Snapshot.of(result.tree(), result.hierarchy(), store.generation()));
        CachedLexicalIndex.save(store, state.snapshot(), -1);
        warmUps.laneCodeWhenIdle(result.tree()); // the tree on open may have been empty
        BuildResult.Stats st = result.stats();
        return new BuildReport(st.embedNanos(), st.knnNanos(), st.clusterNanos(), st.summaryNanos(), st.levels(),
            st.summaryFallbacks(), st.summarized());
      }
    }
  }

  /**
   * One atomic maintenance run over all pending mutations, as the single writer: holds the knowledge
   * base's cross-process writer lock, starts from the committed state (loading it if another process
   * saved since this one's snapshot), applies the pending mutations of every process in sequence order,
   * saves only what changed together with the removal of exactly the applied mutations, then swaps the
   * snapshot. Returns the sequence number through which every mutation is applied.
   */
  long maintenanceRun() {
    try (SqliteTreeStore.WriterLease lease = store.lockWriter()) {
      synchronized (writeLock) {
        long t0 = System.nanoTime();
        Ahead done = ahead;
        ahead = null;
        TreeStore.State st = state.reloadIfNewer();
        long loaded = System.nanoTime();
        Snapshot base = state.snapshot();
        List<Mutation> batch = st.pending();
        boolean usable = done != null && done.base() == base && base.generation() == st.generation()
            && done.leads(batch);
        if (done != null && !usable) {
          aheadDropped.incrementAndGet();
        }
        if (batch.isEmpty() || base.generation() != st.generation()) {
          return base.generation() == st.generation() ? st.appliedThrough() : 0;
        }
        checkLlm(); // a dead endpoint fails the run; the mutations stay pending and the run is retried
        Maintainer.Result r;
        long aheadNanos = 0;
        SavePlan plan = null;
        long planNanos = 0;
        if (usable) {
          aheadSaved.incrementAndGet();
          aheadNanos = done.result().nanos() + done.planNanos();
          r = onTop(done, batch, base);
          if (r == done.result()) {
            plan = done.plan();
            planNanos = done.planNanos();
          }
        } else {
          r = maintainer.run(base.tree(), base.hierarchy(), batch, base::neighbours);
        }
        long[] seqs = batch.stream().mapToLong(Mutation::seq).toArray();
        long s0 = System.nanoTime();
        if (plan == null) {
          plan = store.planChanges(base.tree(), base.hierarchy(), r.tree(), r.hierarchy(), r.changes());
        }
        long s1 = System.nanoTime();
        Future<Snapshot.Derived> following = deriveBeside(base, r);
        long generation;
        try {
          generation = store.saveChanges(plan, base.generation(), seqs);
        } catch (RuntimeException | Error e) {
          following.cancel(false);
          throw e;
        }
        long s2 = System.nanoTime();
        long saveNanos = s2 - s0 + planNanos;
        long saveBytes = store.lastSaveBytes();
        state.install(base.next(r.tree(), r.hierarchy(), generation, r.changes(), await(following, base, r)));
        maintainer.installed(r.tree(), r.hierarchy()); // base is read no more: its level rows are spares (ADR 0051)
        Instant visibleAt = Instant.now();
        Map<String, Long> steps = new LinkedHashMap<>();
        steps.put("load", loaded - t0);
        steps.putAll(r.stepNanos());
        steps.put("plan", planNanos + (s1 - s0));
        steps.put("save", s2 - s1);
        long s3 = System.nanoTime();
        steps.put("install", s3 - s2);
        saveBytes += CachedLexicalIndex.save(store, state.snapshot(), st.lastSeq());
        steps.put("cache", System.nanoTime() - s3);
        warmUps.afterRun(r.tree());
        lastRun = new MaintenanceReport(r.path(), batch.size(), r.inserted(), r.deleted(), r.skipped(),
            r.dirtyLevels(), r.reclusteredMembers(), r.summarized(), r.nanos(),
            System.nanoTime() - t0 + aheadNanos, saveNanos, saveBytes, visibleAt, steps);
        return st.lastSeq();
      }
    }
  }

  /**
   * The run computed ahead, with the mutations pending after its own (accepted since it read them) applied on
   * top of its result by a second pass, so that the save is one commit of both.
   */
  private Maintainer.Result onTop(Ahead done, List<Mutation> batch, Snapshot base) {
    Maintainer.Result first = done.result();
    if (batch.size() == done.seqs().length) {
      return first;
    }
    List<Mutation> since = batch.subList(done.seqs().length, batch.size());
    return first.then(maintainer.run(first.tree(), first.hierarchy(), since,
        () -> base.neighbours().next(first.tree(), first.hierarchy())));
  }

  /**
   * Starts deriving, on the deriver thread, what the snapshot after {@code base} with {@code r}'s result will
   * derive on install ({@link StateFollower#derive}): it reads only the two immutable states, so on two cores it
   * runs while the save waits for the disk, instead of after it. A closed deriver leaves it to the install.
   */
  private Future<Snapshot.Derived> deriveBeside(Snapshot base, Maintainer.Result r) {
    try {
      return deriver.submit(() -> state.derive(base, r.tree(), r.hierarchy()));
    } catch (RejectedExecutionException e) {
      return CompletableFuture.completedFuture(base.following(r.tree(), r.hierarchy()));
    }
  }

  /**
   * The state {@link #deriveBeside} derived, waited for without giving up on an interrupt (the derivation is
   * short; the interrupt is kept). If it failed, the same state not derived yet: the install derives it, and
   * a failure shows there, in the run, as it did before the derivation moved beside the save.
   */
  private static Snapshot.Derived await(Future<Snapshot.Derived> following, Snapshot base, Maintainer.Result r) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return following.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException | CancellationException e) {
          return base.following(r.tree(), r.hierarchy());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Prepares the next maintenance run while the quiet window runs, on the maintenance thread between runs.
   * With the extractive summariser the run itself is computed ahead (docs/adr/0032): the mutations pending now
   * applied to the snapshot, and the rows its save will write worked out, without the writer lock and without
   * writing; the run at the window's end saves that result if nothing else was committed meanwhile, applying on
   * top what was accepted since. Otherwise (a summariser whose calls cost, such as an LLM: a burst would pay for
   * its first mutations twice) only the copy of the snapshot's tree that the run continues from is made
   * ({@link Maintainer#prepare}), as on open ({@link #copyTreeAhead}).
   *
   * @param stop turns true when the writer closes: a run computed ahead or a copy, which nobody would then use,
   *     is given up at its next step with a {@link java.util.concurrent.CancellationException}
   */
  void prepareRun(BooleanSupplier stop) {
    ahead = null;
    if (singleThreadedModel != null && !singleThreadedMade && lastRun != null) {
      // A second batch of mutations: a process that runs more than once (not a one-shot command) starts making
      // the model's single-threaded session for its runs now, once (ADR 0039). The run does not wait for it: its
      // embeddings keep to the prompt session until the session is ready (the same vectors either way), as a
      // session once took 1.8 s to make in a benchmark process, all of it added to the second fact's wait.
      singleThreadedMade = true;
      singleThreadedModel.prepareSingleThreaded();
    }
    Snapshot base = state.snapshot();
    maintainer.scanAhead(base.tree(), stop); // the large nodes' first scans, unless made while idle since open
    if (computesAhead) {
      List<Mutation> batch = store.pendingMutations();
      if (!batch.isEmpty()) {
        Maintainer.Result r = maintainer.run(base.tree(), base.hierarchy(), batch, base::neighbours, stop);
        long p0 = System.nanoTime();
        SavePlan plan = store.planChanges(base.tree(), base.hierarchy(), r.tree(), r.hierarchy(), r.changes());
        ahead = new Ahead(base, batch.stream().mapToLong(Mutation::seq).toArray(), r, plan,
            System.nanoTime() - p0);
        return;
      }
    }
    maintainer.prepare(base.tree(), base.hierarchy(), stop);
  }

  /**
   * Copies the snapshot's tree into the draft the next run continues from ({@link Maintainer#prepare}): done
   * on open, so that the first insert after open does not wait for the copy. Costs the memory of the draft
   * (a node object per node, a sum per internal node), which a writer keeps anyway once it has run. Then loads
   * the classes the first run's BM25 update needs ({@link LexicalIndexBuilder#loadIndexingClasses}), and those of
   * its save and of this module that it would load ({@link SaveClasses}, docs/adr/0044).
   *
   * @param stop turns true when the writer closes: the copy is then given up
   */
  void copyTreeAhead(BooleanSupplier stop) {
    try {
      Snapshot s = state.snapshot();
      maintainer.prepare(s.tree(), s.hierarchy(), stop);
      if (!stop.getAsBoolean()) {
        LexicalIndexBuilder.loadIndexingClasses();
        SaveClasses.load();
        ClassesAhead.load(SingleWriter.class, "MaintenanceReport", "SingleWriter$Ahead", "TextIds$Layer");
      }
    } finally {
      copiedAhead.complete(null);
    }
  }

  /** Completes once {@link #copyTreeAhead} has ended, done, given up or failed (for tests). */
  CompletableFuture<Void> copiedAhead() {
    return copiedAhead;
  }

  /**
   * What a writer does on open, on {@code scheduler}'s thread: the copy its first run continues from
   * ({@link #copyTreeAhead}, docs/adr/0032), then, while no mutation arrives, its large nodes' relevance scans
   * ({@link Maintainer#scanAhead}, docs/adr/0040), the warm-up runs the config asks for and, a second on, the lane code
   * of a summary's leaf-row products compiled ({@link WarmUpRuns#onOpen}, docs/adr/0038 and 0046).
   */
  void onOpen(MaintenanceScheduler scheduler) {
    scheduler.prepareOnOpen(this::copyTreeAhead);
    scheduler.whileIdle(stop -> maintainer.scanAhead(state.snapshot().tree(), stop));
    warmUps.onOpen(scheduler, config.warmUpRuns());
  }

  /** See {@link WarmUpRuns#rehearse} (for tests). */
  int rehearse(BooleanSupplier stop, int runs) {
    return warmUps.rehearse(stop, runs);
  }

  /** How many runs continued from a draft copied ahead of them, on open or by the previous run (for tests). */
  int draftsReused() {
    return maintainer.draftsReused();
  }

  /** How many runs computed ahead were saved (for tests). */
  int aheadSaved() {
    return aheadSaved.get();
  }

  /** How many runs computed ahead were dropped because another writer committed first (for tests). */
  int aheadDropped() {
    return aheadDropped.get();
  }

  /** What the last maintenance run since open did, or null if none ran. */
  MaintenanceReport lastRun() {
    return lastRun;
  }

  /** Fails with {@code LlmUnavailableException} (naming the URL) when the Target LLM cannot be reached. */
  private void checkLlm() {
    if (summarizer instanceof TargetLlmSummarizer llm) {
      llm.checkReachable();
    }
  }

  /** See {@link SETree#lastLlmFailure()}. */
  Optional<String> lastLlmFailure() {
    return summarizer instanceof TargetLlmSummarizer llm ? llm.lastFailure() : Optional.empty();
  }

  private BuildOptions buildOptions() {
    return new BuildOptions(config.knnK(), config.targetArity(), 42L, config.maxConcurrency(),
        config.topSummaryTokens(), config.summaryTokens());
  }

  /** Stops the deriver thread ({@link #deriveBeside}) and closes the LLM summariser this writer made, if any. */
  @Override
  public void close() {
    deriver.shutdown();
    if (ownedLlm != null) {
      ownedLlm.close();
    }
  }
}

package dev.setree;

import dev.setree.core.CapabilityScore;
import dev.setree.core.ContextFormat;
import dev.setree.core.Embedder;
import dev.setree.core.Fact;
import dev.setree.core.Summarizer;
import dev.setree.core.TokenCounter;
import dev.setree.core.Tree;
import dev.setree.core.TreeCoverWalk;
import dev.setree.core.TreeStore;
import dev.setree.core.TreeStore.Mutation;
import dev.setree.embed.MiniLmEmbedder;
import dev.setree.maintain.BuildOptions;
import dev.setree.maintain.BuildResult;
import dev.setree.maintain.ExtractiveSummarizer;
import dev.setree.maintain.Maintainer;
import dev.setree.maintain.TreeBuilder;
import dev.setree.maintain.llm.TargetLlmSummarizer;
import dev.setree.store.SqliteTreeStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An open knowledge base: the entry point of the library. It builds a hierarchy of summaries over leaf
 * facts and, per prompt, returns a {@link Context}: a tree cover that fits a token budget, with summaries
 * where the prompt does not care and the exact facts where it does.
 *
 * <pre>{@code
 * try (SETree kb = SETree.open(Path.of("kb.db"))) {
 *   kb.build(List.of("the user works on SETree", "the user writes Java 17"));
 *   Context ctx = kb.retrieve("what does the user work on?", 512);
 *   String text = ctx.text();
 * }
 * }</pre>
 *
 * <p><b>Live updates.</b> {@link #insert} and {@link #delete} return as soon as the mutation is durable;
 * after a quiet window ({@code maintenance.quiet_window_ms}, 500 ms by default; every new mutation restarts
 * it) one writer thread applies all pending mutations in one atomic maintenance run (the incremental
 * rebuild). {@link #awaitMaintenance()} waits for visibility, {@link #triggerMaintain()} runs now. A
 * mutation acknowledged is never lost: pending mutations are replayed by the next {@code open}.
 *
 * <p><b>Threads.</b> {@code retrieve} is lock-free and may be called from any number of threads; it reads
 * an immutable snapshot that the writer replaces atomically after the store has committed, so a reader never
 * sees a half-applied change. Writers ({@code build}, maintenance runs) are serialised. {@code retrieve}
 * never calls a summariser or an LLM.
 */
public final class SETree implements AutoCloseable {
  private final Path path;
  private final SETreeConfig config;
  private final Embedder embedder;
  private final boolean ownsEmbedder;
  private final TokenCounter counter;
  private final Summarizer summarizer;
  /** The LLM summariser SETree made from {@link SETreeConfig#llm()} (closed with it), or null. */
  private final TargetLlmSummarizer ownedLlm;
  private final SqliteTreeStore store;
  private final ContextFormat format;
  private final TreeCoverWalk walk;
  /** Serialises this process's writers (build, maintenance runs); taken after the store's writer lock. */
  private final Object writeLock = new Object();
  /** Serialises this process's mutation checks and appends. */
  private final Object mutationLock = new Object();
  /** Serialises loads of a state another process committed. */
  private final Object reloadLock = new Object();
  /** Guards {@link #snapshot} replacement: a snapshot is only ever replaced by a newer generation. */
  private final Object swapLock = new Object();
  private final Maintainer maintainer;
  private final MaintenanceScheduler scheduler;
  private final boolean readOnly;
  private final ExecutorService refresher;
  /** Embeds prompts so that {@code retrieve} keeps its deadline. */
  private final DeadlineEmbedder promptEmbedder;
  private volatile long latestAccepted;
  private volatile Snapshot snapshot;
  private volatile boolean closed;
  private volatile long lastRefreshCheck;
  private volatile long lastDataVersion = Long.MIN_VALUE;
  private final AtomicBoolean refreshQueued = new AtomicBoolean();

  private SETree(Path path, SETreeConfig config, Embedder embedder, boolean ownsEmbedder,
      TokenCounter counter, SqliteTreeStore store, boolean readOnly) {
    this.path = path;
    this.config = config;
    this.embedder = embedder;
    this.ownsEmbedder = ownsEmbedder;
    this.counter = counter;
    this.readOnly = readOnly;
    this.promptEmbedder = new DeadlineEmbedder(embedder);
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
    this.store = store;
    this.format = new ContextFormat(counter);
    this.walk = new TreeCoverWalk(new CapabilityScore((float) config.beta(), (float) config.epsilon()),
        (float) config.overviewShare(), (float) config.overviewTemperature(), format);
    TreeStore.State state = store.loadIfChanged(-1, this::loadsOracle);
    this.snapshot = prepared(Snapshot.of(state.tree(), state.hierarchy(), state.generation()));
    this.lastDataVersion = store.dataVersion();
    this.maintainer = new Maintainer(embedder, counter, summarizer, buildOptions(), config.faithfulnessThreshold());
    this.scheduler = new MaintenanceScheduler(config.quietWindowMillis(), this::maintenanceRun,
        () -> latestAccepted);
    noteKnown(state);
    scheduler.markApplied(state.appliedThrough());
    this.refresher = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "setree-refresh");
      t.setDaemon(true);
      return t;
    });
    if (!readOnly && !state.pending().isEmpty()) {
      scheduler.mutationAccepted(); // apply what this or another process acknowledged
    }
  }

  /** The longest prompt {@link #retrieve} accepts, in characters (as long as the longest fact). */
  public static final int MAX_PROMPT_CHARS = Fact.MAX_CHARS;

  /** Opens (or creates) the knowledge base at {@code path} with the embedded defaults. */
  public static SETree open(Path path) {
    return open(path, SETreeConfig.defaults());
  }

  /**
   * Opens (or creates) the knowledge base at {@code path}.
   *
   * @throws dev.setree.store.StoreException if the file is not a SETree database, is corrupt, is of a
   *     newer format, or was built with another embedder; the file is then left untouched
   */
  public static SETree open(Path path, SETreeConfig config) {
    return open(path, config, false);
  }

  /**
   * Opens an existing knowledge base for reading only: {@link #retrieve} and {@link #stats} work, nothing
   * is ever written to the file or its folder (both may be read-only), and the mutating methods throw
   * {@link IllegalStateException}. Changes that other processes commit are picked up as by {@link #open}.
   *
   * @throws dev.setree.store.StoreException if the file does not exist, is not a SETree database, is
   *     corrupt or of a newer format, or was built with another embedder
   */
  public static SETree openReadOnly(Path path, SETreeConfig config) {
    return open(path, config, true);
  }

  /**
   * Reads a knowledge base for inspection without an embedder: its committed tree and the facts about it.
   * The file is opened read-only and closed before this returns; nothing is written, not even a WAL.
   *
   * @param path the database file
   * @throws dev.setree.store.StoreException when the file is missing or not a SETree knowledge base
   */
  public static Inspection inspect(Path path) {
    try (SqliteTreeStore store = SqliteTreeStore.openReadOnly(path)) {
      return new Inspection(new TreeView(store.loadTree()), store.modelId(), store.dimension(), store.pendingMutations().size());
    }
  }

  /**
   * Deletes a knowledge base's file and its side files (SQLite's {@code -wal}, {@code -shm},
   * {@code -journal} and SETree's writer lock {@code -writer}), for a file no process has open: a build
   * that failed on a new file, an MCP {@code reset}. Missing files are skipped.
   *
   * @param path the database file
   * @throws dev.setree.store.StoreException naming the file that could not be deleted
   */
  public static void deleteFiles(Path path) {
    SqliteTreeStore.deleteFiles(path);
  }

  /**
   * Returns {@code config} with its embedder loaded: the MiniLM build {@link SETreeConfig#embedderName()}
   * names, with its tokenizer as the token counter unless one is set. For a process that opens several
   * knowledge bases with one model (the MCP server's switch and reset, an evaluation): a knowledge base
   * never closes an embedder it was given, so the caller closes the returned config's
   * {@link SETreeConfig#embedder()} when done. Returns {@code config} itself when it carries an embedder.
   */
  public static SETreeConfig withEmbedder(SETreeConfig config) {
    if (config.embedder() != null) {
      return config;
    }
    MiniLmEmbedder mini = loadMiniLm(config);
    return config.toBuilder().embedder(mini)
        .tokenCounter(config.tokenCounter() != null ? config.tokenCounter() : mini.tokenizer()).build();
  }
  /** The MiniLM build {@link SETreeConfig#embedderName()} names (fp32, or int8 for {@code minilm-int8}). */
  private static MiniLmEmbedder loadMiniLm(SETreeConfig config) {
    return config.embedderName().equals("minilm-int8") ? MiniLmEmbedder.loadInt8() : MiniLmEmbedder.load();
  }


  private static SETree open(Path path, SETreeConfig config, boolean readOnly) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(config, "config");
    Embedder embedder = config.embedder();
    boolean owns = false;
    TokenCounter counter = config.tokenCounter();
    if (embedder == null) {
      MiniLmEmbedder mini = loadMiniLm(config);
      embedder = mini;
      owns = true;
      if (counter == null) {
        counter = mini.tokenizer();
      }
    }
    if (counter == null) {
      throw new IllegalArgumentException("a custom embedder needs a token counter too (tokenCounter)");
    }
    SqliteTreeStore store = null;
    try {
      if (readOnly) {
        store = SqliteTreeStore.openReadOnly(path);
        if (!store.modelId().equals(embedder.modelId()) || store.dimension() != embedder.dimension()) {
          throw new dev.setree.store.StoreFormatException(store.path() + " was built with embedder model '"
              + store.modelId() + "' (dimension " + store.dimension() + "), not with '" + embedder.modelId()
              + "' (dimension " + embedder.dimension() + ")");
        }
      } else {
        store = SqliteTreeStore.open(path, embedder.modelId(), embedder.dimension());
      }
      return new SETree(path, config, embedder, owns, counter, store, readOnly);
    } catch (RuntimeException e) {
      if (store != null) {
        store.close();
      }
      if (owns) {
        embedder.close();
      }
      throw e;
    }
  }

  /** Builds the tree from plain texts (ids {@code f0, f1, ...}); see {@link #build(Collection, BuildProgress)}. */
  public void build(List<String> texts) {
    List<Fact> facts = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      facts.add(Fact.of("f" + i, texts.get(i)));
    }
    build(facts, BuildProgress.NONE);
  }

  /**
   * Builds the tree from {@code facts}, replacing any tree the knowledge base held, atomically: the file
   * and readers keep the old tree until the new one is saved. Blocks until done.
   *
   * @throws IllegalArgumentException with fewer than two facts, a blank text, or duplicate ids
   */
  public BuildReport build(Collection<Fact> facts, BuildProgress progress) {
    ensureWritable();
    List<Fact> list = List.copyOf(facts);
    checkLlm(); // a dead endpoint fails the build before anything is written
    try (SqliteTreeStore.WriterLease lease = store.lockWriter()) {
      synchronized (writeLock) {
        TreeBuilder builder = new TreeBuilder(embedder, counter, summarizer, buildOptions());
        BuildResult result = builder.build(list, progress::update);
        store.saveTreeWithHierarchy(result.tree(), result.hierarchy(), 0);
        install(Snapshot.of(result.tree(), result.hierarchy(), store.generation()));
        BuildResult.Stats st = result.stats();
        return new BuildReport(st.embedNanos(), st.knnNanos(), st.clusterNanos(), st.summaryNanos(), st.levels(),
            st.summaryFallbacks(), st.summarized());
      }
    }
  }

  /** Inserts a fact with a generated id; see {@link #insert(Fact)}. */
  public Ack insert(String text) {
    return insert(new Fact("ins-" + UUID.randomUUID(), text, null));
  }

  /**
   * Queues a fact for insertion and returns once it is durable; it becomes visible after the next
   * maintenance run. Inserting a text the knowledge base already holds (or has queued) verbatim adds
   * nothing and returns that leaf's id with {@link Ack#duplicate()} true.
   *
   * @throws IllegalArgumentException if the id already exists or is reserved ({@code _n...}); empty or
   *     over-long text is refused when the {@link Fact} is made
   * @throws IllegalStateException if this SETree is closed
   */
  public Ack insert(Fact fact) {
    ensureWritable();
    Objects.requireNonNull(fact, "fact");
    if (fact.id().startsWith(TreeBuilder.INTERNAL_ID_PREFIX)) {
      throw new IllegalArgumentException("fact id '" + fact.id() + "' uses the reserved prefix "
          + TreeBuilder.INTERNAL_ID_PREFIX);
    }
    synchronized (mutationLock) {
      List<Mutation> pending = catchUp();
      Map<String, Boolean> state = pendingState(pending);
      Snapshot s = snapshot;
      String existing = s.idByText().get(fact.text());
      if (existing != null && !Boolean.FALSE.equals(state.get(existing))) {
        return new Ack(0, existing, "duplicate: already stored");
      }
      for (Mutation m : pending) {
        if (m.kind() == Mutation.Kind.INSERT && m.text().equals(fact.text())
            && Boolean.TRUE.equals(state.get(m.leafId()))) {
          return new Ack(0, m.leafId(), "duplicate: already stored");
        }
      }
      if (exists(fact.id(), s, state)) {
        throw new IllegalArgumentException("leaf id '" + fact.id() + "' already exists");
      }
      return accept(new Mutation(0, Mutation.Kind.INSERT, fact.id(), fact.text(), fact.time()), "insert queued");
    }
  }

  /**
   * Queues the deletion of a leaf and returns once it is durable; the leaf disappears after the next
   * maintenance run.
   *
   * @throws IllegalArgumentException if no leaf has that id (or its deletion is already queued)
   * @throws IllegalStateException if this SETree is closed or read-only
   */
  public Ack delete(String leafId) {
    ensureWritable();
    Objects.requireNonNull(leafId, "leafId");
    synchronized (mutationLock) {
      List<Mutation> pending = catchUp();
      if (!exists(leafId, snapshot, pendingState(pending))) {
        throw new IllegalArgumentException("unknown leaf id '" + leafId + "'");
      }
      return accept(new Mutation(0, Mutation.Kind.DELETE, leafId, null, null), "delete queued");
    }
  }

  private Ack accept(Mutation m, String message) {
    long seq = store.appendMutation(m);
    latestAccepted = Math.max(latestAccepted, seq);
    scheduler.mutationAccepted();
    return new Ack(seq, m.leafId(), message);
  }

  /**
   * Makes the snapshot current with what is committed (loading a tree another process saved) and returns
   * the pending mutations of every process, so that a mutation is checked against the latest state.
   */
  private List<Mutation> catchUp() {
    TreeStore.State st = reloadIfNewer();
    return st.pending();
  }

  /** Per leaf id touched by a pending mutation: true if its last pending mutation inserts, false if it deletes. */
  private static Map<String, Boolean> pendingState(List<Mutation> pending) {
    Map<String, Boolean> state = new HashMap<>();
    for (Mutation m : pending) {
      state.put(m.leafId(), m.kind() == Mutation.Kind.INSERT);
    }
    return state;
  }

  private static boolean exists(String id, Snapshot s, Map<String, Boolean> state) {
    Boolean p = state.get(id);
    if (p != null) {
      return p;
    }
    int v = s.tree().indexOf(id);
    return v >= 0 && s.tree().isLeaf(v);
  }

  /** Fails with {@code LlmUnavailableException} (naming the URL) when the Target LLM cannot be reached. */
  private void checkLlm() {
    if (summarizer instanceof TargetLlmSummarizer llm) {
      llm.checkReachable();
    }
  }

  /**
   * Checks, before anything is opened or built, that the Target LLM {@code config} would write summaries
   * with answers. Does nothing when {@code config} names no LLM or gives its own {@link Summarizer}. The one
   * reachability check the command line and the MCP tools share.
   *
   * @param config the configuration a knowledge base is (or will be) opened with
   * @throws dev.setree.maintain.llm.LlmUnavailableException naming the URL when the endpoint does not answer
   */
  public static void checkLlmReachable(SETreeConfig config) {
    if (config.llm() == null || config.summarizer() != null) {
      return;
    }
    try (TargetLlmSummarizer llm = new TargetLlmSummarizer(config.llmSettings())) {
      llm.checkReachable();
    }
  }

  /**
   * The last error of the Target LLM this knowledge base summarises with (the reason for the latest
   * extractive fall-back), or empty when it has none or summarises without an LLM. Thread-safe.
   */
  public java.util.Optional<String> lastLlmFailure() {
    return summarizer instanceof TargetLlmSummarizer llm ? llm.lastFailure() : java.util.Optional.empty();
  }

  /** Asks for a maintenance run now instead of after the quiet window. */
  public void triggerMaintain() {
    ensureWritable();
    scheduler.triggerNow();
  }

  /**
   * A future that completes when every mutation accepted before this call is visible to {@link #retrieve}:
   * those this SETree accepted, and those of other processes that were pending when it opened or last
   * read the store.
   * It completes exceptionally if this SETree is closed first. A failing run (for example a dead LLM
   * endpoint) is retried with back-off; see {@link #lastMaintenanceError()}.
   */
  public CompletableFuture<Void> awaitMaintenance() {
    ensureWritable();
    return scheduler.await();
  }

  /** The error of the last maintenance run if it failed, else null. */
  public Exception lastMaintenanceError() {
    return scheduler.lastError();
  }

  /** Number of accepted mutations (of every process sharing the file) not yet applied. */
  public int pendingMutations() {
    ensureOpen();
    return store.pendingMutations().size();
  }

  /**
   * One atomic maintenance run over all pending mutations, as the single writer: holds the knowledge
   * base's cross-process writer lock, starts from the committed state (loading it if another process
   * saved since this one's snapshot), applies the pending mutations of every process in sequence order,
   * saves only what changed together with the removal of exactly the applied mutations, then swaps the
   * snapshot. Returns the sequence number through which every mutation is applied.
   */
  private long maintenanceRun() {
    try (SqliteTreeStore.WriterLease lease = store.lockWriter()) {
      synchronized (writeLock) {
        long t0 = System.nanoTime();
        TreeStore.State st = reloadIfNewer();
        Snapshot base = snapshot;
        List<Mutation> batch = st.pending();
        if (batch.isEmpty() || base.generation() != st.generation()) {
          return base.generation() == st.generation() ? st.appliedThrough() : 0;
        }
        checkLlm(); // a dead endpoint fails the run; the mutations stay pending and the run is retried
        Maintainer.Result r = maintainer.run(base.tree(), base.hierarchy(), batch);
        long[] seqs = batch.stream().mapToLong(Mutation::seq).toArray();
        long s0 = System.nanoTime();
        long generation = store.saveChanges(base.tree(), base.hierarchy(), r.tree(), r.hierarchy(),
            base.generation(), seqs);
        long saveNanos = System.nanoTime() - s0;
        install(base.next(r.tree(), r.hierarchy(), generation));
        Instant visibleAt = Instant.now();
        lastRun = new MaintenanceReport(r.path(), batch.size(), r.inserted(), r.deleted(), r.skipped(),
            r.dirtyLevels(), r.reclusteredMembers(), r.summarized(), r.nanos(), System.nanoTime() - t0,
            saveNanos, store.lastSaveBytes(), visibleAt);
        return st.lastSeq();
      }
    }
  }

  /**
   * Loads the committed state if its generation is newer than the snapshot's, and installs it; returns
   * what was read (tree null when the snapshot was current), and marks as applied every mutation the
   * committed state no longer lists as pending.
   */
  private TreeStore.State reloadIfNewer() {
    synchronized (reloadLock) {
      TreeStore.State st = store.loadIfChanged(snapshot.generation(), this::loadsOracle);
      if (st.tree() != null && st.generation() > snapshot.generation()) {
        install(Snapshot.of(st.tree(), st.hierarchy(), st.generation()));
      }
      noteKnown(st);
      if (st.generation() == snapshot.generation()) {
        scheduler.markApplied(st.appliedThrough());
      }
      return st;
    }
  }

  /**
   * Mutations pending in the store, whoever accepted them, are ones {@link #awaitMaintenance} waits for
   * once this process has seen them.
   */
  private void noteKnown(TreeStore.State st) {
    if (!st.pending().isEmpty()) {
      latestAccepted = Math.max(latestAccepted, st.pending().get(st.pending().size() - 1).seq());
    }
  }

  /**
   * Whether a load of {@code tree} includes the oracle: always for a writer (maintenance needs it); for a
   * reader only when its retrieves take the candidate path, which searches the oracle's level-0 kNN graph.
   */
  private boolean loadsOracle(Tree tree) {
    return !readOnly || RetrieveOptions.defaults().approximate(config, tree.leafCount());
  }

  /** Derives the walk's tables (and the nearest-leaf index where retrieves will use it) off the query path. */
  private Snapshot prepared(Snapshot s) {
    return s.prepare(format, RetrieveOptions.defaults().approximate(config, s.tree().leafCount()));
  }

  /** Replaces the snapshot unless it is already at this generation or a newer one. */
  private void install(Snapshot next) {
    prepared(next);
    synchronized (swapLock) {
      if (next.generation() > snapshot.generation() || next.generation() == 0 && snapshot.generation() == 0) {
        snapshot = next;
      }
    }
  }

  /**
   * On retrieve: notices, at most every {@value #REFRESH_CHECK_MILLIS} ms and without blocking, that
   * another connection committed ({@code PRAGMA data_version}), and then loads the newer state in the
   * background; retrieves go on with the current snapshot meanwhile.
   */
  private void maybeRefresh() {
    long now = System.nanoTime();
    if (now - lastRefreshCheck < REFRESH_CHECK_MILLIS * 1_000_000L) {
      return;
    }
    lastRefreshCheck = now;
    if (refreshQueued.get()) {
      return; // a load is under way
    }
    long dv;
    try {
      dv = store.pollDataVersion();
    } catch (RuntimeException e) {
      return; // a closing store: nothing to refresh
    }
    if (dv == Long.MIN_VALUE || dv == lastDataVersion || !refreshQueued.compareAndSet(false, true)) {
      return; // the reader connection is busy (ask again later), or nothing new
    }
    lastDataVersion = dv;
    refresher.execute(() -> {
      try {
        TreeStore.State st = reloadIfNewer();
        if (!readOnly && !st.pending().isEmpty()) {
          scheduler.mutationAccepted(); // another process's mutations: apply them after the quiet window
        }
      } catch (RuntimeException e) {
        // Retrieves go on with the current snapshot; the next commit noticed tries again.
        System.getLogger(SETree.class.getName()).log(System.Logger.Level.WARNING,
            "cannot load the newer state of " + path + ": " + e.getMessage(), e);
      } finally {
        refreshQueued.set(false);
      }
    });
  }

  private static final long REFRESH_CHECK_MILLIS = 50;

  private volatile MaintenanceReport lastRun;

  /** What the last maintenance run since open did, or null if none ran. */
  public MaintenanceReport lastMaintenanceRun() {
    return lastRun;
  }

  private BuildOptions buildOptions() {
    return new BuildOptions(config.knnK(), config.targetArity(), 42L, config.maxConcurrency(),
        config.topSummaryTokens(), config.summaryTokens());
  }

  /** Retrieves with the configured {@link SETreeConfig#defaultBudget() default budget}. */
  public Context retrieve(String prompt) {
    return retrieve(prompt, config.defaultBudget());
  }

  /**
   * Selects the tree cover for {@code prompt} within {@code budget} tokens. Never calls an LLM; never
   * throws for a small budget (see {@link Context#complete()}). An empty knowledge base gives an empty
   * context.
   *
   * @throws IllegalArgumentException for a blank prompt or a negative budget
   */
  public Context retrieve(String prompt, int budget) {
    return retrieve(prompt, budget, Strategy.TREE_COVER);
  }

  /** Retrieves with the given strategy: the tree cover or one of the flat baselines. */
  public Context retrieve(String prompt, int budget, Strategy strategy) {
    return retrieve(prompt, budget, RetrieveOptions.of(strategy));
  }

  /**
   * Retrieves with per-call options: the strategy and overrides of the calibration.
   *
   * @throws IllegalArgumentException for a blank prompt, one over {@link #MAX_PROMPT_CHARS} characters, or a
   *     negative budget
   */
  public Context retrieve(String prompt, int budget, RetrieveOptions options) {
    ensureOpen();
    if (prompt == null || prompt.isBlank()) {
      throw new IllegalArgumentException("the prompt must not be empty");
    }
    if (prompt.length() > MAX_PROMPT_CHARS) {
      throw new IllegalArgumentException("the prompt has " + prompt.length() + " characters; at most "
          + MAX_PROMPT_CHARS + " are accepted (put long material in the knowledge base, not in the prompt)");
    }
    if (budget < 0) {
      throw new IllegalArgumentException("budget must be >= 0, got " + budget);
    }
    Objects.requireNonNull(options, "options");
    long t0 = System.nanoTime();
    maybeRefresh();
    Snapshot s = snapshot;
    if (s.tree().isEmpty()) {
      return new Context("", List.of(), 0, budget, true, new Context.Stats(0, 0, System.nanoTime() - t0));
    }
    long deadline = t0 + config.retrieveDeadlineMillis() * 1_000_000L;
    boolean approximate = options.approximate(config, s.tree().leafCount());
    java.util.concurrent.Future<float[]> embedding = promptEmbedder.start(prompt);
    // While the prompt is embedded, the candidate path looks up the prompt's words (two cores overlap them).
    Retriever.Words words = approximate && options.strategy() == Strategy.TREE_COVER && options.tau(config) > 0
        ? Retriever.words(s, prompt) : null;
    float[] q = promptEmbedder.finish(embedding, deadline);
    boolean cutShort = q == null;
    if (cutShort) {
      // No embedding in time: relevance from the prompt's words alone; no second hop, no clustering.
      q = new float[embedder.dimension()];
      options = options.lexicalOnly();
    }
    TreeCoverWalk w = options.usesConfigCalibration() ? walk : new TreeCoverWalk(
        new CapabilityScore((float) options.beta(config), (float) options.epsilon(config)),
        (float) options.overviewShare(config), (float) options.overviewTemperature(config), format);
    ClusterSelection clustering = options.intentionalClustering(config)
        ? new ClusterSelection((float) config.clusterEdgeWeightFloor(), config.clusterDiversityTarget(),
            config.fallbackToScore())
        : null;
    Context ctx = Retriever.retrieve(s, prompt, q, budget, options.strategy(), options.tau(config),
        options.secondHop(config), clustering, embedder, w, format, approximate, words, t0);
    return cutShort ? ctx.markCutShort() : ctx;
  }


  /** The snapshot retrieves read now (for tests in this package). */
  Snapshot currentSnapshot() {
    return snapshot;
  }

  /** A read-only view of the current tree (immutable: a later maintenance run makes a new one). */
  public TreeView tree() {
    return new TreeView(snapshot.tree());
  }

  /**
   * Internal nodes of the current tree per summariser kind, in key order; always holds {@code extractive}
   * and {@code llm} (with an LLM configured, the {@code extractive} ones are the nodes that fell back), and
   * {@code unknown} for nodes without a kind.
   */
  public Map<String, Integer> summarizerKinds() {
    Tree tree = snapshot.tree();
    Map<String, Integer> kinds = new java.util.TreeMap<>();
    kinds.put("extractive", 0);
    kinds.put(TargetLlmSummarizer.KIND, 0);
    for (int v = tree.leafCount(); v < tree.size(); v++) {
      String k = tree.summarizerKind(v);
      kinds.merge(k == null ? "unknown" : k, 1, Integer::sum);
    }
    return kinds;
  }

  /** The token counter every budget of this knowledge base is measured in. */
  public TokenCounter tokenCounter() {
    return counter;
  }

  /** The configuration this knowledge base was opened with. */
  public SETreeConfig config() {
    return config;
  }

  /** The database file. */
  public Path path() {
    return path;
  }

  /** Summary figures of the current tree. */
  public Stats stats() {
    Tree t = snapshot.tree();
    int internal = t.size() - t.leafCount();
    double arity = internal == 0 ? 0 : (t.size() - 1) / (double) internal;
    return new Stats(t.leafCount(), t.size(), t.depth(), internal, arity,
        t.isEmpty() ? 0 : t.childCount(t.root()), embedder.modelId());
  }

  /**
   * Summary figures of a tree.
   *
   * @param leaves leaf facts
   * @param nodes all nodes
   * @param depth root's subtree depth
   * @param internalNodes summary nodes
   * @param meanArity mean children per internal node
   * @param rootArity the root's children
   * @param modelId the embedder's model id
   */
  public record Stats(int leaves, int nodes, int depth, int internalNodes, double meanArity, int rootArity,
      String modelId) {}

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("this SETree is closed");
    }
  }

  private void ensureWritable() {
    ensureOpen();
    if (readOnly) {
      throw new IllegalStateException(path + " is open read-only");
    }
  }

  /** Whether this knowledge base was opened with {@link #openReadOnly}. */
  public boolean isReadOnly() {
    return readOnly;
  }

  /** Closes the database and, if SETree loaded it, the embedder. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      scheduler.close();
      refresher.shutdown();
      promptEmbedder.close();
      try {
        refresher.awaitTermination(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      store.close();
      if (ownedLlm != null) {
        ownedLlm.close();
      }
    } finally {
      if (ownsEmbedder) {
        embedder.close();
      }
    }
  }
}

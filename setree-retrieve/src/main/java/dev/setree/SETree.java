package dev.setree;

import dev.setree.core.CapabilityScore;
import dev.setree.core.ContextFormat;
import dev.setree.core.Embedder;
import dev.setree.core.Fact;
import dev.setree.core.HierarchyState;
import dev.setree.core.Summarizer;
import dev.setree.core.TokenCounter;
import dev.setree.core.Tree;
import dev.setree.core.TreeCoverWalk;
import dev.setree.core.TreeStore.Mutation;
import dev.setree.embed.MiniLmEmbedder;
import dev.setree.maintain.BuildOptions;
import dev.setree.maintain.BuildProgress;
import dev.setree.maintain.BuildResult;
import dev.setree.maintain.ExtractiveSummarizer;
import dev.setree.maintain.Maintainer;
import dev.setree.maintain.TreeBuilder;
import dev.setree.maintain.llm.TargetLlmSummarizer;
import dev.setree.store.SqliteTreeStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

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
  private final Object writeLock = new Object();
  private final Object mutationLock = new Object();
  private final Maintainer maintainer;
  private final MaintenanceScheduler scheduler;
  /** The oracle saved with the current tree; guarded by {@link #writeLock}. */
  private HierarchyState oracle;
  /** Accepted mutations not yet applied, in sequence order; guarded by {@link #mutationLock}. */
  private final List<Mutation> pending = new ArrayList<>();
  private volatile long latestAccepted;
  private volatile Snapshot snapshot;
  private volatile boolean closed;

  private SETree(Path path, SETreeConfig config, Embedder embedder, boolean ownsEmbedder,
      TokenCounter counter, SqliteTreeStore store) {
    this.path = path;
    this.config = config;
    this.embedder = embedder;
    this.ownsEmbedder = ownsEmbedder;
    this.counter = counter;
    if (config.summarizer() != null) {
      this.summarizer = config.summarizer();
      this.ownedLlm = null;
    } else if (config.llm() != null) {
      this.ownedLlm = new TargetLlmSummarizer(config.llm());
      this.summarizer = ownedLlm;
    } else {
      this.summarizer = new ExtractiveSummarizer();
      this.ownedLlm = null;
    }
    this.store = store;
    this.format = new ContextFormat(counter);
    this.walk = new TreeCoverWalk(new CapabilityScore((float) config.beta(), (float) config.epsilon()),
        (float) config.overviewShare(), (float) config.overviewTemperature(), format);
    this.snapshot = Snapshot.of(store.loadTree());
    this.oracle = store.loadHierarchy();
    this.maintainer = new Maintainer(embedder, counter, summarizer, buildOptions(), config.faithfulnessThreshold());
    this.pending.addAll(store.pendingMutations());
    for (Mutation m : pending) {
      latestAccepted = Math.max(latestAccepted, m.seq());
    }
    this.scheduler = new MaintenanceScheduler(config.quietWindowMillis(), this::maintenanceRun,
        () -> latestAccepted);
    if (!pending.isEmpty()) {
      scheduler.mutationAccepted(); // replay what an earlier process acknowledged
    }
  }

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
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(config, "config");
    Embedder embedder = config.embedder();
    boolean owns = false;
    TokenCounter counter = config.tokenCounter();
    if (embedder == null) {
      MiniLmEmbedder mini = MiniLmEmbedder.load();
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
      store = SqliteTreeStore.open(path, embedder.modelId(), embedder.dimension());
      return new SETree(path, config, embedder, owns, counter, store);
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
  public BuildResult.Stats build(Collection<Fact> facts, BuildProgress progress) {
    ensureOpen();
    synchronized (writeLock) {
      checkLlm(); // a dead endpoint fails the build before anything is written
      TreeBuilder builder = new TreeBuilder(embedder, counter, summarizer, buildOptions());
      BuildResult result = builder.build(List.copyOf(facts), progress);
      store.saveTreeWithHierarchy(result.tree(), result.hierarchy(), 0);
      oracle = result.hierarchy();
      snapshot = Snapshot.of(result.tree());
      return result.stats();
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
    ensureOpen();
    Objects.requireNonNull(fact, "fact");
    if (fact.id().startsWith(TreeBuilder.INTERNAL_ID_PREFIX)) {
      throw new IllegalArgumentException("fact id '" + fact.id() + "' uses the reserved prefix "
          + TreeBuilder.INTERNAL_ID_PREFIX);
    }
    synchronized (mutationLock) {
      Map<String, Boolean> state = pendingState();
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
   * @throws IllegalStateException if this SETree is closed
   */
  public Ack delete(String leafId) {
    ensureOpen();
    Objects.requireNonNull(leafId, "leafId");
    synchronized (mutationLock) {
      if (!exists(leafId, snapshot, pendingState())) {
        throw new IllegalArgumentException("unknown leaf id '" + leafId + "'");
      }
      return accept(new Mutation(0, Mutation.Kind.DELETE, leafId, null, null), "delete queued");
    }
  }

  private Ack accept(Mutation m, String message) {
    long seq = store.appendMutation(m);
    Mutation stored = new Mutation(seq, m.kind(), m.leafId(), m.text(), m.time());
    pending.add(stored);
    latestAccepted = Math.max(latestAccepted, seq);
    scheduler.mutationAccepted();
    return new Ack(seq, m.leafId(), message);
  }

  /** Per leaf id touched by a pending mutation: true if its last pending mutation inserts, false if it deletes. */
  private Map<String, Boolean> pendingState() {
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

  /** Asks for a maintenance run now instead of after the quiet window. */
  public void triggerMaintain() {
    ensureOpen();
    scheduler.triggerNow();
  }

  /**
   * A future that completes when every mutation accepted before this call is visible to {@link #retrieve}.
   * It completes exceptionally if this SETree is closed first. A failing run (for example a dead LLM
   * endpoint) is retried with back-off; see {@link #lastMaintenanceError()}.
   */
  public CompletableFuture<Void> awaitMaintenance() {
    ensureOpen();
    return scheduler.await();
  }

  /** The error of the last maintenance run if it failed, else null. */
  public Exception lastMaintenanceError() {
    return scheduler.lastError();
  }

  /** Number of accepted mutations not yet applied. */
  public int pendingMutations() {
    synchronized (mutationLock) {
      return pending.size();
    }
  }

  /** One atomic maintenance run over all pending mutations (the single writer). */
  private long maintenanceRun() {
    synchronized (writeLock) {
      List<Mutation> batch;
      synchronized (mutationLock) {
        batch = List.copyOf(pending);
      }
      if (batch.isEmpty()) {
        return 0;
      }
      checkLlm(); // a dead endpoint fails the run; the mutations stay pending and the run is retried
      long t0 = System.nanoTime();
      long last = batch.get(batch.size() - 1).seq();
      Maintainer.Result r = maintainer.run(snapshot.tree(), oracle, batch);
      store.saveTreeWithHierarchy(r.tree(), r.hierarchy(), last);
      oracle = r.hierarchy();
      Snapshot next = r.tree() == snapshot.tree() ? snapshot : Snapshot.of(r.tree());
      synchronized (mutationLock) {
        snapshot = next;
        pending.removeIf(m -> m.seq() <= last);
      }
      lastRun = new MaintenanceReport(r.path(), batch.size(), r.inserted(), r.deleted(), r.skipped(),
          r.dirtyLevels(), r.reclusteredMembers(), r.summarized(), r.nanos(), System.nanoTime() - t0);
      return last;
    }
  }

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
   * @throws IllegalArgumentException for a blank prompt or a negative budget
   */
  public Context retrieve(String prompt, int budget, RetrieveOptions options) {
    ensureOpen();
    if (prompt == null || prompt.isBlank()) {
      throw new IllegalArgumentException("the prompt must not be empty");
    }
    if (budget < 0) {
      throw new IllegalArgumentException("budget must be >= 0, got " + budget);
    }
    Objects.requireNonNull(options, "options");
    long t0 = System.nanoTime();
    Snapshot s = snapshot;
    if (s.tree().isEmpty()) {
      return new Context("", List.of(), 0, budget, true, new Context.Stats(0, 0, System.nanoTime() - t0));
    }
    float[] q = embedder.embed(prompt);
    TreeCoverWalk w = options.usesConfigCalibration() ? walk : new TreeCoverWalk(
        new CapabilityScore((float) options.beta(config), (float) options.epsilon(config)),
        (float) options.overviewShare(config), (float) options.overviewTemperature(config), format);
    ClusterSelection clustering = options.intentionalClustering(config)
        ? new ClusterSelection((float) config.clusterEdgeWeightFloor(), config.clusterDiversityTarget(),
            config.fallbackToScore())
        : null;
    return Retriever.retrieve(s, prompt, q, budget, options.strategy(), options.tau(config),
        options.secondHop(config), clustering, embedder, w, format, t0);
  }

  /** The current snapshot of the tree (immutable). */
  public Tree tree() {
    return snapshot.tree();
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

  /** Closes the database and, if SETree loaded it, the embedder. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      scheduler.close();
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

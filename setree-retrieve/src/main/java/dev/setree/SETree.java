package dev.setree;

import dev.setree.internal.core.ContextFormat;
import dev.setree.internal.core.Tree;
import dev.setree.internal.embed.WordPieceTokenizer;
import dev.setree.internal.maintain.llm.TargetLlmSummarizer;
import dev.setree.spi.Embedder;
import dev.setree.spi.Fact;
import dev.setree.spi.Summarizer;
import dev.setree.spi.TokenCounter;
import dev.setree.internal.store.SqliteTreeStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
 * rebuild). With the built-in extractive summariser that run is computed while the window runs and saved
 * when it ends, so a change is visible about a window after it was made, not a window plus a run
 * (docs/adr/0032). {@link #awaitMaintenance()} waits for visibility, {@link #triggerMaintain()} runs now. A
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
  private final SqliteTreeStore store;
  private final boolean readOnly;
  private final StateFollower state;
  private final SingleWriter writer;
  private final MutationIntake mutations;
  private final MaintenanceScheduler scheduler;
  private final PromptRetrieval retrieval;
  private volatile boolean closed;

  SETree(Path path, SETreeConfig config, Embedder embedder, boolean ownsEmbedder,
      TokenCounter counter, SqliteTreeStore store, boolean readOnly) {
    this.path = path;
    this.config = config;
    this.embedder = embedder;
    this.ownsEmbedder = ownsEmbedder;
    this.counter = counter;
    this.readOnly = readOnly;
    this.store = store;
    ContextFormat format = new ContextFormat(counter);
    this.retrieval = new PromptRetrieval(config, embedder, format);
    this.state = new StateFollower(path, config, store, format, readOnly);
    this.writer = new SingleWriter(config, embedder, counter, store, state, readOnly);
    this.scheduler = new MaintenanceScheduler(config.quietWindowMillis(), writer::maintenanceRun,
        writer::prepareRun, state::latestAccepted, store::checkpoint);
    this.mutations = new MutationIntake(store, state, scheduler);
    state.attach(scheduler);
    if (!readOnly) {
      writer.onOpen(scheduler);
    }
  }

  /** The longest prompt {@link #retrieve} accepts, in characters (as long as the longest fact). */
  public static final int MAX_PROMPT_CHARS = Fact.MAX_CHARS;

  /** Opens (or creates) the knowledge base at {@code path} with the embedded defaults. */
  public static SETree open(Path path) {
    return open(path, SETreeConfig.defaults());
  }

  /**
   * Opens (or creates) the knowledge base at {@code path}. A writer: in the background it copies the tree into
   * the draft its first maintenance run will continue from, so that its first insert is visible sooner (this
   * holds about the memory of the tree's nodes and internal vectors once more; {@link #openReadOnly} does not).
   *
   * @throws KnowledgeBaseException if the file is not a SETree database, is corrupt, is of a newer format,
   *     or was built with another embedder; the file is then left untouched
   */
  public static SETree open(Path path, SETreeConfig config) {
    return Opening.open(path, config, false);
  }

  /**
   * Opens an existing knowledge base for reading only: {@link #retrieve} and {@link #stats} work, nothing
   * is ever written to the file or its folder (both may be read-only), and the mutating methods throw
   * {@link IllegalStateException}. Changes that other processes commit are picked up as by {@link #open}.
   *
   * @throws KnowledgeBaseException if the file does not exist, is not a SETree database, is corrupt or of a
   *     newer format, or was built with another embedder
   */
  public static SETree openReadOnly(Path path, SETreeConfig config) {
    return Opening.open(path, config, true);
  }

  /**
   * Reads a knowledge base for inspection without an embedder: its committed tree and the facts about it.
   * The file is opened read-only and closed before this returns; nothing is written, not even a WAL.
   *
   * @param path the database file
   * @throws KnowledgeBaseException when the file is missing or not a SETree knowledge base
   */
  public static Inspection inspect(Path path) {
    return Opening.inspect(path);
  }

  /**
   * Deletes a knowledge base's file and its side files (SQLite's {@code -wal}, {@code -shm},
   * {@code -journal} and SETree's writer lock {@code -writer}), for a file no process has open: a build
   * that failed on a new file, an MCP {@code reset}. Missing files are skipped.
   *
   * @param path the database file
   * @throws KnowledgeBaseException naming the file that could not be deleted
   */
  public static void deleteFiles(Path path) {
    Opening.deleteFiles(path);
  }

  /**
   * Returns {@code config} with its embedder loaded: the MiniLM build {@link SETreeConfig#embedderName()}
   * names, with its tokenizer as the token counter unless one is set. For a process that opens several
   * knowledge bases with one model (the MCP server's switch and reset, an evaluation): a knowledge base
   * never closes an embedder it was given, so the caller closes the returned config's
   * {@link SETreeConfig#embedder()} when done. Returns {@code config} itself when it carries an embedder.
   */
  public static SETreeConfig withEmbedder(SETreeConfig config) {
    return Opening.withEmbedder(config);
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
    return writer.build(List.copyOf(facts), progress);
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
    return mutations.insert(fact);
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
    return mutations.delete(leafId);
  }

  /**
   * Loads the default token counter (MiniLM's WordPiece pieces, without special tokens), for a config whose
   * embedder is the host's own ({@link SETreeConfig.Builder#tokenCounter}). Thread-safe; it holds a native
   * tokenizer for as long as it is reachable.
   */
  public static TokenCounter defaultTokenCounter() {
    return WordPieceTokenizer.load();
  }

  /**
   * Checks, before anything is opened or built, that the Target LLM {@code config} would write summaries
   * with answers. Does nothing when {@code config} names no LLM or gives its own {@link Summarizer}. The one
   * reachability check the command line and the MCP tools share.
   *
   * @param config the configuration a knowledge base is (or will be) opened with
   * @throws dev.setree.spi.SummarizerException naming the URL when the endpoint does not answer
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
  public Optional<String> lastLlmFailure() {
    return writer.lastLlmFailure();
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

  /** What the last maintenance run since open did, or null if none ran. */
  public MaintenanceReport lastMaintenanceRun() {
    return writer.lastRun();
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
    PromptRetrieval.check(prompt, budget, options);
    long t0 = System.nanoTime();
    state.maybeRefresh();
    return retrieval.retrieve(state.snapshot(), prompt, budget, options, t0);
  }

  /** This process's writer (for tests in this package). */
  SingleWriter writer() {
    return writer;
  }

  /** The snapshot retrieves read now (for tests in this package). */
  Snapshot currentSnapshot() {
    return state.snapshot();
  }

  /** A read-only view of the current tree (immutable: a later maintenance run makes a new one). */
  public TreeView tree() {
    return new TreeView(state.snapshot().tree());
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
    Tree t = state.snapshot().tree();
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

  /**
   * Closes the database and, if SETree loaded it, the embedder. Idempotent: a concurrent second call
   * returns only once the first has finished.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      scheduler.close();
      state.shutdown();
      retrieval.close();
      state.awaitTermination();
      store.close();
      writer.close();
    } finally {
      if (ownsEmbedder) {
        embedder.close();
      }
    }
  }
}

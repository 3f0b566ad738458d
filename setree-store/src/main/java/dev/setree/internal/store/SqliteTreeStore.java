package dev.setree.internal.store;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeChanges;
import dev.setree.internal.core.TreeStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Objects;

/**
 * Stores one SETree knowledge base (tree, hierarchy oracle and pending mutations) in a single SQLite file;
 * the format is specified in {@code docs/store-format.md}.
 *
 * <p>{@link #open} creates a new knowledge base or opens an existing one built with the same embedder
 * (model id and dimension); {@link #openReadOnly} opens an existing one for reading only and never
 * writes to it. Before SQLite writes anything, opening checks that the file is a SQLite database, that
 * it is a SETree knowledge base of a supported format version, that it was built with the requested
 * embedder and that its structure is sound (SQLite's {@code quick_check} of the schema and the small tables,
 * a walk of the large tables' indexes; {@link #load} reads and checks every row of the large ones); a
 * refused file is left untouched and a {@link StoreFormatException} names the problem.
 *
 * <p>While open for writing, the database runs in WAL mode with {@code synchronous=FULL}, so every
 * committed save or mutation survives a power loss; {@link #close} checkpoints and returns the file to
 * rollback-journal mode, so a closed knowledge base is one self-contained file. Saves are single
 * transactions: a crash or failure at any point leaves the previous state.
 *
 * <p>Thread-safe. Writes are serialised on one connection; reads go through a second, read-only
 * connection and so proceed while a save is in progress, each seeing either the state before or the
 * state after it. Each of {@link #loadTree}, {@link #loadHierarchy} and {@link #pendingMutations} reads
 * one consistent snapshot; two calls may straddle a concurrent save.
 *
 * <p>Behind it, package-private: {@link StoreOpening} (the checks of open, creation), {@link StoreConnections}
 * (the two connections and their transactions), {@link StateReader} (loads), {@link TreeSaves} (a build's
 * and a maintenance run's save), and one class per table ({@link NodeRows}, {@link OracleRows} and
 * {@link OracleRowReader}, {@link PendingMutationRows}, {@link GenerationRow}; {@link NodeTable} and
 * {@link LevelTable} for version 1).
 */
public final class SqliteTreeStore implements TreeStore {
  private final Path path;
  private final String modelId;
  private final int dimension;
  /** The format version of the file: {@link Schema#FORMAT_VERSION}, or 1 for a version-1 file open read-only. */
  private final int version;
  private final StoreConnections connections;
  private final StateReader states;
  private final TreeSaves saves;
  private volatile long lastSaveBytes;

  /** Test hook: runs inside a save after the nodes are written and before the levels are. */
  volatile Runnable afterNodesWrittenHook;

  SqliteTreeStore(Path path, String modelId, int dimension, int version, Connection writer,
      Connection reader) {
    this.path = path;
    this.modelId = modelId;
    this.dimension = dimension;
    this.version = version;
    this.connections = new StoreConnections(path, writer, reader);
    this.states = new StateReader(path, dimension, version, !connections.readOnly());
    this.saves = new TreeSaves(path, dimension);
  }

  /**
   * Opens the knowledge base at {@code file} for reading and writing, creating it (and missing parent
   * directories) when the file does not exist or is empty.
   *
   * @param file the database file
   * @param modelId id of the embedder whose vectors the knowledge base holds
   * @param dimension that embedder's dimension
   * @return the open store
   * @throws StoreFormatException when the file exists but is refused; it is then left untouched
   * @throws StoreException when the file cannot be read, created or opened
   */
  public static SqliteTreeStore open(Path file, String modelId, int dimension) {
    return StoreOpening.open(file, modelId, dimension);
  }

  /**
   * Opens an existing knowledge base for reading only; nothing is ever written to the file. Model id and
   * dimension are those the knowledge base was built with. Write methods throw
   * {@link IllegalStateException}.
   *
   * @param file the database file, which must exist
   * @return the open store
   * @throws StoreFormatException when the file is refused
   * @throws StoreException when the file does not exist or cannot be opened
   */
  public static SqliteTreeStore openReadOnly(Path file) {
    return StoreOpening.openReadOnly(file);
  }

  /**
   * Deletes a knowledge base's file and every side file SQLite or SETree made beside it ({@code -wal},
   * {@code -shm}, {@code -journal}, the writer lock {@code -writer}). Only for a file no process has open,
   * such as one a failed build just created. Missing files are skipped.
   *
   * @throws StoreException naming the file that could not be deleted
   */
  public static void deleteFiles(Path file) {
    for (String suffix : List.of("", "-wal", "-shm", "-journal", "-writer")) {
      Path f = suffix.isEmpty() ? file : StoreOpening.sibling(file, suffix);
      try {
        java.nio.file.Files.deleteIfExists(f);
      } catch (java.io.IOException e) {
        throw new StoreException("cannot delete " + f + ": " + e, e);
      }
    }
  }

  /** The embedder model id the knowledge base was built with. */
  public String modelId() {
    connections.ensureOpen();
    return modelId;
  }

  /** The embedding dimension. */
  public int dimension() {
    connections.ensureOpen();
    return dimension;
  }

  /** The absolute path of the database file. */
  public Path path() {
    connections.ensureOpen();
    return path;
  }

  /** The store format version of the file (the current one, unless a version-1 file is open read-only). */
  public int formatVersion() {
    connections.ensureOpen();
    return version;
  }

  @Override
  public Tree loadTree() {
    return connections.read("load the tree from", states::tree);
  }

  @Override
  public HierarchyState loadHierarchy() {
    return connections.read("load the hierarchy from", c -> states.hierarchy(c, states.tree(c)));
  }

  @Override
  public State load() {
    return connections.read("load", states::state);
  }

  @Override
  public State loadIfChanged(long knownGeneration) {
    return loadIfChanged(knownGeneration, true);
  }

  /**
   * {@link #loadIfChanged(long)}, optionally without the oracle (readers do not need it; it is then
   * {@link HierarchyState#empty()}). Pass {@code -1} as the known generation to load in any case.
   */
  public State loadIfChanged(long knownGeneration, boolean withHierarchy) {
    return loadIfChanged(knownGeneration, tree -> withHierarchy);
  }

  /**
   * {@link #loadIfChanged(long)}, with the oracle only when {@code withHierarchy} accepts the tree just read
   * (in the same read transaction, so the two always match): a reader loads it only when its retrieves will
   * search the oracle's kNN graph.
   */
  public State loadIfChanged(long knownGeneration, java.util.function.Predicate<Tree> withHierarchy) {
    return loadIfChanged(knownGeneration, withHierarchy, null);
  }

  /**
   * {@link #loadIfChanged(long, java.util.function.Predicate)}, telling {@code rows} (when not null) what it
   * reads as it reads it, so that a caller can derive something from the leaves while the rest loads: see
   * {@link TreeRows}. Nothing is told when the generation is still the known one.
   */
  public State loadIfChanged(long knownGeneration, java.util.function.Predicate<Tree> withHierarchy,
      TreeRows rows) {
    return connections.read("load", c -> states.stateIfChanged(c, knownGeneration, withHierarchy, rows));
  }

  /**
   * Told by a load what it reads, on the loading thread and inside its read transaction: each leaf row as
   * the table scan meets it, then the tree made of all the rows (before the oracle is read). The leaf rows
   * come in the order of the table's {@code ord} key, which is the tree's leaf order, but a listener must
   * check that against the tree it is given: it is what the load returns, the leaf rows only a preview. A
   * load that fails stops telling without notice.
   */
  public interface TreeRows {
    /** A leaf row: the leaf's id and text. */
    void leaf(String id, String text);

    /** The tree the load read (the one it returns), once every row was read. */
    void tree(Tree tree);
  }

  @Override
  public long generation() {
    return connections.read("read the generation of", GenerationRow::read);
  }

  /**
   * SQLite's {@code PRAGMA data_version} on this store's reader connection: it changes whenever another
   * connection (of this process or another) has committed since the last call. A cheap way to notice that
   * something may have changed before asking for the {@link #generation()}.
   */
  public long dataVersion() {
    return connections.read("read the data version of", c -> (long) StoreOpening.pragmaInt(c, "data_version"));
  }

  /**
   * {@link #dataVersion()} without waiting: {@link Long#MIN_VALUE} when the reader connection is busy with
   * a load (the caller then asks again later). For callers that must never block, such as retrieve.
   */
  public long pollDataVersion() {
    return connections.pollDataVersion();
  }

  @Override
  public List<Mutation> pendingMutations() {
    return connections.read("read the pending mutations of", c -> PendingMutationRows.read(c, path));
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException when the tree's dimension is not the store's, or a hierarchy level's
   *     arrays have inconsistent lengths; nothing is written then
   * @throws StoreException when the save fails; the previous state is kept
   */
  @Override
  public void saveTreeWithHierarchy(Tree tree, HierarchyState hierarchy, long appliedThroughSeq) {
    saves.checkReplace(tree, hierarchy, appliedThroughSeq);
    connections.write("save the tree to", c -> {
      TreeSaves.Saved saved = saves.replace(c, tree, hierarchy, appliedThroughSeq, this::afterNodesWritten);
      lastSaveBytes = saved.bytes();
      return null;
    });
  }

  /**
   * {@inheritDoc}
   *
   * @throws IllegalArgumentException when a tree's dimension is not the store's, or a hierarchy level
   *     cannot be stored; nothing is written then
   * @throws StoreException when the save fails; the previous state is kept
   */
  @Override
  public long saveChanges(Tree before, HierarchyState beforeHierarchy, Tree after, HierarchyState afterHierarchy,
      long expectedGeneration, long[] appliedSeqs) {
    Objects.requireNonNull(appliedSeqs, "appliedSeqs");
    return saveChanges(planChanges(before, beforeHierarchy, after, afterHierarchy), expectedGeneration,
        appliedSeqs);
  }

  /**
   * The first half of {@link #saveChanges(Tree, HierarchyState, Tree, HierarchyState, long, long[])}: checks the
   * arguments and finds the rows that differ between the two states, from the states alone. It reads nothing
   * from the file and needs no lock, so a writer can work it out before it takes the writer lock.
   *
   * @throws IllegalArgumentException when a tree's dimension is not the store's, or a hierarchy level cannot
   *     be stored
   */
  public SavePlan planChanges(Tree before, HierarchyState beforeHierarchy, Tree after,
      HierarchyState afterHierarchy) {
    return saves.plan(before, beforeHierarchy, after, afterHierarchy, null);
  }

  /**
   * As {@link #planChanges(Tree, HierarchyState, Tree, HierarchyState)}, comparing only the rows of the nodes
   * that {@code changes}, the change log of the run that made {@code after} (docs/adr/0034), says may differ
   * and the nodes above them: the same plan, without a look at every node. A log that is null, or not from
   * {@code before}, is not used: every row is compared then.
   */
  public SavePlan planChanges(Tree before, HierarchyState beforeHierarchy, Tree after,
      HierarchyState afterHierarchy, TreeChanges changes) {
    return saves.plan(before, beforeHierarchy, after, afterHierarchy, changes);
  }

  /**
   * The second half of {@link #saveChanges(Tree, HierarchyState, Tree, HierarchyState, long, long[])}: writes
   * {@code plan} in one transaction, refused when the file is no longer at {@code expectedGeneration} (the
   * generation of the plan's starting state), and drops exactly the mutations {@code appliedSeqs}.
   *
   * @return the new generation
   * @throws dev.setree.internal.core.TreeStore.StaleStateException when another writer saved since
   * @throws StoreException when the save fails; the previous state is kept
   */
  public long saveChanges(SavePlan plan, long expectedGeneration, long[] appliedSeqs) {
    Objects.requireNonNull(plan, "plan");
    Objects.requireNonNull(appliedSeqs, "appliedSeqs");
    return connections.write("save the changes to", c -> {
      TreeSaves.Saved saved = saves.applyChanges(c, plan, expectedGeneration, appliedSeqs, this::afterNodesWritten);
      lastSaveBytes = saved.bytes();
      return saved.generation();
    });
  }

  private void afterNodesWritten() {
    Runnable hook = afterNodesWrittenHook;
    if (hook != null) {
      hook.run();
    }
  }

  /**
   * Copies the WAL's committed frames into the database file, waiting for nobody (a passive checkpoint), so that
   * the next save starts the WAL afresh instead of paying SQLite's automatic checkpoint (docs/store-format.md,
   * "Checkpoints").
   *
   * @throws IllegalStateException for a read-only store
   * @throws StoreException when SQLite fails; nothing committed is lost, the frames stay in the WAL
   */
  public void checkpoint() {
    connections.checkpoint();
  }

  /** Bytes of text and blobs the last save wrote (a logical measure; SQLite writes whole pages). */
  public long lastSaveBytes() {
    return lastSaveBytes;
  }

  /** The cached BM25 index's files, or null when the file has none (also for a version-1 file). */
  public LexicalCache lexicalCache() {
    return connections.read("read the cached BM25 index of", LexicalCacheRows::read);
  }

  /** The {@link LexicalCache#lastSeq()} of the cached BM25 index, or -1 when the file has none of {@code format}. */
  public long lexicalCacheSeq(String format) {
    return connections.read("read the cached BM25 index of", c -> LexicalCacheRows.lastSeq(c, format));
  }

  /**
   * Replaces the cached BM25 index by {@code files} in one transaction (creating its tables in a file that has
   * none) and returns the bytes written. Only the holder of the writer lock should call it. A failure
   * ({@link StoreException}; {@link IllegalStateException} for a read-only store) keeps the previous copy.
   */
  public long saveLexicalCache(String format, java.util.Map<String, byte[]> files) {
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(files, "files");
    return connections.write("cache the BM25 index in",
        c -> LexicalCacheRows.replace(c, format, files, java.time.Instant.now().toString()));
  }

  /**
   * Takes the cross-process writer lock of this knowledge base, blocking until it is free: whoever holds
   * it is the only writer of the tree (builds and maintenance runs). See {@code docs/store-format.md}.
   *
   * @throws IllegalStateException for a read-only store
   */
  public WriterLease lockWriter() {
    connections.ensureOpen();
    if (connections.readOnly()) {
      throw new IllegalStateException(path + " is open read-only");
    }
    return WriterLock.acquire(path);
  }

  /** A held writer lock; closing it releases it. */
  public interface WriterLease extends AutoCloseable {
    /** Releases the lock; idempotent. */
    @Override
    void close();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The mutation's own {@code seq} is ignored. Sequence numbers increase and are never reused, even
   * after the mutations holding them were applied and dropped.
   *
   * @throws IllegalArgumentException when kind or leaf id is missing, or an insert has no text
   */
  @Override
  public long appendMutation(Mutation mutation) {
    Objects.requireNonNull(mutation, "mutation");
    Objects.requireNonNull(mutation.kind(), "mutation kind");
    Objects.requireNonNull(mutation.leafId(), "mutation leaf id");
    if (mutation.kind() == Mutation.Kind.INSERT && mutation.text() == null) {
      throw new IllegalArgumentException("the insert of leaf " + mutation.leafId() + " has no text");
    }
    return connections.write("append a mutation to", c -> PendingMutationRows.append(c, mutation));
  }

  /**
   * Closes the store; idempotent. A read-write store checkpoints its write-ahead log and returns the file
   * to rollback-journal mode, unless another connection still has the file open.
   */
  @Override
  public void close() {
    connections.close();
  }

  @Override
  public String toString() {
    return "SqliteTreeStore[" + path + ", " + modelId + ", dim " + dimension
        + (connections.readOnly() ? ", read-only" : "") + (connections.closed() ? ", closed" : "") + "]";
  }
}

package dev.setree.store;

import dev.setree.core.HierarchyState;
import dev.setree.core.Tree;
import dev.setree.core.TreeStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

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
 */
public final class SqliteTreeStore implements TreeStore {
  static final int BUSY_TIMEOUT_MS = 5000;

  private final Path path;
  private final String modelId;
  private final int dimension;
  /** The format version of the file: {@link Schema#FORMAT_VERSION}, or 1 for a version-1 file open read-only. */
  private final int version;
  /** The read-write connection, or null for a read-only store. Guarded by {@link #writeLock}. */
  private final Connection writer;
  /** A read-only connection. Guarded by {@link #readLock}. */
  private final Connection reader;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final ReentrantLock readLock = new ReentrantLock();
  private volatile boolean closed;

  /** Test hook: runs inside a save after the nodes are written and before the levels are. */
  volatile Runnable afterNodesWrittenHook;

  SqliteTreeStore(Path path, String modelId, int dimension, int version, Connection writer,
      Connection reader) {
    this.path = path;
    this.modelId = modelId;
    this.dimension = dimension;
    this.version = version;
    this.writer = writer;
    this.reader = reader;
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
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(modelId, "modelId");
    if (modelId.isBlank()) {
      throw new IllegalArgumentException("the embedder model id must not be blank");
    }
    if (dimension <= 0) {
      throw new IllegalArgumentException("the embedding dimension must be positive, not " + dimension);
    }
    Path path = file.toAbsolutePath().normalize();
    // Two attempts: another process may turn a missing or blank file into a database between our look
    // and our create; the second look then checks what it made.
    for (int attempt = 0; attempt < 2; attempt++) {
      FileHeader header = FileHeader.read(path);
      if (!header.isFresh()) {
        header.check(path, StoreOpening.hasRecoveryLog(path));
        StoreOpening.Meta meta = StoreOpening.inspectForWriting(path);
        if (meta != null) {
          meta.requireEmbedder(path, modelId, dimension);
          return StoreOpening.connect(path, meta);
        }
      }
      SqliteTreeStore created = StoreOpening.create(path, modelId, dimension);
      if (created != null) {
        return created;
      }
    }
    throw new StoreException("cannot create " + path + ": another process keeps changing it");
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
    Objects.requireNonNull(file, "file");
    Path path = file.toAbsolutePath().normalize();
    FileHeader header = FileHeader.read(path);
    if (header.kind == FileHeader.Kind.MISSING) {
      throw new StoreException(path + " does not exist");
    }
    if (header.kind == FileHeader.Kind.EMPTY) {
      throw new StoreFormatException(path + " is an empty file, not a SETree knowledge base");
    }
    header.check(path, StoreOpening.hasRecoveryLog(path));
    Connection c = null;
    try {
      c = StoreOpening.connection(path, StoreOpening.Mode.READ_ONLY);
      StoreOpening.Meta meta = StoreOpening.inspect(path, c);
      if (meta == null) {
        throw new StoreFormatException(path + " is an empty SQLite database, not a SETree knowledge base");
      }
      SqliteTreeStore store = new SqliteTreeStore(path, meta.modelId(), meta.dimension(), meta.version(), null, c);
      c = null;
      return store;
    } catch (SQLException e) {
      throw failure(path, "open", e);
    } finally {
      closeQuietly(c);
    }
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
    ensureOpen();
    return modelId;
  }

  /** The embedding dimension. */
  public int dimension() {
    ensureOpen();
    return dimension;
  }

  /** The absolute path of the database file. */
  public Path path() {
    ensureOpen();
    return path;
  }

  /** The store format version of the file (the current one, unless a version-1 file is open read-only). */
  public int formatVersion() {
    ensureOpen();
    return version;
  }

  @Override
  public Tree loadTree() {
    return read("load the tree from", this::readTree);
  }

  @Override
  public HierarchyState loadHierarchy() {
    return read("load the hierarchy from", c -> readHierarchy(c, readTree(c)));
  }

  @Override
  public State load() {
    return read("load", c -> {
      Tree tree = readTree(c);
      return new State(readGeneration(c), tree, readHierarchy(c, tree), readPending(c), readLastSeq(c));
    });
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
    return read("load", c -> {
      long generation = readGeneration(c);
      if (generation == knownGeneration) {
        return new State(generation, null, null, readPending(c), readLastSeq(c));
      }
      Tree tree = readTree(c);
      HierarchyState h = withHierarchy.test(tree) ? readHierarchy(c, tree) : HierarchyState.empty();
      return new State(generation, tree, h, readPending(c), readLastSeq(c));
    });
  }

  @Override
  public long generation() {
    return read("read the generation of", SqliteTreeStore::readGeneration);
  }

  /**
   * SQLite's {@code PRAGMA data_version} on this store's reader connection: it changes whenever another
   * connection (of this process or another) has committed since the last call. A cheap way to notice that
   * something may have changed before asking for the {@link #generation()}.
   */
  public long dataVersion() {
    return read("read the data version of", c -> (long) StoreOpening.pragmaInt(c, "data_version"));
  }

  /**
   * {@link #dataVersion()} without waiting: {@link Long#MIN_VALUE} when the reader connection is busy with
   * a load (the caller then asks again later). For callers that must never block, such as retrieve.
   */
  public long pollDataVersion() {
    if (!readLock.tryLock()) {
      return Long.MIN_VALUE;
    }
    try {
      ensureOpen();
      try (Statement st = reader.createStatement(); ResultSet rs = st.executeQuery("PRAGMA data_version")) {
        return rs.next() ? rs.getLong(1) : Long.MIN_VALUE;
      } catch (SQLException e) {
        throw failure(path, "read the data version of", e);
      }
    } finally {
      readLock.unlock();
    }
  }

  @Override
  public List<Mutation> pendingMutations() {
    return read("read the pending mutations of", this::readPending);
  }

  private Tree readTree(Connection c) throws SQLException {
    return version == 1 ? NodeTable.read(c, dimension, path) : NodeRows.read(c, dimension, path);
  }

  private HierarchyState readHierarchy(Connection c, Tree tree) throws SQLException {
    return version == 1 ? LevelTable.read(c, dimension, path) : OracleRowReader.read(c, tree, path);
  }

  private static long readGeneration(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE name = 'state'")) {
      if (!rs.next()) {
        return 0; // a version-1 file open read-only
      }
    }
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT generation FROM state")) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  private static long readLastSeq(Connection c) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'pending_mutations'), 0)")) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  private List<Mutation> readPending(Connection c) throws SQLException {
    List<Mutation> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT seq, kind, leaf_id, text, time FROM pending_mutations ORDER BY seq")) {
      while (rs.next()) {
        out.add(new Mutation(rs.getLong(1), kind(rs.getString(2), rs.getLong(1)), rs.getString(3),
            rs.getString(4), rs.getString(5)));
      }
    }
    return List.copyOf(out);
  }

  private Mutation.Kind kind(String kind, long seq) {
    if ("insert".equals(kind)) {
      return Mutation.Kind.INSERT;
    }
    if ("delete".equals(kind)) {
      return Mutation.Kind.DELETE;
    }
    throw new StoreFormatException(path + " is corrupt: pending mutation " + seq + " has kind '" + kind + "'");
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
    checkSave(tree, hierarchy);
    if (appliedThroughSeq < 0) {
      throw new IllegalArgumentException("appliedThroughSeq must not be negative: " + appliedThroughSeq);
    }
    write("save the tree to", c -> {
      try (Statement st = c.createStatement()) {
        st.executeUpdate("DELETE FROM nodes");
        st.executeUpdate("DELETE FROM levels");
        st.executeUpdate("DELETE FROM members");
      }
      long bytes = NodeRows.writeAll(c, tree);
      Runnable hook = afterNodesWrittenHook;
      if (hook != null) {
        hook.run();
      }
      bytes += OracleRows.writeAll(c, tree, hierarchy);
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM pending_mutations WHERE seq <= ?")) {
        ps.setLong(1, appliedThroughSeq);
        ps.executeUpdate();
      }
      bumpGeneration(c);
      lastSaveBytes = bytes;
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
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(beforeHierarchy, "beforeHierarchy");
    Objects.requireNonNull(appliedSeqs, "appliedSeqs");
    checkSave(after, afterHierarchy);
    if (before.dimension() != dimension && !before.isEmpty()) {
      throw new IllegalArgumentException("the previous tree has dimension " + before.dimension());
    }
    return write("save the changes to", c -> {
      long generation = readGeneration(c);
      if (generation != expectedGeneration) {
        throw new StaleStateException(path + " is at generation " + generation + ", not at "
            + expectedGeneration + ": another writer saved in between");
      }
      long bytes = NodeRows.applyDiff(c, before, after);
      Runnable hook = afterNodesWrittenHook;
      if (hook != null) {
        hook.run();
      }
      boolean oracleUsable = beforeHierarchy.levels().stream().allMatch(l -> l.centroids() != null);
      if (oracleUsable) {
        bytes += OracleRows.applyDiff(c, beforeHierarchy, after, afterHierarchy);
      } else {
        try (Statement st = c.createStatement()) {
          st.executeUpdate("DELETE FROM levels");
          st.executeUpdate("DELETE FROM members");
        }
        bytes += OracleRows.writeAll(c, after, afterHierarchy);
      }
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM pending_mutations WHERE seq = ?")) {
        for (long seq : appliedSeqs) {
          ps.setLong(1, seq);
          ps.addBatch();
        }
        ps.executeBatch();
      }
      lastSaveBytes = bytes;
      return bumpGeneration(c);
    });
  }

  /** Bytes of text and blobs the last save wrote (a logical measure; SQLite writes whole pages). */
  public long lastSaveBytes() {
    return lastSaveBytes;
  }

  private volatile long lastSaveBytes;

  private static long bumpGeneration(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.executeUpdate("UPDATE state SET generation = generation + 1");
      try (ResultSet rs = st.executeQuery("SELECT generation FROM state")) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  private void checkSave(Tree tree, HierarchyState hierarchy) {
    Objects.requireNonNull(tree, "tree");
    Objects.requireNonNull(hierarchy, "hierarchy");
    Objects.requireNonNull(hierarchy.levels(), "hierarchy levels");
    if (tree.dimension() != dimension) {
      throw new IllegalArgumentException(
          "the tree has dimension " + tree.dimension() + ", but " + path + " holds dimension " + dimension);
    }
    for (int i = 0; i < hierarchy.levels().size(); i++) {
      String problem = OracleRows.problem(hierarchy.levels().get(i), i, tree, dimension);
      if (problem != null) {
        throw new IllegalArgumentException("hierarchy level " + i + " " + problem);
      }
    }
  }

  /**
   * Takes the cross-process writer lock of this knowledge base, blocking until it is free: whoever holds
   * it is the only writer of the tree (builds and maintenance runs). See {@code docs/store-format.md}.
   *
   * @throws IllegalStateException for a read-only store
   */
  public WriterLease lockWriter() {
    ensureOpen();
    if (writer == null) {
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
    return write("append a mutation to", c -> {
      try (PreparedStatement ps = c.prepareStatement(
          "INSERT INTO pending_mutations (kind, leaf_id, text, time, created_at) VALUES (?, ?, ?, ?, ?)")) {
        ps.setString(1, mutation.kind().name().toLowerCase(Locale.ROOT));
        ps.setString(2, mutation.leafId());
        ps.setString(3, mutation.text());
        ps.setString(4, mutation.time());
        ps.setString(5, Instant.now().toString());
        ps.executeUpdate();
      }
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT last_insert_rowid()")) {
        rs.next();
        return rs.getLong(1);
      }
    });
  }

  /**
   * Closes the store; idempotent. A read-write store checkpoints its write-ahead log and returns the file
   * to rollback-journal mode, unless another connection still has the file open.
   */
  @Override
  public void close() {
    writeLock.lock();
    readLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      SQLException failure = closeQuietly(reader);
      if (writer != null) {
        leaveWalMode();
        SQLException e = closeQuietly(writer);
        failure = failure == null ? e : failure;
      }
      if (failure != null) {
        throw new StoreException("cannot close " + path + ": " + failure.getMessage(), failure);
      }
    } finally {
      readLock.unlock();
      writeLock.unlock();
    }
  }

  @Override
  public String toString() {
    return "SqliteTreeStore[" + path + ", " + modelId + ", dim " + dimension
        + (writer == null ? ", read-only" : "") + (closed ? ", closed" : "") + "]";
  }

  // ---------------------------------------------------------------------------------------------------
  // Reading and writing

  /** A unit of work on a connection. */
  @FunctionalInterface
  private interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /** Runs {@code work} in a read transaction on the reader connection. */
  private <T> T read(String what, Work<T> work) {
    readLock.lock();
    try {
      ensureOpen();
      return transaction(reader, "BEGIN", what, work);
    } finally {
      readLock.unlock();
    }
  }

  /** Runs {@code work} in a write transaction on the writer connection. */
  private <T> T write(String what, Work<T> work) {
    writeLock.lock();
    try {
      ensureOpen();
      if (writer == null) {
        throw new IllegalStateException(path + " is open read-only");
      }
      return transaction(writer, "BEGIN IMMEDIATE", what, work);
    } finally {
      writeLock.unlock();
    }
  }

  private <T> T transaction(Connection c, String begin, String what, Work<T> work) {
    try {
      exec(c, begin);
    } catch (SQLException e) {
      throw failure(path, what, e);
    }
    try {
      T result = work.run(c);
      exec(c, "COMMIT");
      return result;
    } catch (StoreException | StaleStateException e) {
      rollbackQuietly(c, e);
      throw e;
    } catch (SQLException | RuntimeException e) {
      rollbackQuietly(c, e);
      throw failure(path, what, e);
    } catch (Error e) {
      rollbackQuietly(c, e);
      throw e;
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("store is closed");
    }
  }

  /**
   * Returns the file to rollback-journal mode; skipped when another connection has it open. The
   * checkpoint first makes the writer open the WAL itself: without it, a writer that never touched the
   * WAL switches the mode but leaves the -wal and -shm files the reader created behind.
   */
  private void leaveWalMode() {
    try (Statement st = writer.createStatement()) {
      st.execute("PRAGMA busy_timeout = 0");
      st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
      st.execute("PRAGMA journal_mode = DELETE");
    } catch (SQLException e) {
      // Another connection (possibly in another process) still uses the WAL; the file stays in WAL
      // mode, which is equally valid, and the last connection to close checkpoints it.
    }
  }

  static void exec(Connection c, String sql) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(sql);
    }
  }

  private static void rollbackQuietly(Connection c, Throwable primary) {
    try {
      exec(c, "ROLLBACK");
    } catch (SQLException e) {
      // The transaction may already be rolled back by SQLite (e.g. after an I/O error).
      if (!String.valueOf(e.getMessage()).contains("no transaction is active")) {
        primary.addSuppressed(e);
      }
    }
  }

  static SQLException closeQuietly(Connection c) {
    if (c == null) {
      return null;
    }
    try {
      c.close();
      return null;
    } catch (SQLException e) {
      return e;
    }
  }

  /** Maps a failure to a {@link StoreFormatException} when SQLite found corruption, else a {@link StoreException}. */
  static StoreException failure(Path path, String what, Exception e) {
    if (e instanceof SQLException sql) {
      int primary = sql.getErrorCode() & 0xff;
      if (primary == 11 /* SQLITE_CORRUPT */) {
        return new StoreFormatException(path + " is corrupt: " + sql.getMessage(), sql);
      }
      if (primary == 26 /* SQLITE_NOTADB */) {
        return new StoreFormatException(path + " is not a SQLite database: " + sql.getMessage(), sql);
      }
    }
    return new StoreException("cannot " + what + " " + path + ": " + e.getMessage(), e);
  }
}

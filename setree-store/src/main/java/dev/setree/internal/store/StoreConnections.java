package dev.setree.internal.store;

import dev.setree.internal.core.TreeStore.StaleStateException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs the transactions of one open {@link SqliteTreeStore} on its two connections: writes on the
 * read-write connection, reads on a read-only one, each serialised by its own lock, so that loads proceed
 * while a save is in progress and see the state before or after it.
 *
 * <p>Also closes them (returning the file to rollback-journal mode when no other connection has it open),
 * and holds the SQL helpers the package shares: running a statement, closing quietly, and mapping a
 * failure to the exception that names the file.
 */
final class StoreConnections {
  private final Path path;
  /** The read-write connection, or null for a read-only store. Guarded by {@link #writeLock}. */
  private final Connection writer;
  /** A read-only connection. Guarded by {@link #readLock}. */
  private final Connection reader;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final ReentrantLock readLock = new ReentrantLock();
  private volatile boolean closed;

  StoreConnections(Path path, Connection writer, Connection reader) {
    this.path = path;
    this.writer = writer;
    this.reader = reader;
  }

  /** A unit of work on a connection. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection c) throws SQLException;
  }

  /** Whether the store was opened read-only (it has no read-write connection). */
  boolean readOnly() {
    return writer == null;
  }

  boolean closed() {
    return closed;
  }

  void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("store is closed");
    }
  }

  /** Runs {@code work} in a read transaction on the reader connection. */
  <T> T read(String what, Work<T> work) {
    readLock.lock();
    try {
      ensureOpen();
      return transaction(reader, "BEGIN", what, work);
    } finally {
      readLock.unlock();
    }
  }

  /** Runs {@code work} in a write transaction on the writer connection. */
  <T> T write(String what, Work<T> work) {
    return onWriter(what, c -> transaction(c, "BEGIN IMMEDIATE", what, work));
  }

  /**
   * A passive checkpoint of the write-ahead log on the writer connection, outside any transaction: copies the
   * committed frames into the database file without waiting for readers or writers (SQLite's
   * {@code PRAGMA wal_checkpoint(PASSIVE)}).
   */
  void checkpoint() {
    onWriter("checkpoint the write-ahead log of", c -> {
      exec(c, "PRAGMA wal_checkpoint(PASSIVE)");
      return null;
    });
  }

  /** Runs {@code work} on the writer connection, holding its lock; a failure names the file and {@code what}. */
  private <T> T onWriter(String what, Work<T> work) {
    writeLock.lock();
    try {
      ensureOpen();
      if (writer == null) {
        throw new IllegalStateException(path + " is open read-only");
      }
      return work.run(writer);
    } catch (SQLException e) {
      throw failure(path, what, e);
    } finally {
      writeLock.unlock();
    }
  }

  /**
   * {@code PRAGMA data_version} on the reader connection without waiting: {@link Long#MIN_VALUE} when the
   * reader is busy with a load.
   */
  long pollDataVersion() {
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

  /**
   * Closes both connections; idempotent. The read-write one first returns the file to rollback-journal
   * mode, unless another connection still has the file open.
   */
  void close() {
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

package dev.setree.internal.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The cross-process writer lock of one knowledge base: whoever holds it is the only one that changes the
 * tree (a build or a maintenance run). It is an advisory lock ({@link FileChannel#lock()}, POSIX
 * {@code fcntl} on Linux) on a side file {@code <database>-writer}, which the operating system releases
 * when the holder's process dies, however it dies; a JVM-wide lock per file serialises the holders within
 * one process, since file locks are held per process. See ADR 0012.
 *
 * <p>The side file is created on first use and never deleted (deleting a lock file races with a process
 * about to lock it); it is empty.
 */
final class WriterLock {
  private static final ConcurrentHashMap<Path, ReentrantLock> IN_PROCESS = new ConcurrentHashMap<>();

  private WriterLock() {}

  /** The lock file of a database file. */
  static Path lockFile(Path database) {
    return database.resolveSibling(database.getFileName() + "-writer");
  }

  /** Blocks until this thread holds the writer lock of {@code database}. */
  static Held acquire(Path database) {
    ReentrantLock local = IN_PROCESS.computeIfAbsent(database, k -> new ReentrantLock());
    local.lock();
    if (local.getHoldCount() > 1) {
      return new Held(local, null, null); // this thread holds it already
    }
    FileChannel channel = null;
    try {
      Path file = lockFile(database);
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.lock();
      return new Held(local, channel, lock);
    } catch (IOException | RuntimeException e) {
      closeQuietly(channel);
      local.unlock();
      throw new StoreException("cannot take the writer lock of " + database + " (" + lockFile(database) + "): "
          + e, e);
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // nothing held yet
      }
    }
  }

  /** A held writer lock; {@link #close} releases it. Not reentrant across threads. */
  static final class Held implements SqliteTreeStore.WriterLease {
    private final ReentrantLock local;
    private final FileChannel channel;
    private final FileLock lock;
    private boolean released;

    private Held(ReentrantLock local, FileChannel channel, FileLock lock) {
      this.local = local;
      this.channel = channel;
      this.lock = lock;
    }

    @Override
    public void close() {
      if (released) {
        return;
      }
      released = true;
      if (lock == null) {
        local.unlock();
        return;
      }
      try {
        lock.release();
      } catch (IOException ignored) {
        // closing the channel releases it as well
      } finally {
        closeQuietly(channel);
        local.unlock();
      }
    }
  }
}

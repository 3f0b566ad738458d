package dev.setree.mcp;

import static dev.setree.mcp.ToolResults.error;
import static dev.setree.mcp.ToolResults.log;
import static dev.setree.mcp.ToolResults.message;

import dev.setree.SETree;
import dev.setree.SETreeConfig;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * The knowledge base the tools serve and the lock that guards it: the open {@link SETree} (or why its file
 * would not open), its path, and a generation that a reset or switch bumps. Ordinary tools run under the
 * read lock ({@link #withKb}); the admin tools replace the knowledge base under the write lock
 * ({@link #withAdminLock}), so no call ever sees it closed under it.
 */
final class ServedKnowledgeBase {
  private static final long ADMIN_LOCK_WAIT_SECONDS = 30;

  final SETreeConfig config;
  /** False when a host application owns {@link #kb}: no admin tools, and {@link #close} leaves it open. */
  final boolean ownsKb;
  final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  /** The open knowledge base, or null when {@link #openError} says why not. Guarded by {@link #lock}. */
  SETree kb;
  /** The file being served (open or not). Guarded by {@link #lock}. */
  Path dbPath;
  /** Why {@link #dbPath} could not be opened, or null. Guarded by {@link #lock}. */
  String openError;
  /** Bumped by reset and switch; a queued build from an older generation is cancelled. */
  volatile long generation;

  /** Serves a host application's open knowledge base, which stays the host's. */
  ServedKnowledgeBase(SETree kb) {
    this.kb = Objects.requireNonNull(kb, "kb");
    this.config = kb.config();
    this.dbPath = kb.path().toAbsolutePath().normalize();
    this.ownsKb = false;
  }

  /** Opens (or creates) the knowledge base at {@code db}; a file that will not open is served as not open. */
  ServedKnowledgeBase(Path db, SETreeConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.dbPath = db.toAbsolutePath().normalize();
    this.ownsKb = true;
    try {
      this.kb = SETree.open(dbPath, config);
      log("serving " + dbPath + " (" + kb.stats().leaves() + " leaves, " + kb.pendingMutations()
          + " pending mutation(s))");
    } catch (RuntimeException e) {
      this.openError = message(e);
      log("cannot open " + dbPath + ": " + openError + "; serving without a knowledge base until setr_switch");
    }
  }

  /**
   * What is wrong with the configured Target LLM, as a sentence ending in a full stop, or null when none is
   * configured or it answers ({@link SETree#checkLlmReachable}).
   */
  String llmProblem() {
    try {
      SETree.checkLlmReachable(config);
      return null;
    } catch (RuntimeException e) {
      return message(e).replaceAll("[.?!]?$", ".");
    }
  }

  /** One tool's work on the open knowledge base. */
  interface KbAction {
    CallToolResult apply(SETree kb);
  }

  /** Runs {@code action} on the open knowledge base under the read lock, or says that none is open. */
  CallToolResult withKb(KbAction action) {
    lock.readLock().lock();
    try {
      if (kb == null) {
        return error(notOpenMessage());
      }
      return action.apply(kb);
    } finally {
      lock.readLock().unlock();
    }
  }

  String notOpenMessage() {
    return "no knowledge base is open: " + dbPath + " could not be opened (" + openError + "). Call"
        + " setr_switch with the path of a SETree database (a new path creates an empty one), or restart"
        + " setree mcp with another --db.";
  }

  /** An admin tool's work, run under the write lock. */
  interface AdminAction {
    CallToolResult run();
  }

  /**
   * Runs {@code action} under the write lock; refused while {@code build} (the last build, or null) is
   * running, and when the lock is not free within 30 seconds.
   */
  CallToolResult withAdminLock(String tool, BuildJob build, AdminAction action) {
    if (build != null && build.state() == BuildState.RUNNING) {
      return error(tool + " is refused while a build is running (" + build.assertions + " assertions on "
          + build.db.getFileName() + "); call stats until build.state is 'done' or 'failed', then call " + tool
          + " again.");
    }
    boolean locked;
    try {
      locked = lock.writeLock().tryLock(ADMIN_LOCK_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return error(tool + " was interrupted; call it again");
    }
    if (!locked) {
      return error(tool + " timed out waiting for other calls (a build?) to finish; call stats, then " + tool
          + " again.");
    }
    try {
      return action.run();
    } finally {
      lock.writeLock().unlock();
    }
  }

  /**
   * Closes the knowledge base if this server owns it, once no call holds the lock (waiting up to 10 seconds;
   * after that it is left to the process's exit).
   */
  void close() {
    boolean locked = false;
    try {
      locked = lock.writeLock().tryLock(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!locked) {
      log("a build is still running; exiting without waiting for it (" + dbPath + " keeps its previous tree)");
      return;
    }
    try {
      if (kb != null && ownsKb) {
        kb.close();
      }
      kb = null;
    } finally {
      lock.writeLock().unlock();
    }
  }
}

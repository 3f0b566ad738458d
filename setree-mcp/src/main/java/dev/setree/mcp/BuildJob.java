package dev.setree.mcp;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** One background build: where, how many facts, and how it went ({@link BuildState}). Thread-safe. */
final class BuildJob {
  final Path db;
  final int assertions;
  /** The served file's generation when the build was queued; a reset or switch makes it stale. */
  final long generation;
  private long startedAt;
  private long finishedAt;
  private BuildState state = BuildState.QUEUED;
  private String message;

  BuildJob(Path db, int assertions, long generation) {
    this.db = db;
    this.assertions = assertions;
    this.generation = generation;
  }

  synchronized BuildState state() {
    return state;
  }

  /** What the build ended with (its outcome or error), or null while it has not ended. */
  synchronized String message() {
    return message;
  }

  synchronized void start() {
    startedAt = System.currentTimeMillis();
    state = BuildState.RUNNING;
    notifyAll();
  }

  synchronized void finish(BuildState finalState, String msg) {
    finishedAt = System.currentTimeMillis();
    message = msg;
    state = finalState;
    notifyAll();
  }

  /** Waits up to {@code millis} for the build to leave the queue; returns the state then. */
  synchronized BuildState awaitStart(long millis) {
    return awaitLeaving(millis, BuildState.QUEUED);
  }

  /** Waits up to {@code millis} for the build to end (done, failed or cancelled); returns the state then. */
  synchronized BuildState awaitEnd(long millis) {
    return awaitLeaving(millis, BuildState.QUEUED, BuildState.RUNNING);
  }

  private BuildState awaitLeaving(long millis, BuildState... waiting) {
    long end = System.currentTimeMillis() + millis;
    while (java.util.List.of(waiting).contains(state)) {
      long left = end - System.currentTimeMillis();
      if (left <= 0) {
        break;
      }
      try {
        wait(left);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return state;
  }

  /** The build as {@code stats} reports it: state, db, assertions, message, elapsed_ms. */
  synchronized Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("state", state.wireName());
    m.put("db", db.toString());
    m.put("assertions", assertions);
    m.put("message", message);
    long end = finishedAt != 0 ? finishedAt : System.currentTimeMillis();
    m.put("elapsed_ms", startedAt == 0 ? 0 : end - startedAt);
    return m;
  }
}

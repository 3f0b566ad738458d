package dev.setree;

import dev.setree.internal.core.HierarchyState;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The oracle of one {@link Snapshot} as this process holds it (ADR 0028): what retrieves search, level 0's kNN
 * rows ({@link #leafKnn()}, read with the tree), and the whole oracle ({@link #whole()}), which only a
 * maintenance run reads. A snapshot that a build or a maintenance run made, or that a writer reloaded, has the
 * whole oracle from the start; the snapshot of an open has the kNN rows alone and reads the rest when first
 * asked, from the store, at the snapshot's generation: the read fails with
 * {@link dev.setree.internal.core.TreeStore.StaleStateException} when the file has moved on, so an oracle is
 * never paired with a tree it was not saved with. {@link #prefetch} reads it ahead of need, on another thread.
 *
 * <p>Thread-safe: the whole oracle is read at most once at a time; a failed read is tried again on the next ask.
 */
final class DeferredOracle {
  private final HierarchyState leafKnn;
  /** Reads the whole oracle of the snapshot's tree at its generation; null when {@link #whole} is set. */
  private final Supplier<HierarchyState> load;
  private volatile HierarchyState whole;
  /** Set while a {@link #prefetch} is queued or running, so that one at a time is. */
  private volatile boolean prefetching;

  private DeferredOracle(HierarchyState leafKnn, HierarchyState whole, Supplier<HierarchyState> load) {
    this.leafKnn = leafKnn;
    this.whole = whole;
    this.load = load;
  }

  /** The whole oracle, already read. */
  static DeferredOracle of(HierarchyState whole) {
    Objects.requireNonNull(whole, "whole");
    return new DeferredOracle(whole, whole, null);
  }

  /**
   * Level 0's kNN rows now ({@link dev.setree.internal.store.SqliteTreeStore#loadLeafKnnIfChanged}; the empty
   * state when the retrieves will not search them), the whole oracle from {@code load} when first asked.
   */
  static DeferredOracle deferred(HierarchyState leafKnn, Supplier<HierarchyState> load) {
    return new DeferredOracle(Objects.requireNonNull(leafKnn, "leafKnn"), null, Objects.requireNonNull(load, "load"));
  }

  /**
   * What the candidate path's graph is made from: the whole oracle when it is read (its level 0 has the same
   * kNN rows), else level 0's kNN rows as read on open (possibly the empty state).
   */
  HierarchyState leafKnn() {
    HierarchyState w = whole;
    return w != null ? w : leafKnn;
  }

  /** Whether the whole oracle has been read. */
  boolean isRead() {
    return whole != null;
  }

  /**
   * The whole oracle, read now if it was not yet (blocking while another thread reads it).
   *
   * @throws dev.setree.internal.core.TreeStore.StaleStateException when the file is no longer at the
   *     snapshot's generation
   */
  HierarchyState whole() {
    HierarchyState w = whole;
    if (w != null) {
      return w;
    }
    synchronized (this) {
      w = whole;
      if (w == null) {
        w = Objects.requireNonNull(load.get(), "the oracle read");
        whole = w;
      }
      return w;
    }
  }

  /**
   * Reads the whole oracle on {@code executor} unless it is read or being read: a mutation was accepted, so a
   * maintenance run will need it after the quiet window. A failure is left to that run's own read to report.
   */
  void prefetch(java.util.concurrent.Executor executor) {
    if (whole != null || prefetching) {
      return;
    }
    prefetching = true;
    try {
      executor.execute(() -> {
        try {
          whole();
        } catch (RuntimeException e) {
          // A newer generation (the snapshot is about to be replaced) or a failed read: the run reads again.
        } finally {
          prefetching = false;
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      prefetching = false; // closing
    }
  }
}

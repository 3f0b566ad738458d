package dev.setree;

import dev.setree.internal.core.ContextFormat;
import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore;
import dev.setree.internal.store.LexicalCache;
import dev.setree.internal.store.SqliteTreeStore;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps one process's snapshot of a knowledge base in step with what is committed to its file: holds the
 * {@link Snapshot} retrieves read (a volatile reference, only ever replaced by a newer generation), loads a
 * state another process committed (noticed by {@code PRAGMA data_version} on retrieve, then loaded in the
 * background), and tells the {@link MaintenanceScheduler} which mutations are pending and which applied.
 */
final class StateFollower {
  private static final long REFRESH_CHECK_MILLIS = 50;

  private final Path path;
  private final SETreeConfig config;
  private final SqliteTreeStore store;
  private final ContextFormat format;
  private final boolean readOnly;
  /** Serialises loads of a state another process committed. */
  private final Object reloadLock = new Object();
  /** Guards {@link #snapshot} replacement: a snapshot is only ever replaced by a newer generation. */
  private final Object swapLock = new Object();
  private final ExecutorService refresher;
  private final AtomicBoolean refreshQueued = new AtomicBoolean();
  private MaintenanceScheduler scheduler;
  private volatile Snapshot snapshot;
  private volatile long latestAccepted;
  private volatile long lastRefreshCheck;
  private volatile long lastDataVersion = Long.MIN_VALUE;
  /** The state read on open, until {@link #attach} has handed its pending mutations to the scheduler. */
  private TreeStore.State opened;

  /** Loads the committed state; {@link #attach} must follow before any other call. */
  StateFollower(Path path, SETreeConfig config, SqliteTreeStore store, ContextFormat format, boolean readOnly) {
    this.path = path;
    this.config = config;
    this.store = store;
    this.format = format;
    this.readOnly = readOnly;
    // The BM25 index is opened from its cached copy (ADR 0030) or built from the leaf rows as the load reads
    // them (ADR 0025), on a second thread.
    OpeningIndex lexical = new OpeningIndex(cachedIndex(store));
    TreeStore.State state;
    try {
      state = store.loadIfChanged(-1, this::loadsOracle, lexical);
    } catch (RuntimeException | Error e) {
      lexical.abandon();
      throw e;
    }
    this.snapshot = Snapshot.opened(state.tree(), state.hierarchy(), state.generation(), lexical::index,
        lexical::done, format,
        RetrieveOptions.defaults().approximate(config, state.tree().leafCount()));
    this.lastDataVersion = store.dataVersion();
    this.opened = state;
    this.refresher = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "setree-refresh");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * The BM25 index of a tree another process committed: from the knowledge base's cached copy, matched to the
   * tree's leaves (ADR 0030), or, without a usable copy, by indexing every leaf.
   */
  private LexicalIndex lexicalIndexOf(Tree tree) {
    java.util.Map<String, byte[]> files = cachedIndex(store);
    if (files != null) {
      try {
        return CachedLexicalIndex.of(files, tree);
      } catch (java.io.IOException e) {
        // the copy rolled itself back: index the leaves
      }
    }
    return LexicalIndex.of(tree);
  }

  /** The files of the knowledge base's cached BM25 index, or null when it has none this code reads. */
  private static java.util.Map<String, byte[]> cachedIndex(SqliteTreeStore store) {
    try {
      LexicalCache cache = store.lexicalCache();
      return cache != null && cache.format().equals(CachedLexicalIndex.FORMAT) ? cache.files() : null;
    } catch (RuntimeException e) {
      return null; // a cache: the leaves are indexed instead, and the next writer replaces it
    }
  }

  /**
   * Connects the scheduler of this process's maintenance runs: the mutations pending on open are ones it
   * waits for, and (for a writer) are applied after the quiet window.
   */
  void attach(MaintenanceScheduler scheduler) {
    this.scheduler = scheduler;
    noteKnown(opened);
    scheduler.markApplied(opened.appliedThrough());
    if (!readOnly && !opened.pending().isEmpty()) {
      scheduler.mutationAccepted(); // apply what this or another process acknowledged
    }
    opened = null;
  }

  /** The snapshot retrieves read now. */
  Snapshot snapshot() {
    return snapshot;
  }

  /** The sequence number of the latest mutation this process accepted or saw pending. */
  long latestAccepted() {
    return latestAccepted;
  }

  /** Notes a mutation this process appended. */
  void accepted(long seq) {
    latestAccepted = Math.max(latestAccepted, seq);
  }

  /**
   * Loads the committed state if its generation is newer than the snapshot's, and installs it; returns
   * what was read (tree null when the snapshot was current), and marks as applied every mutation the
   * committed state no longer lists as pending.
   */
  TreeStore.State reloadIfNewer() {
    synchronized (reloadLock) {
      TreeStore.State st = store.loadIfChanged(snapshot.generation(), this::loadsOracle);
      if (st.tree() != null && st.generation() > snapshot.generation()) {
        install(Snapshot.of(st.tree(), st.hierarchy(), st.generation(), lexicalIndexOf(st.tree())));
      }
      noteKnown(st);
      if (st.generation() == snapshot.generation()) {
        scheduler.markApplied(st.appliedThrough());
      }
      return st;
    }
  }

  /**
   * Mutations pending in the store, whoever accepted them, are ones {@link SETree#awaitMaintenance} waits
   * for once this process has seen them.
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

  /**
   * Derives what {@link #install} would derive of the snapshot after {@code base} with {@code next} and
   * {@code nextHierarchy} (the walk's tables and, where retrieves use it, the nearest-leaf index), before that
   * snapshot exists: for {@link Snapshot#next(Tree, HierarchyState, long, TreeChanges, Snapshot.Derived)}.
   */
  Snapshot.Derived derive(Snapshot base, Tree next, HierarchyState nextHierarchy) {
    return derive(base.derived(), next, nextHierarchy);
  }

  /**
   * As {@link #derive(Snapshot, Tree, HierarchyState)}, after {@code previous}, a snapshot's derived state or one
   * that is no snapshot's (a warm-up run's, {@link WarmUpRuns#rehearse}).
   */
  Snapshot.Derived derive(Snapshot.Derived previous, Tree next, HierarchyState nextHierarchy) {
    return previous.following(next, nextHierarchy)
        .prepare(format, RetrieveOptions.defaults().approximate(config, next.leafCount()));
  }

  /** Replaces the snapshot unless it is already at this generation or a newer one. */
  void install(Snapshot next) {
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
  void maybeRefresh() {
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

  /** Stops taking refreshes. */
  void shutdown() {
    refresher.shutdown();
  }

  /** Waits for a refresh under way to end. */
  void awaitTermination() {
    try {
      refresher.awaitTermination(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

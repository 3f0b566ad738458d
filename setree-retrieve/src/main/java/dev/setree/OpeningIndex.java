package dev.setree;

import dev.setree.internal.core.Tree;
import dev.setree.internal.store.SqliteTreeStore;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The BM25 index of the knowledge base being opened, built on a second thread while the load reads the rest
 * (the tree's other rows, the oracle) and the snapshot derives its maps: told the leaf rows as the load's
 * table scan meets them ({@link SqliteTreeStore.TreeRows}), it hands them in batches to a thread of its
 * own that indexes them, and once told the tree, checks that the leaves it indexed are the tree's leaves in
 * order and finishes the index (flush, forward index). The result is the index {@link LexicalIndex#of}
 * builds from the tree: the same documents in the same order. Should the rows it was told not be the
 * tree's leaves, it indexes the tree's leaves afresh instead.
 *
 * <p>Given the knowledge base's cached copy of the index (ADR 0030), the thread loads that instead, matches
 * the rows to it as they come, indexing only those it lacks, and once told the tree, finishes it
 * ({@link CachedLexicalIndex}); a copy it cannot use makes it index the tree's leaves.
 *
 * <p>Used by the thread that loads; {@link #index()} or {@link #abandon()} must follow, once.
 */
final class OpeningIndex implements SqliteTreeStore.TreeRows {
  private static final int BATCH = 512;
  /** Ends the stream without a tree: the load failed. */
  private static final Object ABANDON = new Object();

  private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  private final CompletableFuture<LexicalIndex> result = new CompletableFuture<>();
  private String[] batch = new String[2 * BATCH];
  private int n;
  private boolean ended;
  /** The cached copy's files, or null: index the rows. Read by the indexing thread. */
  private final java.util.Map<String, byte[]> cached;

  /** Indexes the rows the load tells. */
  OpeningIndex() {
    this(null);
  }

  /** Opens the cached copy {@code cached} (file name to contents) when not null, else indexes the rows. */
  OpeningIndex(java.util.Map<String, byte[]> cached) {
    this.cached = cached;
    Thread t = new Thread(cached == null ? this::indexRows : this::openCopy, "setree-open-index");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void leaf(String id, String text) {
    if (ended) {
      return;
    }
    batch[n++] = id;
    batch[n++] = text;
    if (n == batch.length) {
      queue.add(batch);
      batch = new String[2 * BATCH];
      n = 0;
    }
  }

  @Override
  public void tree(Tree tree) {
    if (ended) {
      return;
    }
    if (n > 0) {
      queue.add(java.util.Arrays.copyOf(batch, n));
    }
    batch = null;
    ended = true;
    queue.add(tree);
  }

  /** The index of the tree the load was told; waits for it. */
  LexicalIndex index() {
    if (!ended) {
      abandon();
      throw new IllegalStateException("the load told no tree");
    }
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while indexing the leaves for BM25", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new CompletionException(cause);
    }
  }

  /** Whether the index is built (or failed): {@link #index()} would not wait. */
  boolean done() {
    return result.isDone();
  }

  /** Stops the indexing thread and drops its work (the load failed). */
  void abandon() {
    if (!ended) {
      ended = true;
      batch = null;
      queue.add(ABANDON);
    }
  }

  /** The indexing thread: the leaves of each batch, in order, then the tree. */
  private void indexRows() {
    LexicalIndexBuilder builder = null;
    java.util.List<String> ids = new java.util.ArrayList<>();
    java.util.List<String> texts = new java.util.ArrayList<>();
    try {
      builder = new LexicalIndexBuilder();
      while (true) {
        Object item = queue.take();
        if (item == ABANDON) {
          builder.abandon();
          result.cancel(false);
          return;
        }
        if (item instanceof Tree tree) {
          if (told(tree, ids, texts)) {
            result.complete(builder.finish(tree));
          } else {
            builder.abandon();
            result.complete(LexicalIndex.of(tree));
          }
          return;
        }
        String[] rows = (String[]) item;
        for (int i = 0; i + 1 < rows.length; i += 2) {
          ids.add(rows[i]);
          texts.add(rows[i + 1]);
          builder.add(rows[i], rows[i + 1]);
        }
      }
    } catch (InterruptedException | RuntimeException | Error e) {
      if (builder != null) {
        builder.abandon();
      }
      result.completeExceptionally(e);
    }
  }

  /**
   * The indexing thread with a cached copy: loads it, matches each batch of rows to it (indexing the rows it
   * lacks), then finishes it once told the tree. A copy it cannot use makes it index the tree's leaves.
   */
  private void openCopy() {
    CachedLexicalIndex copy = null;
    try {
      try {
        copy = CachedLexicalIndex.load(cached);
      } catch (java.io.IOException e) {
        copy = null;
      }
      while (true) {
        Object item = queue.take();
        if (item == ABANDON) {
          if (copy != null) {
            copy.abandon();
          }
          result.cancel(false);
          return;
        }
        if (item instanceof Tree tree) {
          LexicalIndex index = null;
          if (copy != null) {
            try {
              index = copy.finish(tree);
            } catch (java.io.IOException e) {
              index = null; // finish rolled the copy back
            }
          }
          result.complete(index != null ? index : LexicalIndex.of(tree));
          return;
        }
        String[] rows = (String[]) item;
        for (int i = 0; i + 1 < rows.length && copy != null; i += 2) {
          try {
            copy.leaf(rows[i], rows[i + 1]);
          } catch (java.io.IOException e) {
            copy = null; // leaf rolled the copy back
          }
        }
      }
    } catch (InterruptedException | RuntimeException | Error e) {
      if (copy != null) {
        copy.abandon();
      }
      result.completeExceptionally(e);
    }
  }

  /** Whether the leaves told are the tree's leaves, in its order. */
  static boolean told(Tree tree, java.util.List<String> ids, java.util.List<String> texts) {
    if (ids.size() != tree.leafCount()) {
      return false;
    }
    for (int v = 0; v < ids.size(); v++) {
      if (!ids.get(v).equals(tree.id(v)) || !texts.get(v).equals(tree.text(v))) {
        return false;
      }
    }
    return true;
  }
}

package dev.setree;

import dev.setree.spi.Embedder;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Embeds prompts within a deadline: the embedder runs on a thread of its own (daemon threads, reused), so
 * that a slow or hung embedder (a remote model, an overloaded machine) cannot hold a retrieve past
 * {@code retrieve_deadline_ms}. A late call is interrupted and its result dropped.
 */
final class DeadlineEmbedder implements AutoCloseable {
  private final Embedder embedder;
  private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "setree-embed");
    t.setDaemon(true);
    return t;
  });

  DeadlineEmbedder(Embedder embedder) {
    this.embedder = embedder;
  }

  /** The prompt's embedding, or null when it did not come back before {@code deadlineNanos}. */
  float[] embed(String prompt, long deadlineNanos) {
    return finish(start(prompt), deadlineNanos);
  }

  /** Starts embedding the prompt on the embedder's thread; the caller may work meanwhile. */
  Future<float[]> start(String prompt) {
    return start(prompt, q -> q);
  }

  /**
   * Starts embedding the prompt on the embedder's thread and then applying {@code then} to the embedding
   * there (work that needs the embedding but not the caller's, such as the nearest-leaf search); the caller
   * may work meanwhile.
   */
  <T> Future<T> start(String prompt, Function<float[], T> then) {
    return pool.submit(() -> then.apply(embedder.embed(prompt)));
  }

  /** The result {@link #start} began, or null when it did not come back before {@code deadlineNanos}. */
  <T> T finish(Future<T> f, long deadlineNanos) {
    try {
      return f.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      f.cancel(true);
      return null;
    } catch (InterruptedException e) {
      f.cancel(true);
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while embedding the prompt", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException re) {
        throw re;
      }
      if (c instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException("the embedder failed: " + c, c);
    }
  }

  /** Stops the threads, interrupting a call still running. */
  @Override
  public void close() {
    pool.shutdownNow();
  }
}

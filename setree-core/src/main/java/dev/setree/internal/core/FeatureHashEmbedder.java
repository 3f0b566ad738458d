package dev.setree.internal.core;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import dev.setree.spi.Embedder;

/**
 * A fast deterministic {@link Embedder} by feature hashing (Weinberger, Dasgupta, Langford, Smola and
 * Attenberg, "Feature Hashing for Large Scale Multitask Learning", ICML 2009): no model, no native code, the
 * same vector for the same text on every machine. For tests and for scale benchmarks
 * ({@code setree bench ladder --embedder hash}), where the cost of a neural model would hide everything
 * else; its neighbours are lexical, not semantic.
 *
 * <p>Each lower-cased word and each character trigram of a word is hashed (FNV-1a) to a signed component;
 * the sum is normalised. Texts that share words or word pieces therefore get similar vectors, so
 * clustering and retrieval behave sensibly on small test corpora.
 */
public final class FeatureHashEmbedder implements Embedder {
  private final int dimension;

  /** A 64-dimensional hash embedder. */
  public FeatureHashEmbedder() {
    this(64);
  }

  /** A hash embedder of the given dimension (>= 8). */
  public FeatureHashEmbedder(int dimension) {
    if (dimension < 8) {
      throw new IllegalArgumentException("dimension must be >= 8, got " + dimension);
    }
    this.dimension = dimension;
  }

  @Override
  public String modelId() {
    return "hash-" + dimension;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public float[][] embed(List<String> texts) {
    for (String t : texts) {
      if (t == null || t.isBlank()) {
        throw new IllegalArgumentException("cannot embed an empty or blank text");
      }
    }
    float[][] out = new float[texts.size()][];
    java.util.stream.IntStream.range(0, out.length).parallel().forEach(i -> out[i] = embedOne(texts.get(i)));
    return out;
  }

  private float[] embedOne(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("cannot embed an empty or blank text");
    }
    float[] v = new float[dimension];
    for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (word.isEmpty()) {
        continue;
      }
      add(v, word, 1.0f);
      String padded = "^" + word + "$";
      for (int i = 0; i + 3 <= padded.length(); i++) {
        add(v, padded.substring(i, i + 3), 0.35f);
      }
    }
    boolean zero = true;
    for (float x : v) {
      zero &= x == 0f;
    }
    if (zero) {
      add(v, text, 1.0f);
    }
    return Vectors.normalize(v);
  }

  private void add(float[] v, String token, float weight) {
    long h = 0xcbf29ce484222325L;
    for (byte b : token.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    int idx = (int) Long.remainderUnsigned(h, dimension);
    float sign = ((h >>> 40) & 1) == 0 ? 1f : -1f;
    v[idx] += sign * weight;
  }
}

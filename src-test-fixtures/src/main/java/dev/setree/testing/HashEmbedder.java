package dev.setree.testing;

import dev.setree.spi.Embedder;
import dev.setree.internal.core.FeatureHashEmbedder;
import java.util.List;

/**
 * A fast deterministic {@link Embedder} for tests: the library's {@link FeatureHashEmbedder} (word and
 * character-trigram feature hashing, model id {@code hash-<dimension>}), under the name the tests use.
 */
public final class HashEmbedder implements Embedder {
  private final FeatureHashEmbedder inner;

  /** A 64-dimensional hash embedder. */
  public HashEmbedder() {
    this(64);
  }

  /** A hash embedder of the given dimension (>= 8). */
  public HashEmbedder(int dimension) {
    this.inner = new FeatureHashEmbedder(dimension);
  }

  @Override
  public String modelId() {
    return inner.modelId();
  }

  @Override
  public int dimension() {
    return inner.dimension();
  }

  @Override
  public float[][] embed(List<String> texts) {
    return inner.embed(texts);
  }
}

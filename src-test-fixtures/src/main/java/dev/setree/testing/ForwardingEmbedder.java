package dev.setree.testing;

import dev.setree.spi.Embedder;
import java.util.List;

/**
 * An {@link Embedder} that answers like another one: the base of test embedders that change only when or how
 * a call is answered ({@link SlowEmbedder}, or a test's own gate). Subclasses override {@link #embed(List)}.
 */
public abstract class ForwardingEmbedder implements Embedder {
  /** The embedder whose answers are returned. */
  protected final Embedder delegate;

  /** @param delegate the embedder whose answers are returned */
  protected ForwardingEmbedder(Embedder delegate) {
    this.delegate = delegate;
  }

  @Override
  public String modelId() {
    return delegate.modelId();
  }

  @Override
  public int dimension() {
    return delegate.dimension();
  }

  @Override
  public float[][] embed(List<String> texts) {
    return delegate.embed(texts);
  }
}

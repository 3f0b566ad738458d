package dev.setree.testing;

import dev.setree.spi.Embedder;
import java.util.List;

/**
 * An {@link Embedder} that answers like another one, only late: every call waits a fixed time first (and
 * gives up with an exception when interrupted). For tests of deadlines, such as a retrieve whose embedder
 * is a slow remote model.
 */
public final class SlowEmbedder extends ForwardingEmbedder {
  private final long delayMillis;

  /**
   * @param delegate the embedder whose answers are returned
   * @param delayMillis how long each call waits before answering
   */
  public SlowEmbedder(Embedder delegate, long delayMillis) {
    super(delegate);
    this.delayMillis = delayMillis;
  }

  @Override
  public float[][] embed(List<String> texts) {
    try {
      Thread.sleep(delayMillis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while pretending to be slow", e);
    }
    return delegate.embed(texts);
  }
}

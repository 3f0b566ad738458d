package dev.setree.spi;

import java.util.List;

/**
 * Service interface for turning text into unit-length embedding vectors; one embedder serves a whole
 * knowledge base, and its {@link #modelId()} is recorded in the database so that a file is never read
 * with vectors from another model.
 *
 * <p>Implementations must be thread-safe: the walk, the builder and maintenance may embed at once.
 */
public interface Embedder extends AutoCloseable {

  /** The model's identifier, for example {@code all-MiniLM-L6-v2}; stored with every knowledge base. */
  String modelId();

  /** The number of components of every vector this embedder returns. */
  int dimension();

  /**
   * Embeds a batch of texts.
   *
   * @param texts non-empty, non-blank texts
   * @return one L2-normalised vector of length {@link #dimension()} per text, in input order
   * @throws IllegalArgumentException if a text is null, empty or blank
   */
  float[][] embed(List<String> texts);

  /** Embeds one text; see {@link #embed(List)}. */
  default float[] embed(String text) {
    return embed(List.of(text))[0];
  }

  /** Releases native resources; the default does nothing. */
  @Override
  default void close() {}
}

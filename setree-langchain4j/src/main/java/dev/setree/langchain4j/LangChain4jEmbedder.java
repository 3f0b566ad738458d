package dev.setree.langchain4j;

import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.model.embedding.EmbeddingModel;
import dev.setree.spi.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Adapts a LangChain4j {@link EmbeddingModel} to SETree's {@link Embedder}, so a knowledge base can be built
 * and queried with the embedding model an application already uses. Vectors are L2-normalised here (SETree
 * compares by dot product). The model id is stored with the knowledge base and checked on every open, so
 * give a stable one that changes whenever the model does.
 *
 * <p>SETree also needs a token counter with a custom embedder ({@code SETreeConfig.Builder#tokenCounter});
 * {@code SETree.defaultTokenCounter()} is the default one.
 */
public final class LangChain4jEmbedder implements Embedder {
  private final EmbeddingModel model;
  private final String modelId;
  private final int dimension;

  /**
   * Wraps {@code model}.
   *
   * @param model the LangChain4j embedding model; must be thread-safe, as SETree embeds from several threads
   * @param modelId a stable identifier of the model, for example {@code openai/text-embedding-3-small}
   * @param dimension the length of its vectors
   */
  public LangChain4jEmbedder(EmbeddingModel model, String modelId, int dimension) {
    this.model = Objects.requireNonNull(model, "model");
    if (modelId == null || modelId.isBlank()) {
      throw new IllegalArgumentException("modelId must name the embedding model; it is stored with the knowledge"
          + " base and checked on open");
    }
    if (dimension < 1) {
      throw new IllegalArgumentException("dimension must be >= 1, got " + dimension);
    }
    this.modelId = modelId.strip();
    this.dimension = dimension;
  }

  /**
   * Wraps {@code model}, taking the id from {@link EmbeddingModel#modelName()} and the dimension from
   * {@link EmbeddingModel#dimension()} (which may embed a probe text).
   *
   * @param model the LangChain4j embedding model
   */
  public static LangChain4jEmbedder of(EmbeddingModel model) {
    String name = model.modelName();
    if (name == null || name.isBlank() || "unknown".equalsIgnoreCase(name)) {
      name = model.getClass().getName();
    }
    return new LangChain4jEmbedder(model, "langchain4j:" + name, model.dimension());
  }

  @Override
  public String modelId() {
    return modelId;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public float[][] embed(List<String> texts) {
    List<TextSegment> segments = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      String t = texts.get(i);
      if (t == null || t.isBlank()) {
        throw new IllegalArgumentException("text " + (i + 1) + " of " + texts.size() + " is "
            + (t == null ? "null" : "blank") + "; only non-blank texts can be embedded");
      }
      segments.add(TextSegment.from(t));
    }
    if (segments.isEmpty()) {
      return new float[0][];
    }
    List<Embedding> embeddings = model.embedAll(segments).content();
    if (embeddings == null || embeddings.size() != segments.size()) {
      throw new IllegalStateException("the embedding model " + modelId + " returned "
          + (embeddings == null ? "nothing" : embeddings.size() + " vectors") + " for " + segments.size() + " texts");
    }
    float[][] out = new float[embeddings.size()][];
    for (int i = 0; i < out.length; i++) {
      float[] v = embeddings.get(i).vector();
      if (v.length != dimension) {
        throw new IllegalStateException("the embedding model " + modelId + " returned a vector of " + v.length
            + " components, not the " + dimension + " this embedder was created with");
      }
      out[i] = normalise(v);
    }
    return out;
  }

  private static float[] normalise(float[] v) {
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    float[] u = v.clone();
    if (sum == 0) {
      return u;
    }
    float inv = (float) (1 / Math.sqrt(sum));
    for (int i = 0; i < u.length; i++) {
      u[i] *= inv;
    }
    return u;
  }
}

package dev.setree.internal.maintain;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The summary embeddings a draft's passes asked the model for, by text, the most recently used kept: a summary pass
 * asks again for none of them ({@link SummaryPass}). A summary often comes back to a text the model was asked for a
 * few runs before: in 300 one-fact runs at 50,000 SOTU leaves, 72 of the 346 texts the model was asked for had been
 * asked for before, up to 252 texts earlier, and 10 of the 23 of the run that took longest (ADR 0043).
 *
 * <p>A text's embedding is the model's, the same bit for bit in any call ({@code MiniLmEmbedder}), so a kept one is
 * the vector the model would give. Kept for one model: a pass with an embedder of another id starts afresh. Each
 * vector is copied in and out: the caller owns what it gets. Not thread-safe: a draft's passes run one at a time.
 */
final class RecentEmbeddings {
  /** How many texts are kept: 1.5 kB each at 384 dimensions. */
  static final int CAPACITY = 1024;

  private final Map<String, float[]> byText;
  private String modelId;

  RecentEmbeddings(int capacity) {
    this.byText = new LinkedHashMap<>(16, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
        return size() > capacity;
      }
    };
  }

  /** Keeps the texts of model {@code id} only: forgets the others when it is not the model they are from. */
  void model(String id) {
    if (!Objects.equals(id, modelId)) {
      byText.clear();
      modelId = id;
    }
  }

  /** A copy of the embedding of {@code text}, or null when none is kept. */
  float[] get(String text) {
    float[] e = byText.get(text);
    return e == null ? null : e.clone();
  }

  /** Keeps a copy of {@code embedding}, the model's embedding of {@code text}. */
  void put(String text, float[] embedding) {
    byText.put(text, embedding.clone());
  }
}

package dev.setree.internal.maintain;

import dev.setree.spi.Embedder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The new summary texts of a {@link SummaryPass} whose embeddings the nodes get after its last wave (a maintenance
 * pass whose summaries do not read their children's embeddings): each text once, with the nodes that get its
 * embedding. A node whose new text is one already waiting (a child's new summary, which a pass embedding wave by
 * wave would have embedded and the node copied) joins it and gets the same vector; it counts as reused when that
 * pass would have copied it: from a child or a quoted leaf, or from the {@link RecentEmbeddings} when the text came
 * in an earlier wave.
 *
 * <p>The model is asked for the texts whenever the pass has nothing else to do ({@link #embedWaiting}: while it
 * waits for summaries written on other threads) and for the rest at the end ({@link #embed}). A text's embedding is
 * the same, bit for bit, alone or in any batch, so when they are asked for changes no vector.
 */
final class DeferredEmbeddings {
  private final Map<String, List<DraftNode>> byText = new LinkedHashMap<>();
  /** The wave each text of {@link #byText} came in. */
  private final Map<String, Integer> waveOf = new HashMap<>();
  private int wave;
  /** The embeddings of the first texts of {@link #byText}, in its order: those asked for so far. */
  private final List<float[]> embedded = new ArrayList<>();
  /** Where the embeddings asked for are kept for later passes. */
  private final RecentEmbeddings recent;
  private int reused;

  DeferredEmbeddings(RecentEmbeddings recent) {
    this.recent = recent;
  }

  /** Starts the pass's next wave. */
  void nextWave() {
    wave++;
  }

  /**
   * Whether {@code v}, whose new text is {@code text}, joins a text already waiting: its child's (counted as
   * reused, as a copy of the child's embedding would be) or another node's (counted when it came in an earlier wave).
   */
  boolean join(String text, DraftNode v, List<DraftNode> quoted) {
    List<DraftNode> waiting = byText.get(text);
    if (waiting == null) {
      return false;
    }
    boolean copy = false; // whether a pass embedding wave by wave would have copied a child's or leaf's vector
    for (DraftNode c : v.children) {
      copy |= text.equals(c.text);
    }
    for (DraftNode l : quoted) {
      copy |= text.equals(l.text);
    }
    if (copy || waveOf.get(text) < wave) {
      reused++;
    }
    waiting.add(v);
    return true;
  }

  /** Waits for the embedding of {@code text}, {@code v}'s new text, which nothing waits for yet. */
  void add(String text, DraftNode v) {
    byText.put(text, new ArrayList<>(List.of(v)));
    waveOf.put(text, wave);
  }

  /**
   * Asks the model, in one call, for the texts added since the last call, and keeps their embeddings for {@link
   * #embed}; the nodes keep theirs until then. Returns how many texts it asked for.
   */
  int embedWaiting(Embedder embedder) {
    int from = embedded.size();
    if (from == byText.size()) {
      return 0;
    }
    List<String> texts = new ArrayList<>(byText.keySet());
    float[][] vectors = embedder.embed(texts.subList(from, texts.size()));
    for (int i = 0; i < vectors.length; i++) {
      recent.put(texts.get(from + i), vectors[i]);
    }
    Collections.addAll(embedded, vectors);
    return texts.size() - from;
  }

  /**
   * Asks the model for the texts not asked for yet, in one call, and gives each waiting node its own copy of its
   * text's embedding; returns the nodes reused.
   */
  int embed(Embedder embedder) {
    embedWaiting(embedder);
    int i = 0;
    for (List<DraftNode> nodes : byText.values()) {
      float[] e = embedded.get(i++);
      for (int k = 0; k < nodes.size(); k++) {
        DraftNode v = nodes.get(k);
        v.embedding = k == 0 ? e : e.clone();
        SummaryPass.summarized(v);
      }
    }
    return reused;
  }
}

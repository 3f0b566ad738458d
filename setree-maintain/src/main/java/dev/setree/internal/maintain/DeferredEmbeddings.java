package dev.setree.internal.maintain;

import dev.setree.spi.Embedder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The new summary texts of a {@link SummaryPass} whose embeddings are asked for once, after its last wave (a
 * maintenance pass whose summaries do not read their children's embeddings): each text once, with
 * the nodes that get its embedding. A node whose new text is one already waiting (a child's new summary, which a
 * pass embedding wave by wave would have embedded and the node copied) joins it and gets the same vector; it
 * counts as reused when that pass would have copied it.
 */
final class DeferredEmbeddings {
  private final Map<String, List<DraftNode>> byText = new LinkedHashMap<>();
  private int reused;

  /**
   * Whether {@code v}, whose new text is {@code text}, joins a text already waiting: its child's (counted as
   * reused, as a copy of the child's embedding would be) or another node's.
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
    if (copy) {
      reused++;
    }
    waiting.add(v);
    return true;
  }

  /** Waits for the embedding of {@code text}, {@code v}'s new text, which nothing waits for yet. */
  void add(String text, DraftNode v) {
    byText.put(text, new ArrayList<>(List.of(v)));
  }

  /** Embeds every text in one call and gives each waiting node its own copy; returns the nodes reused. */
  int embed(Embedder embedder) {
    if (byText.isEmpty()) {
      return reused;
    }
    float[][] vecs = embedder.embed(new ArrayList<>(byText.keySet()));
    int i = 0;
    for (List<DraftNode> nodes : byText.values()) {
      float[] e = vecs[i++];
      for (int k = 0; k < nodes.size(); k++) {
        DraftNode v = nodes.get(k);
        v.embedding = k == 0 ? e : e.clone();
        SummaryPass.summarized(v);
      }
    }
    return reused;
  }
}

package dev.setree.spi;

import java.util.List;

/**
 * Service interface for writing the summary of one internal node from its children (and, for extractive
 * summarisers, the leaves under it). Called only at index and maintenance time, never by retrieve.
 *
 * <p>Whatever a summariser returns, the builder enforces the budget-monotone rule afterwards: a summary is
 * never longer, in the {@link TokenCounter}'s tokens, than its children together.
 */
public interface Summarizer {

  /** A short name stored with every summary it writes, for example {@code extractive} or {@code llm}. */
  String kind();

  /**
   * Writes one node's summary.
   *
   * @return the summary; never null
   * @throws SummarizerException when this summariser cannot produce a summary for the node
   */
  Summary summarize(Request request);

  /**
   * What a summariser is given for one node.
   *
   * @param level the node's clustering level (1 = parent of leaves)
   * @param depth the node's distance from the root (0 = root)
   * @param children the node's children, leaves verbatim or child summaries
   * @param leaves every leaf under the node
   * @param centroid the node's leaf-centroid (unit length)
   * @param maxTokens the length cap for this node, already no more than the children's total
   * @param counter the counter the cap is measured in
   */
  record Request(
      int level,
      int depth,
      List<Passage> children,
      List<Passage> leaves,
      float[] centroid,
      int maxTokens,
      TokenCounter counter) {}

  /**
   * A written summary.
   *
   * @param text the summary text
   * @param sourceLeafIds ids of leaves whose whole text appears verbatim in {@code text} (empty when none or
   *     unknown); the walk does not pay twice for such a leaf
   */
  record Summary(String text, List<String> sourceLeafIds) {}
}

package dev.setree.internal.core;

import java.util.List;
import dev.setree.spi.TokenCounter;

/**
 * How a tree cover is written out: one line per visible node, in tree order, indented two spaces per
 * visible ancestor; a summary line starts with {@value #SUMMARY_MARK}, a leaf line with {@value #LEAF_MARK}
 * followed by the leaf's text verbatim. The marks' token costs are counted once with the knowledge base's
 * {@link TokenCounter}; indentation and line breaks are whitespace and cost nothing to an additive counter.
 */
public final class ContextFormat {
  /** Marks a summary line. */
  public static final String SUMMARY_MARK = "Summary:";
  /** Marks a leaf line. */
  public static final String LEAF_MARK = "-";

  private final int summaryMarkCost;
  private final int leafMarkCost;

  /** Measures the marks with {@code counter}. */
  public ContextFormat(TokenCounter counter) {
    this.summaryMarkCost = counter.count(SUMMARY_MARK);
    this.leafMarkCost = counter.count(LEAF_MARK);
  }

  /** The tokens node {@code v} costs when visible: its text plus its mark. */
  public int cost(Tree tree, int v) {
    return tree.tokens(v) + (tree.isLeaf(v) ? leafMarkCost : summaryMarkCost);
  }

  /** Writes the items of a cover as text. */
  public String render(Tree tree, List<Cover.Item> items) {
    StringBuilder sb = new StringBuilder();
    for (Cover.Item item : items) {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append("  ".repeat(item.depth()));
      sb.append(tree.isLeaf(item.node()) ? LEAF_MARK : SUMMARY_MARK).append(' ');
      sb.append(tree.text(item.node()));
    }
    return sb.toString();
  }
}

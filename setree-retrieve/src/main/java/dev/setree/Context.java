package dev.setree;

import dev.setree.internal.core.Tree;
import java.util.ArrayList;
import java.util.List;

/**
 * The context selected for one prompt: the rendered text to put in front of an LLM, the visible items it
 * is made of, and how it was found. Immutable and thread-safe.
 */
public final class Context {
  private final String text;
  private final List<Item> items;
  private final int tokensUsed;
  private final int budget;
  private final boolean complete;
  private final Stats stats;
  private final boolean cutShort;

  Context(String text, List<Item> items, int tokensUsed, int budget, boolean complete, Stats stats) {
    this(text, items, tokensUsed, budget, complete, stats, false);
  }

  private Context(String text, List<Item> items, int tokensUsed, int budget, boolean complete, Stats stats,
      boolean cutShort) {
    this.text = text;
    this.items = List.copyOf(items);
    this.tokensUsed = tokensUsed;
    this.budget = budget;
    this.complete = complete;
    this.stats = stats;
    this.cutShort = cutShort;
  }

  /** The same context, marked as cut short by the retrieve deadline. */
  Context markCutShort() {
    return new Context(text, items, tokensUsed, budget, complete, stats, true);
  }

  /**
   * True when the retrieve deadline ({@link SETreeConfig#retrieveDeadlineMillis()}) passed before the
   * prompt's embedding came back: the cover was then chosen by the prompt's words alone (BM25), with the
   * same budget and the same guarantees (every leaf still covered when {@link #complete()}).
   */
  public boolean cutShort() {
    return cutShort;
  }

  /** The rendered context: one line per item, in tree order; never more than the budget in tokens. */
  public String text() {
    return text;
  }

  /** The visible items, in the order they are rendered. */
  public List<Item> items() {
    return items;
  }

  /** Tokens of {@link #text()} in the knowledge base's token counter. */
  public int tokensUsed() {
    return tokensUsed;
  }

  /** The budget asked for. */
  public int budget() {
    return budget;
  }

  /**
   * True when every leaf of the knowledge base is covered, by itself or by a visible summary above it.
   * False when the budget was too small to hold even the root's summary (the context then holds what
   * fits), or for the flat strategies, whose lists never cover a whole knowledge base.
   */
  public boolean complete() {
    return complete;
  }

  /** How the walk went. */
  public Stats stats() {
    return stats;
  }

  /** Ids of the leaves shown verbatim, in rendering order. */
  public List<String> leafIds() {
    List<String> out = new ArrayList<>();
    for (Item i : items) {
      if (i.isLeaf()) {
        out.add(i.nodeId());
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return text;
  }

  /**
   * Walk statistics.
   *
   * @param pops best-first heap pops
   * @param nodesScored capability scores computed
   * @param elapsedNanos wall time of the retrieve call, prompt embedding included
   */
  public record Stats(int pops, int nodesScored, long elapsedNanos) {}

  /** One visible node of the context. */
  public static final class Item {
    private final Tree tree;
    private final int node;
    private final int depth;
    private final int tokens;

    Item(Tree tree, int node, int depth, int tokens) {
      this.tree = tree;
      this.node = node;
      this.depth = depth;
      this.tokens = tokens;
    }

    /** The node's id (the fact id for a leaf). */
    public String nodeId() {
      return tree.id(node);
    }

    /** 0 for a leaf, the clustering level for a summary. */
    public int level() {
      return tree.level(node);
    }

    /** True for a leaf shown verbatim, false for a summary. */
    public boolean isLeaf() {
      return tree.isLeaf(node);
    }

    /** The text shown: the leaf verbatim or the summary. */
    public String text() {
      return tree.text(node);
    }

    /** Rendering depth: the number of visible ancestors. */
    public int depth() {
      return depth;
    }

    /** Tokens this item costs in the context, its line mark included. */
    public int tokens() {
      return tokens;
    }

    /** Ids of the leaves this item covers: itself, or every leaf under the summary. */
    public List<String> leafIds() {
      List<String> out = new ArrayList<>();
      for (int l : tree.leavesOf(node)) {
        out.add(tree.id(l));
      }
      return out;
    }
  }
}

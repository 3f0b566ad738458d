package dev.setree.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.setree.Context;
import dev.setree.SETree;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * A LangChain4j {@link ContentRetriever} that answers each query with a SETree tree cover: the exact facts
 * where the query cares and short summaries for the rest, within a token budget, as one {@link Content} per
 * visible node <b>in tree order</b> (the order {@link Context#items()} gives). Plug it into
 * {@code DefaultRetrievalAugmentor} or {@code AiServices.builder(...).contentRetriever(...)}.
 *
 * <p>Each content's {@link TextSegment} carries metadata: {@value #NODE_ID} (the node's id),
 * {@value #LEVEL} (0 for a leaf), {@value #KIND} ({@code leaf} or {@code summary}), {@value #COVERED_LEAVES}
 * (how many facts the node stands for) and {@value #TOKENS} (its cost in the knowledge base's tokens).
 *
 * <p>The budget is fixed per retriever ({@link Builder#budget(int)}) or computed per query
 * ({@link Builder#budget(ToIntFunction)}, for example from the query's chat memory id). Retrieval never
 * calls an LLM and is thread-safe; the retriever does not own the knowledge base (close it yourself).
 */
public final class SETreeContentRetriever implements ContentRetriever {
  /** Metadata key: the node's id. */
  public static final String NODE_ID = "setree_node_id";
  /** Metadata key: the node's level (0 = leaf). */
  public static final String LEVEL = "setree_level";
  /** Metadata key: {@code leaf} or {@code summary}. */
  public static final String KIND = "setree_kind";
  /** Metadata key: the number of facts (leaves) the node covers. */
  public static final String COVERED_LEAVES = "setree_covered_leaves";
  /** Metadata key: the node's tokens in the context. */
  public static final String TOKENS = "setree_tokens";

  private final SETree kb;
  private final ToIntFunction<Query> budget;

  private SETreeContentRetriever(SETree kb, ToIntFunction<Query> budget) {
    this.kb = kb;
    this.budget = budget;
  }

  /** A retriever over {@code kb} with the knowledge base's default budget. */
  public static SETreeContentRetriever from(SETree kb) {
    return builder(kb).build();
  }

  /**
   * A builder for a retriever over {@code kb}.
   *
   * @param kb an open knowledge base; the caller keeps it open while the retriever is used
   */
  public static Builder builder(SETree kb) {
    return new Builder(kb);
  }

  @Override
  public List<Content> retrieve(Query query) {
    Objects.requireNonNull(query, "query");
    String text = query.text();
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("SETree needs a non-empty query text to retrieve for");
    }
    int b = budget.applyAsInt(query);
    if (b < 0) {
      throw new IllegalArgumentException("the budget for query '" + abbreviate(text) + "' is " + b
          + "; a budget is a number of tokens >= 0");
    }
    Context ctx = kb.retrieve(text, b);
    List<Content> out = new ArrayList<>(ctx.items().size());
    for (Context.Item item : ctx.items()) {
      Metadata md = new Metadata()
          .put(NODE_ID, item.nodeId())
          .put(LEVEL, item.level())
          .put(KIND, item.isLeaf() ? "leaf" : "summary")
          .put(COVERED_LEAVES, item.leafIds().size())
          .put(TOKENS, item.tokens());
      out.add(Content.from(TextSegment.from(item.text(), md)));
    }
    return out;
  }

  private static String abbreviate(String s) {
    return s.length() > 40 ? s.substring(0, 40) + "..." : s;
  }

  /** Builds a {@link SETreeContentRetriever}. */
  public static final class Builder {
    private final SETree kb;
    private ToIntFunction<Query> budget;

    private Builder(SETree kb) {
      this.kb = Objects.requireNonNull(kb, "kb");
    }

    /**
     * The same budget for every query.
     *
     * @param tokens tokens of context, >= 0
     */
    public Builder budget(int tokens) {
      if (tokens < 0) {
        throw new IllegalArgumentException("budget must be >= 0 tokens, got " + tokens);
      }
      this.budget = q -> tokens;
      return this;
    }

    /**
     * A budget computed for each query (for example from {@code query.metadata().chatMemoryId()}).
     *
     * @param perQuery returns tokens of context, >= 0, for a query
     */
    public Builder budget(ToIntFunction<Query> perQuery) {
      this.budget = Objects.requireNonNull(perQuery, "perQuery");
      return this;
    }

    /** The retriever; without a budget, the knowledge base's {@code default_budget}. */
    public SETreeContentRetriever build() {
      ToIntFunction<Query> b = budget;
      if (b == null) {
        int fallback = kb.config().defaultBudget();
        b = q -> fallback;
      }
      return new SETreeContentRetriever(kb, b);
    }
  }
}

package dev.setree;

/**
 * How {@link SETree#retrieve(String, int, Strategy)} selects context. {@link #TREE_COVER} is SETree's own;
 * the others are the flat baselines it is measured against, on the same leaves, embedder and token counter.
 */
public enum Strategy {
  /** The tree cover: overview summaries plus the leaves the prompt cares about (the default). */
  TREE_COVER,
  /** Cosine top-k over leaves, packed in score order. */
  FLAT,
  /** Lucene BM25 (EnglishAnalyzer) over leaves, packed in score order. */
  BM25,
  /** One list: {@code cos + tau * bm25 / max bm25}, packed in score order. */
  HYBRID
}

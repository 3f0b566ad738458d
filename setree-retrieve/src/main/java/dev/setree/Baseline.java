package dev.setree;

/**
 * The evaluation-only baselines a retrieve can be asked for through {@code dev.setree.internal.eval.Research} (not
 * {@link Strategy}: they are for measuring SETree, not for using it; ADR 0021).
 */
enum Baseline {
  /**
   * RAPTOR's collapsed-tree retrieval over SETree's own tree (Sarthi et al., "RAPTOR: Recursive
   * Abstractive Processing for Tree-Organized Retrieval", ICLR 2024): every node, leaves and summaries,
   * ranked by cosine to the prompt and packed in score order.
   */
  COLLAPSED,
  /** The most recent leaves (by time stamp, else by insertion order) that fit. */
  RECENCY
}

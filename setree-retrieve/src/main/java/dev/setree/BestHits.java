package dev.setree;

/**
 * The best BM25 hits of a prompt ({@link LexicalIndex.Prompt#top}): leaf indexes and scores, best first;
 * {@code complete} when no other leaf matches.
 */
record BestHits(int[] leaves, float[] scores, boolean complete) {
  /** No hit, and no other leaf matches. */
  static final BestHits NONE = new BestHits(new int[0], new float[0], true);

  /** The highest score, 0 when nothing matches. */
  float max() {
    return scores.length == 0 ? 0f : scores[0];
  }

  /** The lowest score listed: a bound of every unlisted leaf's score unless {@link #complete}. */
  float floor() {
    return complete || scores.length == 0 ? 0f : scores[scores.length - 1];
  }
}

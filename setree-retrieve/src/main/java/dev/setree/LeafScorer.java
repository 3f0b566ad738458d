package dev.setree;

import org.apache.lucene.search.similarities.Similarity;

/**
 * Scores one leaf at a time for one prompt, from the forward index ({@link LeafTerms}): the score
 * {@link LexicalIndex#scores} gives it, without the others.
 */
final class LeafScorer {
  private final LeafTerms leafTerms;
  private final int[] termIds;
  private final Similarity.SimScorer[] sims;

  LeafScorer(LeafTerms leafTerms, int[] termIds, Similarity.SimScorer[] sims) {
    this.leafTerms = leafTerms;
    this.termIds = termIds;
    this.sims = sims;
  }

  /** Leaf {@code v}'s BM25 score for the prompt (0 when no term matches). */
  float score(int v) {
    double sum = 0;
    long norm = leafTerms.norm(v);
    for (int i = 0; i < termIds.length; i++) {
      int f = leafTerms.freq(v, termIds[i]);
      if (f > 0) {
        sum += sims[i].score(f, norm);
      }
    }
    return (float) sum;
  }
}

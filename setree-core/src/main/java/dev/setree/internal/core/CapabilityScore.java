package dev.setree.internal.core;

/**
 * The capability score of a child in the tree-cover walk: how much opening the child is worth for a prompt.
 *
 * <pre>
 *   capability(c | p, q) = care(c) + beta * max(0, gap_p(c, q) - epsilon)
 *   care(c)              = max over leaves l under c of relevance(l, q)
 *   gap_p(c, q)          = cos(q, centroid(c)) - cos(q, summary(p))
 * </pre>
 *
 * <p>{@code care} is how much the prompt cares about the child's content: the best leaf relevance the child
 * leads to (an exact upper bound over its subtree; see docs/adr/0004-capability-score.md for why the bound
 * and not the child's centroid). {@code gap} is the parent's fidelity loss in the prompt's direction for
 * this child: the projection of {@code centroid(c) - summary(p)} on the prompt, i.e. how much more the
 * child's content relates to the prompt than the parent's summary shows. {@code beta} weighs that loss,
 * {@code epsilon} is the absolute per-child fidelity floor below which the parent is deemed to stand in
 * well enough. Leaf relevance itself blends meaning and words with weight {@code tau}; it is computed by
 * the caller (setree-retrieve) and handed to the walk.
 *
 * @param beta weight of the parent's directional loss (>= 0)
 * @param epsilon absolute fidelity floor (>= 0)
 */
public record CapabilityScore(float beta, float epsilon) {

  /** Validates the parameters. */
  public CapabilityScore {
    if (!Float.isFinite(beta) || beta < 0) {
      throw new IllegalArgumentException("beta must be finite and >= 0, got " + beta);
    }
    if (!Float.isFinite(epsilon) || epsilon < 0) {
      throw new IllegalArgumentException("epsilon must be finite and >= 0, got " + epsilon);
    }
  }

  /**
   * Scores child {@code c} of internal node {@code p}.
   *
   * @param care the best leaf relevance under {@code c}
   * @param parentSummaryDot {@code cos(q, summary(p))}, computed once per parent
   */
  public float score(Tree tree, int c, float care, float parentSummaryDot, float[] query) {
    if (beta == 0f) {
      return care;
    }
    return score(care, tree.centroidDot(c, query), parentSummaryDot);
  }

  /**
   * The score of a child whose centroid dot product with the prompt is known ({@code centroidDot}, as
   * {@link Tree#centroidDot} computes it): the walk's form for a leaf child, whose centroid is its embedding.
   */
  public float score(float care, float centroidDot, float parentSummaryDot) {
    if (beta == 0f) {
      return care;
    }
    float gap = centroidDot - parentSummaryDot;
    return care + beta * Math.max(0f, gap - epsilon);
  }

  /** True when a score reads the child's centroid ({@code beta > 0}). */
  public boolean readsCentroids() {
    return beta != 0f;
  }
}

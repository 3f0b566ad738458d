package dev.setree.internal.core;

import java.util.Objects;

/**
 * How much one prompt cares about each leaf, as the tree-cover walk consumes it: either a value for every
 * leaf ({@linkplain #of(float[]) exact}), or exact values for a set of <em>candidates</em> and, for every
 * other leaf, an upper bound ({@linkplain #candidates candidate-driven}, for large knowledge bases: the
 * retriever scores only the approximate nearest neighbours and the BM25 top hits of the prompt).
 *
 * <p>On the candidate-driven form, a node's care is the best candidate under it, raised to the bound when
 * the node also holds a leaf that is not a candidate; a non-candidate leaf the walk reaches is scored by
 * {@code otherLeaf} (for example its exact cosine). Nothing in it is sized by the knowledge base, so a walk
 * on it does work proportional to the candidates and the nodes it opens. Immutable.
 */
public final class LeafRelevance {

  /** Relevance of one leaf that is not a candidate. */
  @FunctionalInterface
  public interface LeafScore {
    /** The relevance of leaf {@code v}. */
    float of(int v);

    /**
     * The relevance of leaf {@code v} whose cosine with the prompt is known: {@code cosine} is
     * {@link Tree#embeddingDot} of the leaf and the prompt, which the walk has computed for the leaf's
     * capability score already. By default it is not used; a score that needs the cosine overrides this so
     * as not to compute it again. Either form returns the same value.
     */
    default float of(int v, float cosine) {
      return of(v);
    }
  }

  private final float[] dense;
  private final int[] leaves;
  private final float[] values;
  private final float others;
  private final LeafScore otherLeaf;
  private final IntFloatMap byLeaf;

  private LeafRelevance(float[] dense, int[] leaves, float[] values, float others, LeafScore otherLeaf) {
    this.dense = dense;
    this.leaves = leaves;
    this.values = values;
    this.others = others;
    this.otherLeaf = otherLeaf;
    if (leaves == null) {
      this.byLeaf = null;
    } else {
      this.byLeaf = new IntFloatMap(leaves.length);
      for (int i = 0; i < leaves.length; i++) {
        byLeaf.put(leaves[i], values[i]);
      }
    }
  }

  /** Exact relevance: one value per leaf (taken over, not copied). */
  public static LeafRelevance of(float[] relevance) {
    return new LeafRelevance(Objects.requireNonNull(relevance, "relevance"), null, null, 0f, null);
  }

  /**
   * Candidate-driven relevance.
   *
   * @param leaves the candidate leaves (distinct leaf indexes)
   * @param values their exact relevance, parallel to {@code leaves}
   * @param others an upper bound of every other leaf's relevance
   * @param otherLeaf the relevance of a leaf that is not a candidate, when the walk reaches one
   */
  public static LeafRelevance candidates(int[] leaves, float[] values, float others, LeafScore otherLeaf) {
    if (leaves.length != values.length) {
      throw new IllegalArgumentException(leaves.length + " candidates but " + values.length + " values");
    }
    return new LeafRelevance(null, leaves.clone(), values.clone(), others, Objects.requireNonNull(otherLeaf));
  }

  /** True for the exact form: a value for every leaf. */
  public boolean isExact() {
    return dense != null;
  }

  /** The value per leaf of the exact form (not a copy; do not modify). */
  float[] exact() {
    return dense;
  }

  /** The candidates of the candidate-driven form (not a copy; do not modify); null for the exact form. */
  public int[] candidateLeaves() {
    return leaves;
  }

  /** Their values, parallel to {@link #candidateLeaves()} (not a copy; do not modify). */
  public float[] candidateValues() {
    return values;
  }

  /** The bound of every leaf that is not a candidate. */
  public float others() {
    return others;
  }

  /** The same candidates, bound and scorer of the others, with other values (levers that reorder them). */
  public LeafRelevance withValues(float[] newValues) {
    if (dense != null) {
      return of(newValues);
    }
    return candidates(leaves, newValues, others, otherLeaf);
  }

  /**
   * New candidates with this relevance's bound, every other leaf scored as this relevance scores it (for a
   * lever, such as the second hop, that adds candidates).
   */
  public LeafRelevance recandidate(int[] newLeaves, float[] newValues) {
    LeafScore asBefore = new LeafScore() {
      @Override
      public float of(int v) {
        return leaf(v);
      }

      @Override
      public float of(int v, float cosine) {
        return leaf(v, cosine);
      }
    };
    return candidates(newLeaves, newValues, dense != null ? Float.NEGATIVE_INFINITY : others, asBefore);
  }

  /** The relevance of leaf {@code v}: its value, a candidate's exact value, or {@code otherLeaf}'s. */
  public float leaf(int v) {
    if (dense != null) {
      return dense[v];
    }
    float x = byLeaf.get(v, Float.NaN);
    return Float.isNaN(x) ? otherLeaf.of(v) : x;
  }

  /** {@link #leaf(int)} of a leaf whose cosine with the prompt is known (see {@link LeafScore#of(int, float)}). */
  public float leaf(int v, float cosine) {
    if (dense != null) {
      return dense[v];
    }
    float x = byLeaf.get(v, Float.NaN);
    return Float.isNaN(x) ? otherLeaf.of(v, cosine) : x;
  }
}

package dev.setree;

/**
 * What a leaf is worth to a prompt on top of its relevance (cosine + BM25), for the tree cover:
 * <ul>
 *   <li>the <em>period boost</em>: {@code calibration.period_boost} when the prompt names a period
 *       ({@link PromptPeriod}) and the leaf's time stamp lies in it ("What happened in May 2023?");</li>
 *   <li>the <em>substance</em>: {@code calibration.substance x min(1, ln(1 + d) / ln(1 + 32))}, {@code d} the
 *       leaf's distinct content words (its BM25 terms), so that of two leaves equally close to the prompt the
 *       one that says more comes first ("Hey! How are you?" says nothing).</li>
 * </ul>
 * Defaults 0.3 and 0.2, decided leave-one-conversation-out (docs/adr/0026-period-and-substance.md). Immutable.
 */
final class LeafPrior {
  /** Distinct content words at which a leaf's substance is full. */
  static final int FULL_SUBSTANCE_TERMS = 32;
  /** At most this many leaves of a period become candidates on the candidate path; beyond, the bound rises. */
  static final int PERIOD_CANDIDATES = 1024;

  private static final double LOG_FULL = Math.log1p(FULL_SUBSTANCE_TERMS);

  private final PromptPeriod period;
  private final LeafDays days;
  private final float periodBoost;
  private final LeafTerms terms;
  private final float substance;

  private LeafPrior(PromptPeriod period, LeafDays days, float periodBoost, LeafTerms terms, float substance) {
    this.period = period;
    this.days = days;
    this.periodBoost = periodBoost;
    this.terms = terms;
    this.substance = substance;
  }

  /** The prior of a prompt on a snapshot, or null when it adds nothing to any leaf. */
  static LeafPrior of(Snapshot s, String prompt, double periodBoost, double substance) {
    PromptPeriod period = periodBoost > 0 ? PromptPeriod.of(prompt) : null;
    LeafDays days = period != null ? s.leafDays() : null;
    if (days != null && days.countIn(period) == 0) {
      period = null;
    }
    if (period == null && !(substance > 0)) {
      return null;
    }
    return new LeafPrior(period, period != null ? days : null, period != null ? (float) periodBoost : 0f,
        substance > 0 ? s.lexical().leafTerms() : null, (float) substance);
  }

  /** Leaf {@code v}'s prior. */
  float of(int v) {
    float p = period != null && days.in(v, period) ? periodBoost : 0f;
    if (terms != null) {
      p += (float) (substance * Math.min(1.0, Math.log1p(terms.distinctTerms(v)) / LOG_FULL));
    }
    return p;
  }

  /** Adds every leaf's prior to its relevance (the exact path). */
  void addTo(float[] relevance, int leaves) {
    for (int v = 0; v < leaves; v++) {
      relevance[v] += of(v);
    }
  }

  /** The period's leaves when there are at most {@link #PERIOD_CANDIDATES}, else null (or none: empty). */
  int[] periodLeaves() {
    if (period == null) {
      return new int[0];
    }
    return days.countIn(period) <= PERIOD_CANDIDATES ? days.leavesIn(period) : null;
  }

  /**
   * The most this prior adds to a leaf that is not a candidate, when the period's leaves were made candidates
   * ({@code periodInCandidates}) or not.
   */
  float boundOfOthers(boolean periodInCandidates) {
    return (period != null && !periodInCandidates ? periodBoost : 0f) + (terms != null ? substance : 0f);
  }
}

package dev.setree;

/**
 * What a leaf is worth to a prompt on top of its relevance (cosine + BM25), for the tree cover:
 * <ul>
 *   <li>the <em>period boost</em>: {@code calibration.period_boost} when the prompt names a period
 *       ({@link PromptPeriod}) and the leaf's time stamp lies in it ("What happened in May 2023?");</li>
 *   <li>the <em>substance</em>: {@code calibration.substance x min(1, ln(1 + d) / ln(1 + 32))}, {@code d} the
 *       leaf's distinct content words (its BM25 terms), so that of two leaves equally close to the prompt the
 *       one that says more comes first ("Hey! How are you?" says nothing). For a prompt that names a period
 *       holding leaves, the weight is {@code calibration.substance + calibration.period_substance}: such a
 *       prompt asks what happened then, and the period's filler ("Bye! Talk soon!") is what it wants least.</li>
 * </ul>
 * Defaults 0.3, 0.2 and 0.3, decided leave-one-conversation-out (docs/adr/0026-period-and-substance.md).
 * Immutable.
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
  private final float[] leafSubstance;
  private final float substance;

  private LeafPrior(PromptPeriod period, LeafDays days, float periodBoost, float[] leafSubstance,
      float substance) {
    this.period = period;
    this.days = days;
    this.periodBoost = periodBoost;
    this.leafSubstance = leafSubstance;
    this.substance = substance;
  }

  /**
   * The prior of a prompt on a snapshot, or null when it adds nothing to any leaf. The prompt's period counts
   * only with a positive {@code periodBoost} and when some leaf lies in it; then {@code periodSubstance} is
   * added to the substance's weight.
   */
  static LeafPrior of(Snapshot s, String prompt, double periodBoost, double substance, double periodSubstance) {
    PromptPeriod period = periodBoost > 0 ? PromptPeriod.of(prompt) : null;
    LeafDays days = period != null ? s.leafDays() : null;
    if (days != null && days.countIn(period) == 0) {
      period = null;
    }
    if (period != null) {
      substance += periodSubstance;
    }
    if (period == null && !(substance > 0)) {
      return null;
    }
    return new LeafPrior(period, period != null ? days : null, period != null ? (float) periodBoost : 0f,
        substance > 0 ? s.leafSubstance() : null, substance > 0 ? (float) substance : 0f);
  }

  /** Every leaf's substance, in [0, 1]: {@code min(1, ln(1 + d) / ln(1 + 32))}, d its distinct BM25 terms. */
  static float[] substance(LeafTerms terms, int leaves) {
    float[] out = new float[leaves];
    for (int v = 0; v < leaves; v++) {
      out[v] = (float) Math.min(1.0, Math.log1p(terms.distinctTerms(v)) / LOG_FULL);
    }
    return out;
  }

  /** Leaf {@code v}'s prior: the period part plus the weighted substance. */
  float of(int v) {
    return period(v) + (leafSubstance == null ? 0f : substance * leafSubstance[v]);
  }

  /** The period part of leaf {@code v}'s prior: the boost if its day lies in the prompt's period, else 0. */
  float period(int v) {
    return period != null && days.in(v, period) ? periodBoost : 0f;
  }

  /** Every leaf's substance (not a copy; do not modify), or null when the substance's weight is 0. */
  float[] leafSubstance() {
    return leafSubstance;
  }

  /** The substance's weight ({@code calibration.substance}). */
  float substanceWeight() {
    return substance;
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
   * The most the period part adds to a leaf that is not a candidate, when the period's leaves were made
   * candidates ({@code periodInCandidates}) or not.
   */
  float periodBoundOfOthers(boolean periodInCandidates) {
    return period != null && !periodInCandidates ? periodBoost : 0f;
  }
}

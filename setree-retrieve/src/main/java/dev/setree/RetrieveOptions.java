package dev.setree;

import dev.setree.internal.eval.Research;
import java.util.Objects;

/**
 * Per-call settings of {@link SETree#retrieve(String, int, RetrieveOptions)}: the strategy and overrides
 * of the walk's calibration. A value left unset falls back to the knowledge base's {@link SETreeConfig}.
 * Immutable; build with {@link #builder()}.
 */
public final class RetrieveOptions {
  private static final RetrieveOptions DEFAULTS = builder().build();

  static {
    Research.install((b, name) -> b.baseline = Baseline.valueOf(name)); // the evaluation's door (ADR 0021)
  }

  private final Strategy strategy;
  private final Double beta;
  private final Double tau;
  private final Double epsilon;
  private final Double periodBoost;
  private final Double substance;
  private final Double periodSubstance;
  private final Double overviewShare;
  private final Double overviewTemperature;
  private final Integer secondHop;
  private final Boolean intentionalClustering;
  private final RetrievePath path;
  /** An evaluation baseline instead of the strategy, or null. */
  private final Baseline baseline;

  private RetrieveOptions(Builder b) {
    this.strategy = b.baseline != null ? Strategy.FLAT : b.strategy; // a baseline is no tree cover
    this.baseline = b.baseline;
    this.beta = check(Settings.BETA, b.beta);
    this.tau = check(Settings.TAU, b.tau);
    this.epsilon = check(Settings.EPSILON, b.epsilon);
    this.periodBoost = check(Settings.PERIOD_BOOST, b.periodBoost);
    this.substance = check(Settings.SUBSTANCE, b.substance);
    this.periodSubstance = check(Settings.PERIOD_SUBSTANCE, b.periodSubstance);
    this.overviewShare = check(Settings.OVERVIEW_SHARE, b.overviewShare);
    this.overviewTemperature = check(Settings.OVERVIEW_TEMPERATURE, b.overviewTemperature);
    this.secondHop = check(Settings.SECOND_HOP, b.secondHop);
    this.intentionalClustering = b.intentionalClustering;
    this.path = b.path;
  }

  /** An override is checked as the config's value of the same key is. */
  private static <T> T check(Setting<T> setting, T v) {
    return v == null ? null : setting.check(v);
  }

  /** The tree cover with the configured calibration. */
  public static RetrieveOptions defaults() {
    return DEFAULTS;
  }

  /** The given strategy with the configured calibration. */
  public static RetrieveOptions of(Strategy strategy) {
    return builder().strategy(strategy).build();
  }

  /** A builder with nothing overridden. */
  public static Builder builder() {
    return new Builder();
  }

  /** The strategy (default {@link Strategy#TREE_COVER}). */
  public Strategy strategy() {
    return strategy;
  }

  double beta(SETreeConfig c) {
    return beta != null ? beta : c.beta();
  }

  double tau(SETreeConfig c) {
    return tau != null ? tau : c.tau();
  }

  double epsilon(SETreeConfig c) {
    return epsilon != null ? epsilon : c.epsilon();
  }

  double periodBoost(SETreeConfig c) {
    return periodBoost != null ? periodBoost : c.periodBoost();
  }

  double substance(SETreeConfig c) {
    return substance != null ? substance : c.substance();
  }

  double periodSubstance(SETreeConfig c) {
    return periodSubstance != null ? periodSubstance : c.periodSubstance();
  }

  double overviewShare(SETreeConfig c) {
    return overviewShare != null ? overviewShare : c.overviewShare();
  }

  double overviewTemperature(SETreeConfig c) {
    return overviewTemperature != null ? overviewTemperature : c.overviewTemperature();
  }

  /**
   * The second hop in effect: the override, else the config's for the tree cover; the flat baselines stay
   * pure unless the lever is set for the call.
   */
  int secondHop(SETreeConfig c) {
    if (secondHop != null) {
      return secondHop;
    }
    if (strategy != Strategy.TREE_COVER) {
      return 0;
    }
    return c.secondHopLeaves();
  }

  /** Intentional clustering in effect: as {@link #secondHop(SETreeConfig)}, config default for the tree cover. */
  boolean intentionalClustering(SETreeConfig c) {
    if (intentionalClustering != null) {
      return intentionalClustering;
    }
    return strategy == Strategy.TREE_COVER && c.useIntentionalClustering();
  }

  /** The leaf scoring in effect for a knowledge base of {@code leaves} leaves: exact or candidates. */
  boolean approximate(SETreeConfig c, int leaves) {
    RetrievePath p = path != null ? path : c.retrievePath();
    return p == RetrievePath.APPROXIMATE || (p == RetrievePath.AUTO && leaves >= c.approximateFromLeaves());
  }

  /** The same options with the levers that need the prompt's embedding off (a retrieve cut short). */
  RetrieveOptions lexicalOnly() {
    Builder b = new Builder();
    b.strategy = strategy;
    b.beta = beta;
    b.tau = tau;
    b.epsilon = epsilon;
    b.periodBoost = periodBoost;
    b.substance = substance;
    b.periodSubstance = periodSubstance;
    b.overviewShare = overviewShare;
    b.overviewTemperature = overviewTemperature;
    b.secondHop = 0;
    b.intentionalClustering = false;
    b.path = path;
    b.baseline = baseline;
    return b.build();
  }

  /** The evaluation baseline asked for instead of the strategy, or null. */
  Baseline baseline() {
    return baseline;
  }

  /** True when no calibration value of the walk is overridden. */
  boolean usesConfigCalibration() {
    return beta == null && tau == null && epsilon == null && overviewShare == null && overviewTemperature == null;
  }

  @Override
  public String toString() {
    return "RetrieveOptions[strategy=" + (baseline != null ? baseline : strategy) + ", beta=" + beta + ", tau=" + tau
        + ", epsilon=" + epsilon + ", periodBoost=" + periodBoost + ", substance=" + substance
        + ", periodSubstance=" + periodSubstance + ", overviewShare="
        + overviewShare + ", secondHop=" + secondHop + ", intentionalClustering=" + intentionalClustering + ", path="
        + path + "]";
  }

  /** Builds {@link RetrieveOptions}. */
  public static final class Builder {
    private Strategy strategy = Strategy.TREE_COVER;
    private Baseline baseline;
    private Double beta;
    private Double tau;
    private Double epsilon;
    private Double periodBoost;
    private Double substance;
    private Double periodSubstance;
    private Double overviewShare;
    private Double overviewTemperature;
    private Integer secondHop;
    private Boolean intentionalClustering;
    private RetrievePath path;

    private Builder() {}

    /** Overrides {@link SETreeConfig#retrievePath()}. */
    public Builder path(RetrievePath p) {
      path = Objects.requireNonNull(p, "path");
      return this;
    }

    /** The strategy. */
    public Builder strategy(Strategy s) {
      strategy = Objects.requireNonNull(s, "strategy");
      return this;
    }

    /** Overrides {@link SETreeConfig#beta()}. */
    public Builder beta(double v) {
      beta = v;
      return this;
    }

    /** Overrides {@link SETreeConfig#tau()}. */
    public Builder tau(double v) {
      tau = v;
      return this;
    }

    /** Overrides {@link SETreeConfig#epsilon()}. */
    public Builder epsilon(double v) {
      epsilon = v;
      return this;
    }

    /** Overrides {@link SETreeConfig#periodBoost()}. */
    public Builder periodBoost(double v) {
      periodBoost = v;
      return this;
    }

    /** Overrides {@link SETreeConfig#substance()}. */
    public Builder substance(double v) {
      substance = v;
      return this;
    }

    /** Overrides {@link SETreeConfig#periodSubstance()}. */
    public Builder periodSubstance(double v) {
      periodSubstance = v;
      return this;
    }

    /** Overrides {@link SETreeConfig#overviewTemperature()}. */
    public Builder overviewTemperature(double v) {
      overviewTemperature = v;
      return this;
    }

    /** Overrides {@link SETreeConfig#overviewShare()}. */
    public Builder overviewShare(double v) {
      overviewShare = v;
      return this;
    }

    /**
     * Overrides {@link SETreeConfig#secondHopLeaves()}: 0 (off), 1 or 2 = re-query with the prompt plus the text of
     * the best one or two leaves, and interleave the second ranking with the first.
     */
    public Builder secondHop(int v) {
      secondHop = v;
      return this;
    }

    /** Overrides {@link SETreeConfig#useIntentionalClustering()}. */
    public Builder intentionalClustering(boolean v) {
      intentionalClustering = v;
      return this;
    }

    /**
     * Checks the values and builds.
     *
     * @throws IllegalArgumentException naming a bad value
     */
    public RetrieveOptions build() {
      return new RetrieveOptions(this);
    }
  }
}

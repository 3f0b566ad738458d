package dev.setree;

import dev.setree.internal.maintain.llm.LlmSettings;
import java.util.List;

/**
 * The table of {@link SETreeConfig}'s settings: one entry per key of docs/config.md (the {@code llm} section's
 * numbers at the end, which {@link LlmConfig} checks), in the order the keys are documented. Each entry
 * is the one definition of its key, Java type, default and check; {@link SETreeConfig.Builder},
 * {@link RetrieveOptions} and {@link ConfigFile} all go through it, and the command line's flags set the
 * builder.
 */
final class Settings {
  static final Setting.Decimal BETA = new Setting.Decimal("calibration.beta", 0.2, 0, Double.MAX_VALUE, ">= 0",
      SETreeConfig.Builder::beta, SETreeConfig::beta);
  static final Setting.Decimal TAU = new Setting.Decimal("calibration.tau", 0.3, 0, Double.MAX_VALUE, ">= 0",
      SETreeConfig.Builder::tau, SETreeConfig::tau);
  static final Setting.Decimal EPSILON = new Setting.Decimal("calibration.epsilon", 0.0, 0, Double.MAX_VALUE,
      ">= 0", SETreeConfig.Builder::epsilon, SETreeConfig::epsilon);
  static final Setting.Decimal PERIOD_BOOST = new Setting.Decimal("calibration.period_boost", 0.3, 0,
      Double.MAX_VALUE, ">= 0", SETreeConfig.Builder::periodBoost, SETreeConfig::periodBoost);
  static final Setting.Decimal SUBSTANCE = new Setting.Decimal("calibration.substance", 0.2, 0, Double.MAX_VALUE,
      ">= 0", SETreeConfig.Builder::substance, SETreeConfig::substance);
  static final Setting.Decimal PERIOD_SUBSTANCE = new Setting.Decimal("calibration.period_substance", 0.3, 0,
      Double.MAX_VALUE, ">= 0", SETreeConfig.Builder::periodSubstance, SETreeConfig::periodSubstance);
  static final Setting.Whole FAITHFULNESS_THRESHOLD = new Setting.Whole("calibration.faithfulness_threshold", 60,
      -100, 100, (b, v) -> b.faithfulnessThreshold(v.intValue()), c -> (long) c.faithfulnessThreshold());
  static final Setting.Whole DEFAULT_BUDGET = new Setting.Whole("default_budget", 4096, 1, Integer.MAX_VALUE,
      (b, v) -> b.defaultBudget(v.intValue()), c -> (long) c.defaultBudget());
  static final Setting.Whole MAX_CONCURRENCY = new Setting.Whole("max_concurrency", 0, 0, 1024,
      (b, v) -> b.maxConcurrency(v.intValue()), c -> (long) c.maxConcurrency());
  /** At least {@link LlmSettings#MIN_CONTEXT_WINDOW} with an LLM, which {@code LlmSettings} checks. */
  static final Setting.Whole CONTEXT_WINDOW = new Setting.Whole("context_window",
      LlmSettings.DEFAULT_CONTEXT_WINDOW, 1, Integer.MAX_VALUE, (b, v) -> b.contextWindow(v.intValue()),
      c -> (long) c.contextWindow());
  static final Setting.Decimal OVERVIEW_SHARE = new Setting.Decimal("overview_share", 0, 0, 1, "in [0, 1]",
      SETreeConfig.Builder::overviewShare, SETreeConfig::overviewShare);
  /** Above 0: the least value taken is the smallest normal double, as before the table. */
  static final Setting.Decimal OVERVIEW_TEMPERATURE = new Setting.Decimal("overview_temperature", 0.2,
      Double.MIN_NORMAL, Double.MAX_VALUE, "> 0", SETreeConfig.Builder::overviewTemperature,
      SETreeConfig::overviewTemperature);
  static final Setting.Whole TARGET_ARITY = new Setting.Whole("target_arity", 8, 2, 1000,
      (b, v) -> b.targetArity(v.intValue()), c -> (long) c.targetArity());
  static final Setting.Whole KNN_K = new Setting.Whole("knn_k", 10, 1, 1000, (b, v) -> b.knnK(v.intValue()),
      c -> (long) c.knnK());
  static final Setting.Whole TOP_SUMMARY_TOKENS = new Setting.Whole("top_summary_tokens", 12, 1, 100_000,
      (b, v) -> b.topSummaryTokens(v.intValue()), c -> (long) c.topSummaryTokens());
  static final Setting.Whole SUMMARY_TOKENS = new Setting.Whole("summary_tokens", 24, 1, 100_000,
      (b, v) -> b.summaryTokens(v.intValue()), c -> (long) c.summaryTokens());
  static final Setting.Whole QUIET_WINDOW_MS = new Setting.Whole("maintenance.quiet_window_ms", 500, 0,
      3_600_000L, SETreeConfig.Builder::quietWindowMillis, SETreeConfig::quietWindowMillis);
  static final Setting.Whole WARM_UP_RUNS = new Setting.Whole("maintenance.warm_up_runs", 0, 0, 100,
      (b, v) -> b.warmUpRuns(v.intValue()), c -> (long) c.warmUpRuns());
  static final Setting.Choice EMBEDDER = new Setting.Choice("embedder", "minilm", SETreeConfig.EMBEDDERS,
      SETreeConfig.Builder::embedderName, SETreeConfig::embedderName);
  static final Setting.Whole RETRIEVE_DEADLINE_MS = new Setting.Whole("retrieve_deadline_ms", 1000, 1, 3_600_000L,
      SETreeConfig.Builder::retrieveDeadlineMillis, SETreeConfig::retrieveDeadlineMillis);
  static final Setting.Choice RETRIEVE_PATH = new Setting.Choice("retrieve_path", RetrievePath.AUTO.key(),
      List.of("auto", "exact", "approximate"), (b, v) -> b.retrievePath(RetrievePath.parse("retrieve_path", v)),
      c -> c.retrievePath().key());
  static final Setting.Whole APPROXIMATE_FROM_LEAVES = new Setting.Whole("approximate_from_leaves", 20_000, 1,
      Integer.MAX_VALUE, (b, v) -> b.approximateFromLeaves(v.intValue()), c -> (long) c.approximateFromLeaves());
  static final Setting.Flag USE_INTENTIONAL_CLUSTERING = new Setting.Flag("use_intentional_clustering", false,
      SETreeConfig.Builder::useIntentionalClustering, SETreeConfig::useIntentionalClustering);
  static final Setting.Decimal CLUSTER_EDGE_WEIGHT_FLOOR = new Setting.Decimal("cluster_edge_weight_floor", 0.4, 0,
      1, "in [0, 1]", SETreeConfig.Builder::clusterEdgeWeightFloor, SETreeConfig::clusterEdgeWeightFloor);
  static final Setting.Whole CLUSTER_DIVERSITY_TARGET = new Setting.Whole("cluster_diversity_target", 3, 1, 1000,
      (b, v) -> b.clusterDiversityTarget(v.intValue()), c -> (long) c.clusterDiversityTarget());
  static final Setting.Flag FALLBACK_TO_SCORE = new Setting.Flag("fallback_to_score", true,
      SETreeConfig.Builder::fallbackToScore, SETreeConfig::fallbackToScore);
  static final Setting.Hops SECOND_HOP = new Setting.Hops("second_hop", SETreeConfig.Builder::secondHop,
      SETreeConfig::secondHopLeaves);

  /** Every setting of {@link SETreeConfig.Builder}, in the order of docs/config.md. */
  static final List<Setting<?>> ALL = List.of(BETA, TAU, EPSILON, PERIOD_BOOST, SUBSTANCE, PERIOD_SUBSTANCE,
      FAITHFULNESS_THRESHOLD, DEFAULT_BUDGET,
      MAX_CONCURRENCY, CONTEXT_WINDOW, OVERVIEW_SHARE, OVERVIEW_TEMPERATURE, TARGET_ARITY, KNN_K, TOP_SUMMARY_TOKENS,
      SUMMARY_TOKENS, QUIET_WINDOW_MS, WARM_UP_RUNS, EMBEDDER, RETRIEVE_DEADLINE_MS, RETRIEVE_PATH,
      APPROXIMATE_FROM_LEAVES, USE_INTENTIONAL_CLUSTERING, CLUSTER_EDGE_WEIGHT_FLOOR, CLUSTER_DIVERSITY_TARGET,
      FALLBACK_TO_SCORE, SECOND_HOP);

  /** The {@code llm} section's numbers: {@link LlmConfig.Builder#build()} and the file check them here. */
  static final Setting.Whole LLM_CONNECT_TIMEOUT_MS = llm("connect_timeout_ms", 10_000, 1, 3_600_000L);
  static final Setting.Whole LLM_READ_TIMEOUT_MS = llm("read_timeout_ms", 120_000, 1, 3_600_000L);
  static final Setting.Whole LLM_MAX_RETRIES = llm("max_retries", 3, 0, 10);
  static final Setting.Whole LLM_MAX_CONCURRENCY = llm("max_concurrency", 0, 0, 256);

  private static Setting.Whole llm(String name, long defaultValue, long min, long max) {
    return new Setting.Whole("llm." + name, defaultValue, min, max, (b, v) -> {
      throw new UnsupportedOperationException("llm." + name + " is set through LlmConfig");
    }, c -> {
      throw new UnsupportedOperationException("llm." + name + " is read from LlmConfig");
    });
  }

  private Settings() {}
}

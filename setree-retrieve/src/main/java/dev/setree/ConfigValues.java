package dev.setree;

import dev.setree.spi.Embedder;
import dev.setree.spi.Summarizer;
import dev.setree.spi.TokenCounter;
import java.util.Objects;

/**
 * The values of one {@link SETreeConfig}, held in one place: a {@link SETreeConfig.Builder} fills a set
 * (starting from the defaults of the table of settings, {@link Settings}) and a config keeps a checked copy
 * of it that nothing else sees. Mutable and package-private; the public accessors and their documentation
 * are {@link SETreeConfig}'s.
 */
final class ConfigValues implements Cloneable {
  double beta = Settings.BETA.defaultValue;
  double tau = Settings.TAU.defaultValue;
  double epsilon = Settings.EPSILON.defaultValue;
  double periodBoost = Settings.PERIOD_BOOST.defaultValue;
  double substance = Settings.SUBSTANCE.defaultValue;
  double periodSubstance = Settings.PERIOD_SUBSTANCE.defaultValue;
  int faithfulnessThreshold = Settings.FAITHFULNESS_THRESHOLD.defaultValue.intValue();
  int defaultBudget = Settings.DEFAULT_BUDGET.defaultValue.intValue();
  int maxConcurrency = Settings.MAX_CONCURRENCY.defaultValue.intValue();
  int contextWindow = Settings.CONTEXT_WINDOW.defaultValue.intValue();
  double overviewShare = Settings.OVERVIEW_SHARE.defaultValue;
  double overviewTemperature = Settings.OVERVIEW_TEMPERATURE.defaultValue;
  int targetArity = Settings.TARGET_ARITY.defaultValue.intValue();
  int knnK = Settings.KNN_K.defaultValue.intValue();
  int topSummaryTokens = Settings.TOP_SUMMARY_TOKENS.defaultValue.intValue();
  int summaryTokens = Settings.SUMMARY_TOKENS.defaultValue.intValue();
  long quietWindowMillis = Settings.QUIET_WINDOW_MS.defaultValue;
  int warmUpRuns = Settings.WARM_UP_RUNS.defaultValue.intValue();
  long retrieveDeadlineMillis = Settings.RETRIEVE_DEADLINE_MS.defaultValue;
  RetrievePath retrievePath = RetrievePath.parse(Settings.RETRIEVE_PATH.key, Settings.RETRIEVE_PATH.defaultValue);
  int approximateFromLeaves = Settings.APPROXIMATE_FROM_LEAVES.defaultValue.intValue();
  String embedderName = Settings.EMBEDDER.defaultValue;
  LlmConfig llm;
  boolean useIntentionalClustering = Settings.USE_INTENTIONAL_CLUSTERING.defaultValue;
  double clusterEdgeWeightFloor = Settings.CLUSTER_EDGE_WEIGHT_FLOOR.defaultValue;
  int clusterDiversityTarget = Settings.CLUSTER_DIVERSITY_TARGET.defaultValue.intValue();
  boolean fallbackToScore = Settings.FALLBACK_TO_SCORE.defaultValue;
  int secondHop = Settings.SECOND_HOP.defaultValue;
  Embedder embedder;
  TokenCounter tokenCounter;
  Summarizer summarizer;

  /** A copy to change (for {@link SETreeConfig#toBuilder()}) or to keep (for a config). */
  ConfigValues copy() {
    try {
      return (ConfigValues) clone(); // every field is a primitive or an immutable or shared reference
    } catch (CloneNotSupportedException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * A copy of these values, every one checked against its setting in the order below (the first bad key is
   * the one named), and the context window against the LLM's floor when an LLM is set.
   *
   * @throws IllegalArgumentException {@code KEY must be RANGE, got VALUE}
   */
  ConfigValues checked() {
    ConfigValues c = copy();
    Settings.BETA.check(c.beta);
    Settings.TAU.check(c.tau);
    Settings.EPSILON.check(c.epsilon);
    Settings.PERIOD_BOOST.check(c.periodBoost);
    Settings.SUBSTANCE.check(c.substance);
    Settings.PERIOD_SUBSTANCE.check(c.periodSubstance);
    Settings.FAITHFULNESS_THRESHOLD.checkInt(c.faithfulnessThreshold);
    Settings.DEFAULT_BUDGET.checkInt(c.defaultBudget);
    Settings.MAX_CONCURRENCY.checkInt(c.maxConcurrency);
    Settings.OVERVIEW_SHARE.check(c.overviewShare);
    Settings.OVERVIEW_TEMPERATURE.check(c.overviewTemperature);
    Settings.TARGET_ARITY.checkInt(c.targetArity);
    Settings.KNN_K.checkInt(c.knnK);
    Settings.TOP_SUMMARY_TOKENS.checkInt(c.topSummaryTokens);
    Settings.SUMMARY_TOKENS.checkInt(c.summaryTokens);
    Settings.QUIET_WINDOW_MS.check(c.quietWindowMillis);
    Settings.WARM_UP_RUNS.checkInt(c.warmUpRuns);
    Settings.RETRIEVE_DEADLINE_MS.check(c.retrieveDeadlineMillis);
    Objects.requireNonNull(c.retrievePath, "retrieve_path");
    Settings.APPROXIMATE_FROM_LEAVES.checkInt(c.approximateFromLeaves);
    Settings.EMBEDDER.check(c.embedderName);
    Settings.CLUSTER_EDGE_WEIGHT_FLOOR.check(c.clusterEdgeWeightFloor);
    Settings.CLUSTER_DIVERSITY_TARGET.checkInt(c.clusterDiversityTarget);
    Settings.SECOND_HOP.check(c.secondHop);
    Settings.CONTEXT_WINDOW.checkInt(c.contextWindow);
    if (c.llm != null) {
      c.llm.settings(c.contextWindow); // the window's floor with an LLM
    }
    return c;
  }
}

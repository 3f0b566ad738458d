package dev.setree;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.maintain.llm.LlmSettings;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the JSON configuration file of the command line (and of host applications that want one) into a
 * {@link SETreeConfig.Builder}, strictly: an unknown key anywhere, a value of the wrong type, a non-finite
 * number or a value out of range fails naming the key, its path and the file. Every key and default is in
 * docs/config.md.
 *
 * <p>Precedence, for the command line: a flag beats the file, which beats the defaults. The file is the one
 * given by {@code --config PATH}, else the one named by the {@value #ENV_VAR} environment variable (an empty
 * value counts as not given), else none ({@link #resolve(String, Map)}).
 */
public final class ConfigFile {
  /** The environment variable naming a config file when {@code --config} is not given. */
  public static final String ENV_VAR = "SETREE_CONFIG";

  private static final List<String> TOP = List.of("calibration", "default_budget", "max_concurrency",
      "context_window", "overview_share", "overview_temperature", "target_arity", "knn_k", "top_summary_tokens", "summary_tokens",
      "maintenance", "llm", "use_intentional_clustering", "cluster_edge_weight_floor", "cluster_diversity_target", "fallback_to_score",
      "second_hop", "retrieve_deadline_ms", "embedder", "retrieve_path", "approximate_from_leaves");
  private static final List<String> CALIBRATION = List.of("beta", "tau", "epsilon", "faithfulness_threshold");
  private static final List<String> MAINTENANCE = List.of("quiet_window_ms");
  private static final List<String> LLM = List.of("base_url", "model", "api_key", "api_key_env",
      "connect_timeout_ms", "read_timeout_ms", "max_retries", "max_concurrency");

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
      .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private final Path file;

  private ConfigFile(Path file) {
    this.file = file;
  }

  /**
   * Chooses the config file: {@code --config} if given, else {@value #ENV_VAR} if set and not empty, else
   * none.
   *
   * @param cliValue the value of {@code --config}, or null when the flag was not given
   * @param env the environment (normally {@link System#getenv()})
   * @throws IllegalArgumentException for {@code --config ""} (a usage error)
   */
  public static Optional<Path> resolve(String cliValue, Map<String, String> env) {
    if (cliValue != null) {
      if (cliValue.isBlank()) {
        throw new IllegalArgumentException("--config needs the path of a config file; it was given an empty value");
      }
      return Optional.of(Path.of(cliValue));
    }
    String fromEnv = env.get(ENV_VAR);
    if (fromEnv == null || fromEnv.isBlank()) {
      return Optional.empty();
    }
    return Optional.of(Path.of(fromEnv));
  }

  /** Reads {@code json} with the process environment (for {@code llm.api_key_env}); see {@link #load(Path, Map)}. */
  public static SETreeConfig.Builder load(Path json) {
    return load(json, System.getenv());
  }

  /**
   * Reads and checks a config file.
   *
   * @param json the file
   * @param env the environment {@code llm.api_key_env} is looked up in
   * @return a builder holding the file's values over the defaults (flags may then override them)
   * @throws IllegalArgumentException naming the file and, for a bad value, the key, its path and the value
   */
  public static SETreeConfig.Builder load(Path json, Map<String, String> env) {
    return new ConfigFile(json).read(env);
  }

  private SETreeConfig.Builder read(Map<String, String> env) {
    if (!Files.exists(file)) {
      throw new IllegalArgumentException("config file " + file + " does not exist");
    }
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("config file " + file + " is not a regular file");
    }
    JsonNode root;
    try {
      root = JSON.readTree(Files.readAllBytes(file));
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      throw new IllegalArgumentException("config file " + file + " is not valid JSON"
          + (at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")") + ": "
          + e.getOriginalMessage().lines().findFirst().orElse(""), e);
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read config file " + file + ": " + e.getMessage(), e);
    }
    if (root == null || root.isMissingNode()) {
      throw new IllegalArgumentException("config file " + file + " is empty; write {} for all the defaults");
    }
    if (!root.isObject()) {
      throw new IllegalArgumentException("config file " + file + " must hold a JSON object, got " + kind(root));
    }
    ObjectNode top = (ObjectNode) root;
    checkKeys(top, "", TOP);
    SETreeConfig.Builder b = SETreeConfig.builder();
    int contextWindow = SETreeConfig.defaults().contextWindow();
    if (top.has("calibration")) {
      ObjectNode c = object(top.get("calibration"), "calibration");
      checkKeys(c, "calibration.", CALIBRATION);
      if (c.has("beta")) {
        b.beta(number(c.get("beta"), "calibration.beta", 0, Double.MAX_VALUE));
      }
      if (c.has("tau")) {
        b.tau(number(c.get("tau"), "calibration.tau", 0, Double.MAX_VALUE));
      }
      if (c.has("epsilon")) {
        b.epsilon(number(c.get("epsilon"), "calibration.epsilon", 0, Double.MAX_VALUE));
      }
      if (c.has("faithfulness_threshold")) {
        b.faithfulnessThreshold((int) integer(c.get("faithfulness_threshold"), "calibration.faithfulness_threshold",
            -100, 100));
      }
    }
    if (top.has("default_budget")) {
      b.defaultBudget((int) integer(top.get("default_budget"), "default_budget", 1, Integer.MAX_VALUE));
    }
    if (top.has("max_concurrency")) {
      b.maxConcurrency((int) integer(top.get("max_concurrency"), "max_concurrency", 0, 1024));
    }
    if (top.has("context_window")) {
      contextWindow = (int) integer(top.get("context_window"), "context_window", 1, Integer.MAX_VALUE);
      b.contextWindow(contextWindow);
    }
    if (top.has("overview_temperature")) {
      b.overviewTemperature(number(top.get("overview_temperature"), "overview_temperature", Double.MIN_NORMAL,
          Double.MAX_VALUE));
    }
    if (top.has("overview_share")) {
      b.overviewShare(number(top.get("overview_share"), "overview_share", 0, 1));
    }
    if (top.has("target_arity")) {
      b.targetArity((int) integer(top.get("target_arity"), "target_arity", 2, 1000));
    }
    if (top.has("knn_k")) {
      b.knnK((int) integer(top.get("knn_k"), "knn_k", 1, 1000));
    }
    if (top.has("top_summary_tokens")) {
      b.topSummaryTokens((int) integer(top.get("top_summary_tokens"), "top_summary_tokens", 1, 100_000));
    }
    if (top.has("summary_tokens")) {
      b.summaryTokens((int) integer(top.get("summary_tokens"), "summary_tokens", 1, 100_000));
    }
    if (top.has("embedder")) {
      JsonNode e = top.get("embedder");
      if (!e.isTextual() || !SETreeConfig.EMBEDDERS.contains(e.asText())) {
        throw new IllegalArgumentException("config key 'embedder' in " + file + " must be one of " + SETreeConfig.EMBEDDERS
            + ", not " + e);
      }
      b.embedderName(e.asText());
    }
    if (top.has("retrieve_deadline_ms")) {
      b.retrieveDeadlineMillis(integer(top.get("retrieve_deadline_ms"), "retrieve_deadline_ms", 1, 3_600_000L));
    }
    if (top.has("retrieve_path")) {
      JsonNode p = top.get("retrieve_path");
      if (!p.isTextual()) {
        throw new IllegalArgumentException("config key 'retrieve_path' in " + file
            + " must be one of auto, exact, approximate, not " + p);
      }
      b.retrievePath(RetrievePath.parse("config key 'retrieve_path' in " + file, p.asText()));
    }
    if (top.has("approximate_from_leaves")) {
      b.approximateFromLeaves((int) integer(top.get("approximate_from_leaves"), "approximate_from_leaves", 1,
          Integer.MAX_VALUE));
    }
    if (top.has("maintenance")) {
      ObjectNode m = object(top.get("maintenance"), "maintenance");
      checkKeys(m, "maintenance.", MAINTENANCE);
      if (m.has("quiet_window_ms")) {
        b.quietWindowMillis(integer(m.get("quiet_window_ms"), "maintenance.quiet_window_ms", 0, 3_600_000L));
      }
    }
    if (top.has("use_intentional_clustering")) {
      b.useIntentionalClustering(bool(top.get("use_intentional_clustering"), "use_intentional_clustering"));
    }
    if (top.has("cluster_edge_weight_floor")) {
      b.clusterEdgeWeightFloor(number(top.get("cluster_edge_weight_floor"), "cluster_edge_weight_floor", 0, 1));
    }
    if (top.has("cluster_diversity_target")) {
      b.clusterDiversityTarget((int) integer(top.get("cluster_diversity_target"), "cluster_diversity_target", 1,
          1000));
    }
    if (top.has("fallback_to_score")) {
      b.fallbackToScore(bool(top.get("fallback_to_score"), "fallback_to_score"));
    }
    if (top.has("second_hop")) {
      b.secondHop(secondHop(top.get("second_hop")));
    }
    if (top.has("llm")) {
      b.llm(llm(object(top.get("llm"), "llm"), contextWindow, env));
    }
    try {
      b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("config file " + file + ": " + e.getMessage(), e);
    }
    return b;
  }

  private LlmSettings llm(ObjectNode l, int contextWindow, Map<String, String> env) {
    checkKeys(l, "llm.", LLM);
    if (!l.has("base_url")) {
      throw new IllegalArgumentException("config key 'llm.base_url' is required in " + file + " when 'llm' is given");
    }
    if (!l.has("model")) {
      throw new IllegalArgumentException("config key 'llm.model' is required in " + file + " when 'llm' is given"
          + " (any name for llama-server; the pulled model's name for Ollama)");
    }
    LlmSettings.Builder s = LlmSettings.builder()
        .baseUrl(string(l.get("base_url"), "llm.base_url"))
        .model(string(l.get("model"), "llm.model"))
        .contextWindow(contextWindow);
    if (l.has("api_key") && l.has("api_key_env")) {
      throw new IllegalArgumentException("config keys 'llm.api_key' and 'llm.api_key_env' in " + file
          + " are both given; keep one (api_key_env is preferred: the key stays out of the file)");
    }
    if (l.has("api_key")) {
      s.apiKey(string(l.get("api_key"), "llm.api_key"));
    }
    if (l.has("api_key_env")) {
      String name = string(l.get("api_key_env"), "llm.api_key_env");
      String key = env.get(name);
      if (key == null || key.isBlank()) {
        throw new IllegalArgumentException("config key 'llm.api_key_env' in " + file + " names the environment"
            + " variable " + name + ", which is not set");
      }
      s.apiKey(key);
    }
    if (l.has("connect_timeout_ms")) {
      s.connectTimeout(Duration.ofMillis(integer(l.get("connect_timeout_ms"), "llm.connect_timeout_ms", 1,
          3_600_000L)));
    }
    if (l.has("read_timeout_ms")) {
      s.readTimeout(Duration.ofMillis(integer(l.get("read_timeout_ms"), "llm.read_timeout_ms", 1, 3_600_000L)));
    }
    if (l.has("max_retries")) {
      s.maxRetries((int) integer(l.get("max_retries"), "llm.max_retries", 0, 10));
    }
    if (l.has("max_concurrency")) {
      s.maxConcurrency((int) integer(l.get("max_concurrency"), "llm.max_concurrency", 0, 256));
    }
    try {
      return s.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("config file " + file + ": " + e.getMessage(), e);
    }
  }

  private void checkKeys(ObjectNode node, String prefix, List<String> known) {
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!known.contains(name)) {
        String where = prefix.isEmpty() ? "at the top level" : "in '" + prefix.substring(0, prefix.length() - 1) + "'";
        throw new IllegalArgumentException("unknown config key '" + prefix + name + "' in " + file + " (known keys "
            + where + ": " + String.join(", ", known) + ")");
      }
    }
  }

  private ObjectNode object(JsonNode v, String key) {
    if (!v.isObject()) {
      throw wrongType(key, "an object", v);
    }
    return (ObjectNode) v;
  }

  private String string(JsonNode v, String key) {
    if (!v.isTextual()) {
      throw wrongType(key, "a string", v);
    }
    if (v.asText().isBlank()) {
      throw new IllegalArgumentException("config key '" + key + "' in " + file + " must not be empty");
    }
    return v.asText();
  }

  private boolean bool(JsonNode v, String key) {
    if (!v.isBoolean()) {
      throw wrongType(key, "true or false", v);
    }
    return v.asBoolean();
  }

  private double number(JsonNode v, String key, double min, double max) {
    if (!v.isNumber()) {
      throw wrongType(key, "a number", v);
    }
    double d = v.decimalValue().doubleValue();
    if (!Double.isFinite(d)) {
      throw new IllegalArgumentException("config key '" + key + "' in " + file + " must be a finite number, got "
          + v.asText());
    }
    if (d < min || d > max) {
      throw outOfRange(key, min, max, v);
    }
    return d;
  }

  private long integer(JsonNode v, String key, long min, long max) {
    if (!v.isNumber()) {
      throw wrongType(key, "an integer", v);
    }
    BigDecimal d = v.decimalValue();
    if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
      throw new IllegalArgumentException("config key '" + key + "' in " + file + " must be an integer, got "
          + v.asText());
    }
    if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
      throw outOfRange(key, min, max, v);
    }
    return d.longValueExact();
  }

  private String secondHop(JsonNode v) {
    if (v.isTextual() && v.asText().equals("off")) {
      return "off";
    }
    if (v.isIntegralNumber() && (v.asInt() == 1 || v.asInt() == 2) && v.canConvertToInt()) {
      return Integer.toString(v.asInt());
    }
    throw new IllegalArgumentException("config key 'second_hop' in " + file + " must be \"off\", 1 or 2, got "
        + v.toString());
  }

  private IllegalArgumentException wrongType(String key, String expected, JsonNode v) {
    return new IllegalArgumentException("config key '" + key + "' in " + file + " must be " + expected + ", got "
        + v.toString() + " (" + kind(v) + ")");
  }

  private IllegalArgumentException outOfRange(String key, double min, double max, JsonNode v) {
    String range;
    if (max >= Integer.MAX_VALUE && v.decimalValue().doubleValue() < min) {
      range = ">= " + fmt(min);
    } else {
      range = "in [" + fmt(min) + ", " + fmt(max) + "]";
    }
    return new IllegalArgumentException("config key '" + key + "' in " + file + " must be " + range + ", got "
        + v.asText());
  }

  private static String fmt(double d) {
    return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
  }

  private static String kind(JsonNode v) {
    return switch (v.getNodeType()) {
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      default -> v.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
    };
  }
}

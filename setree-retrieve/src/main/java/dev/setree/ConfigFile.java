package dev.setree;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
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

  /** The {@code llm} section's keys; {@link LlmConfig} checks their values. */
  private static final List<String> LLM = List.of("base_url", "model", "api_key", "api_key_env",
      "connect_timeout_ms", "read_timeout_ms", "max_retries", "max_concurrency");

  /** The keys of each section ("" = the top level) in the order of docs/config.md, from {@link Settings#ALL}. */
  private static final Map<String, List<String>> KEYS = sections();

  private static Map<String, List<String>> sections() {
    Map<String, List<String>> keys = new LinkedHashMap<>();
    for (Setting<?> s : Settings.ALL) {
      String section = s.section();
      if (!section.isEmpty()) {
        addOnce(keys, "", section);
      }
      addOnce(keys, section, s.name());
    }
    addOnce(keys, "", "llm");
    keys.put("llm", LLM);
    return keys;
  }

  private static void addOnce(Map<String, List<String>> keys, String section, String name) {
    List<String> names = keys.computeIfAbsent(section, x -> new ArrayList<>());
    if (!names.contains(name)) {
      names.add(name);
    }
  }

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
      throw new IllegalArgumentException("config file " + file + " must hold a JSON object, got " + Setting.kind(root));
    }
    ObjectNode top = (ObjectNode) root;
    checkKeys(top, "", KEYS.get(""));
    Map<String, ObjectNode> sections = new HashMap<>();
    sections.put("", top);
    for (String section : KEYS.keySet()) {
      if (!section.isEmpty() && !section.equals("llm") && top.has(section)) {
        ObjectNode o = object(top.get(section), section);
        checkKeys(o, section + ".", KEYS.get(section));
        sections.put(section, o);
      }
    }
    SETreeConfig.Builder b = SETreeConfig.builder();
    for (Setting<?> setting : Settings.ALL) {
      ObjectNode in = sections.get(setting.section());
      if (in != null && in.has(setting.name())) {
        apply(setting, in, b);
      }
    }
    if (top.has("llm")) {
      b.llm(llm(object(top.get("llm"), "llm"), env));
    }
    try {
      b.build();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("config file " + file + ": " + e.getMessage(), e);
    }
    return b;
  }

  /** The {@code llm} section; its window is the top-level {@code context_window}, set by the config. */
  private LlmConfig llm(ObjectNode l, Map<String, String> env) {
    checkKeys(l, "llm.", LLM);
    if (!l.has("base_url")) {
      throw new IllegalArgumentException("config key 'llm.base_url' is required in " + file + " when 'llm' is given");
    }
    if (!l.has("model")) {
      throw new IllegalArgumentException("config key 'llm.model' is required in " + file + " when 'llm' is given"
          + " (any name for llama-server; the pulled model's name for Ollama)");
    }
    LlmConfig.Builder s = LlmConfig.builder()
        .baseUrl(string(l.get("base_url"), "llm.base_url"))
        .model(string(l.get("model"), "llm.model"));
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
      s.connectTimeout(Duration.ofMillis(value(Settings.LLM_CONNECT_TIMEOUT_MS, l)));
    }
    if (l.has("read_timeout_ms")) {
      s.readTimeout(Duration.ofMillis(value(Settings.LLM_READ_TIMEOUT_MS, l)));
    }
    if (l.has("max_retries")) {
      s.maxRetries(value(Settings.LLM_MAX_RETRIES, l).intValue());
    }
    if (l.has("max_concurrency")) {
      s.maxConcurrency(value(Settings.LLM_MAX_CONCURRENCY, l).intValue());
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


  private <T> void apply(Setting<T> setting, ObjectNode in, SETreeConfig.Builder b) {
    setting.apply(b, value(setting, in));
  }

  /** The checked value of {@code setting} in {@code in}, its section. */
  private <T> T value(Setting<T> setting, ObjectNode in) {
    Setting.Read<T> r = setting.readChecked(in.get(setting.name()));
    if (r.problem() != null) {
      throw new IllegalArgumentException("config key '" + setting.key + "' in " + file + " " + r.problem());
    }
    return r.value();
  }

  private IllegalArgumentException wrongType(String key, String expected, JsonNode v) {
    return new IllegalArgumentException("config key '" + key + "' in " + file + " must be " + expected + ", got "
        + v.toString() + " (" + Setting.kind(v) + ")");
  }
}

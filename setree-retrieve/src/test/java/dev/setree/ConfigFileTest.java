package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.maintain.llm.LlmSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The strict JSON config file and the choice of file. */
class ConfigFileTest {
  @TempDir Path dir;

  Path write(String json) throws Exception {
    Path f = Files.createTempFile(dir, "cfg", ".json");
    Files.writeString(f, json);
    return f;
  }

  SETreeConfig load(String json) throws Exception {
    return ConfigFile.load(write(json), Map.of("MY_KEY", "sk-from-env")).build();
  }

  IllegalArgumentException refused(String json) throws Exception {
    Path f = write(json);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ConfigFile.load(f, Map.of()), json);
    assertTrue(e.getMessage().contains(f.toString()), "names the file: " + e.getMessage());
    return e;
  }

  @Test
  void everyKeyIsRead() throws Exception {
    SETreeConfig c = load("""
        {
          "calibration": {"beta": 0.5, "tau": 0.25, "epsilon": 0.01, "faithfulness_threshold": 70},
          "default_budget": 1024,
          "max_concurrency": 3,
          "context_window": 4096,
          "overview_share": 0.2,
          "target_arity": 6,
          "knn_k": 12,
          "top_summary_tokens": 16,
          "summary_tokens": 32,
          "maintenance": {"quiet_window_ms": 250},
          "llm": {"base_url": "http://localhost:11434/v1/", "model": "qwen2.5:3b", "api_key_env": "MY_KEY",
                  "connect_timeout_ms": 1500, "read_timeout_ms": 60000, "max_retries": 5, "max_concurrency": 2},
          "use_intentional_clustering": true,
          "cluster_edge_weight_floor": 0.55,
          "cluster_diversity_target": 4,
          "second_hop": 2
        }""");
    assertEquals(0.5, c.beta());
    assertEquals(0.25, c.tau());
    assertEquals(0.01, c.epsilon());
    assertEquals(70, c.faithfulnessThreshold());
    assertEquals(1024, c.defaultBudget());
    assertEquals(3, c.maxConcurrency());
    assertEquals(4096, c.contextWindow());
    assertEquals(0.2, c.overviewShare());
    assertEquals(6, c.targetArity());
    assertEquals(12, c.knnK());
    assertEquals(16, c.topSummaryTokens());
    assertEquals(32, c.summaryTokens());
    assertEquals(250, c.quietWindowMillis());
    assertTrue(c.useIntentionalClustering());
    assertEquals(0.55, c.clusterEdgeWeightFloor());
    assertEquals(4, c.clusterDiversityTarget());
    assertEquals(2, c.secondHopLeaves());
    LlmSettings l = c.llmSettings();
    assertEquals("http://localhost:11434/v1", l.baseUrl());
    assertEquals("qwen2.5:3b", l.model());
    assertEquals("sk-from-env", l.apiKey());
    assertEquals(Duration.ofMillis(1500), l.connectTimeout());
    assertEquals(Duration.ofMillis(60000), l.readTimeout());
    assertEquals(5, l.maxRetries());
    assertEquals(2, l.maxConcurrency());
    assertEquals(4096, l.contextWindow(), "the LLM's window is the top-level context_window");
    assertFalse(l.toString().contains("sk-from-env"));
  }

  /** The candidate-path keys (docs/adr/0018): read, defaulted, and checked with the key's name. */
  @Test
  void retrievePathKeys() throws Exception {
    SETreeConfig c = load("{\"retrieve_path\": \"approximate\", \"approximate_from_leaves\": 5000}");
    assertEquals(RetrievePath.APPROXIMATE, c.retrievePath());
    assertEquals(5000, c.approximateFromLeaves());
    assertEquals(RetrievePath.AUTO, load("{}").retrievePath());
    assertEquals(20_000, load("{}").approximateFromLeaves());
    Path bad = write("{\"retrieve_path\": \"fast\"}");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConfigFile.load(bad, Map.of()));
    assertTrue(e.getMessage().contains("retrieve_path") && e.getMessage().contains("'fast'"), e.getMessage());
    Path zero = write("{\"approximate_from_leaves\": 0}");
    e = assertThrows(IllegalArgumentException.class, () -> ConfigFile.load(zero, Map.of()));
    assertTrue(e.getMessage().contains("approximate_from_leaves"), e.getMessage());
  }

  @Test
  void emptyObjectIsTheDefaults() throws Exception {
    SETreeConfig c = load("{}");
    SETreeConfig d = SETreeConfig.defaults();
    assertEquals(d.beta(), c.beta());
    assertEquals(d.tau(), c.tau());
    assertEquals(d.defaultBudget(), c.defaultBudget());
    assertEquals(d.contextWindow(), c.contextWindow());
    assertEquals(d.quietWindowMillis(), c.quietWindowMillis());
    assertNull(c.llm());
    assertFalse(c.useIntentionalClustering());
    assertEquals(0.4, c.clusterEdgeWeightFloor());
    assertEquals(3, c.clusterDiversityTarget());
    assertEquals(0, c.secondHopLeaves());
    assertEquals(2, load("{\"second_hop\": 2}").secondHopLeaves());
    assertEquals(0, load("{\"second_hop\": \"off\"}").secondHopLeaves());
    assertEquals(1, load("{\"second_hop\": 1}").secondHopLeaves());
  }

  @Test
  void inlineApiKeyAndIntegralFloats() throws Exception {
    SETreeConfig c = load("""
        {"llm": {"base_url": "http://localhost:8080/v1", "model": "local", "api_key": "sk-inline"},
         "calibration": {"faithfulness_threshold": 60.0}, "default_budget": 2e3}""");
    assertEquals("sk-inline", c.llmSettings().apiKey());
    assertEquals(60, c.faithfulnessThreshold());
    assertEquals(2000, c.defaultBudget());
  }

  @Test
  void unknownKeysAnywhereAreRefusedWithTheirPath() throws Exception {
    Path f = write("{\"calibration\": {\"betta\": 1.0}}");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConfigFile.load(f, Map.of()));
    assertTrue(e.getMessage().startsWith("unknown config key 'calibration.betta' in " + f), e.getMessage());
    assertTrue(e.getMessage().contains(
        "beta, tau, epsilon, period_boost, substance, period_substance, faithfulness_threshold"),
        e.getMessage());
    assertTrue(refused("{\"defualt_budget\": 10}").getMessage()
        .contains("unknown config key 'defualt_budget'"));
    assertTrue(refused("{\"maintenance\": {\"quiet_window\": 10}}").getMessage()
        .contains("unknown config key 'maintenance.quiet_window'"));
    assertTrue(refused("{\"llm\": {\"base_url\": \"http://x/v1\", \"model\": \"m\", \"temperature\": 0}}")
        .getMessage().contains("unknown config key 'llm.temperature'"));
  }

  @Test
  void badValuesAreRefusedNamingKeyAndValue() throws Exception {
    assertRefused("{\"default_budget\": \"4096\"}", "'default_budget'", "must be an integer", "\"4096\"");
    assertRefused("{\"default_budget\": 0}", "'default_budget'", ">= 1", "got 0");
    assertRefused("{\"default_budget\": -5}", "'default_budget'", "got -5");
    assertRefused("{\"calibration\": {\"beta\": 1e999}}", "'calibration.beta'", "finite", "1E+999");
    assertRefused("{\"calibration\": {\"tau\": -1e999}}", "'calibration.tau'", "finite");
    assertRefused("{\"calibration\": {\"epsilon\": -0.1}}", "'calibration.epsilon'", ">= 0", "-0.1");
    assertRefused("{\"calibration\": {\"faithfulness_threshold\": 60.5}}", "'calibration.faithfulness_threshold'",
        "integer", "60.5");
    assertRefused("{\"calibration\": {\"faithfulness_threshold\": 101}}", "'calibration.faithfulness_threshold'",
        "[-100, 100]", "101");
    assertRefused("{\"calibration\": {\"faithfulness_threshold\": -101}}", "[-100, 100]", "-101");
    assertRefused("{\"calibration\": 1}", "'calibration'", "an object");
    assertRefused("{\"overview_share\": 1.5}", "'overview_share'", "[0, 1]", "1.5");
    assertRefused("{\"context_window\": 99999999999}", "'context_window'", "99999999999");
    assertRefused("{\"max_concurrency\": null}", "'max_concurrency'", "null");
    assertRefused("{\"maintenance\": {\"quiet_window_ms\": -1}}", "'maintenance.quiet_window_ms'", "-1");
    assertRefused("{\"use_intentional_clustering\": \"yes\"}", "'use_intentional_clustering'", "true or false");
    assertRefused("{\"cluster_edge_weight_floor\": 1.2}", "'cluster_edge_weight_floor'", "1.2");
    assertRefused("{\"cluster_diversity_target\": 0}", "'cluster_diversity_target'", "[1, 1000]", "got 0");
    assertRefused("{\"second_hop\": 3}", "'second_hop'", "\"off\", 1 or 2", "3");
    assertRefused("{\"second_hop\": \"on\"}", "'second_hop'", "\"on\"");
    assertRefused("{\"target_arity\": 1}", "'target_arity'", "1");
  }

  @Test
  void badLlmSectionsAreRefused() throws Exception {
    assertRefused("{\"llm\": {\"model\": \"m\"}}", "'llm.base_url' is required");
    assertRefused("{\"llm\": {\"base_url\": \"http://localhost:8080/v1\"}}", "'llm.model' is required");
    assertRefused("{\"llm\": {\"base_url\": \"localhost:8080\", \"model\": \"m\"}}", "llm.base_url",
        "localhost:8080");
    assertRefused("{\"llm\": {\"base_url\": \"http://h/v1\", \"model\": \"m\", \"api_key_env\": \"NOPE_UNSET\"}}",
        "NOPE_UNSET", "not set");
    assertRefused("{\"llm\": {\"base_url\": \"http://h/v1\", \"model\": \"m\", \"api_key\": \"a\","
        + " \"api_key_env\": \"B\"}}", "both given");
    assertRefused("{\"llm\": {\"base_url\": \"http://h/v1\", \"model\": \"m\", \"max_retries\": 11}}",
        "'llm.max_retries'", "[0, 10]", "11");
    assertRefused("{\"llm\": {\"base_url\": \"http://h/v1\", \"model\": \"m\", \"read_timeout_ms\": 0}}",
        "'llm.read_timeout_ms'", "0");
    assertRefused("{\"llm\": {\"base_url\": 8080, \"model\": \"m\"}}", "'llm.base_url'", "a string");
    assertRefused("{\"context_window\": 10, \"llm\": {\"base_url\": \"http://h/v1\", \"model\": \"m\"}}",
        "context_window", "10");
  }

  @Test
  void brokenFilesAreRefusedNamingTheFile() throws Exception {
    assertTrue(refused("{\"default_budget\": 10,,}").getMessage().contains("is not valid JSON (line 1"));
    assertTrue(refused("{\"default_budget\": 10").getMessage().contains("is not valid JSON"));
    assertTrue(refused("{\"default_budget\": NaN}").getMessage().contains("is not valid JSON"));
    assertTrue(refused("{} {}").getMessage().contains("is not valid JSON"));
    assertTrue(refused("{\"knn_k\": 5, \"knn_k\": 6}").getMessage().contains("knn_k"));
    assertTrue(refused("").getMessage().contains("is empty"));
    assertTrue(refused("[1, 2]").getMessage().contains("must hold a JSON object, got an array"));
    Path missing = dir.resolve("missing.json");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConfigFile.load(missing));
    assertEquals("config file " + missing + " does not exist", e.getMessage());
  }

  void assertRefused(String json, String... parts) throws Exception {
    IllegalArgumentException e = refused(json);
    for (String p : parts) {
      assertTrue(e.getMessage().contains(p), "'" + p + "' missing from: " + e.getMessage());
    }
  }

  @Test
  void precedenceOfTheConfigFile() {
    Map<String, String> none = Map.of();
    Map<String, String> empty = Map.of(ConfigFile.ENV_VAR, "");
    Map<String, String> env = Map.of(ConfigFile.ENV_VAR, "/etc/setree.json");
    assertEquals(Optional.empty(), ConfigFile.resolve(null, none));
    assertEquals(Optional.empty(), ConfigFile.resolve(null, empty), "empty value counts as not given");
    assertEquals(Optional.of(Path.of("/etc/setree.json")), ConfigFile.resolve(null, env));
    assertEquals(Optional.of(Path.of("cli.json")), ConfigFile.resolve("cli.json", env), "--config wins");
    assertEquals(Optional.of(Path.of("cli.json")), ConfigFile.resolve("cli.json", empty));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConfigFile.resolve("", env));
    assertTrue(e.getMessage().contains("--config"), e.getMessage());
  }
}

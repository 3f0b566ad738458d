package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table of settings ({@link Settings}) against docs/config.md, the JSON file, the builder and the per-call
 * options: one key, one type, one default, one check and one message.
 */
class SettingsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern ROW = Pattern.compile("^\\| `([a-z_.]+)` \\| ([^|]+) \\| ([^|]+) \\|");

  @TempDir Path dir;

  /** The documented keys with their default column, from docs/config.md's table. */
  static Map<String, String> documented() throws Exception {
    Path doc = Path.of("..", "docs", "config.md");
    Map<String, String> keys = new LinkedHashMap<>();
    for (String line : Files.readAllLines(doc)) {
      Matcher m = ROW.matcher(line);
      if (m.find()) {
        keys.put(m.group(1), m.group(3).strip());
      }
    }
    assertTrue(keys.size() > 20, "read the key table of " + doc);
    return keys;
  }

  /** Every documented key (but the llm section's strings) is in the table, with the documented default. */
  @Test
  void theTableIsTheDocumentedKeys() throws Exception {
    Map<String, String> doc = documented();
    List<String> table = new ArrayList<>();
    for (Setting<?> s : Settings.ALL) {
      table.add(s.key);
      String cell = doc.get(s.key);
      assertTrue(cell != null, s.key + " is documented in docs/config.md");
      Object documentedDefault = s.readChecked(JSON.readTree(cell.replace("`", ""))).value();
      assertEquals(s.defaultValue, documentedDefault, s.key + ": the documented default is the table's");
      assertEquals(s.defaultValue, s.get(SETreeConfig.defaults()), s.key + ": the builder starts at the default");
    }
    for (Setting.Whole s : List.of(Settings.LLM_CONNECT_TIMEOUT_MS, Settings.LLM_READ_TIMEOUT_MS,
        Settings.LLM_MAX_RETRIES, Settings.LLM_MAX_CONCURRENCY)) {
      table.add(s.key);
      assertEquals(s.defaultValue, s.readChecked(JSON.readTree(doc.get(s.key).replace("`", ""))).value(), s.key);
    }
    for (String key : doc.keySet()) {
      assertTrue(table.contains(key) || key.equals("llm") || key.startsWith("llm."), key + " is in the table");
    }
  }

  /** Every documented key read from a file comes back from the config unchanged. */
  @Test
  void everyKeyRoundTripsFromJson() throws Exception {
    for (Setting<?> s : Settings.ALL) {
      roundTrip(s);
    }
    assertEquals(0, load("{\"second_hop\": \"off\"}").secondHopLeaves());
    assertEquals(0, load("{\"second_hop\": 0}").secondHopLeaves(), "0 is off, as in the API");
  }

  private <T> void roundTrip(Setting<T> s) throws Exception {
    T v = otherThanDefault(s);
    ObjectNode root = JSON.createObjectNode();
    ObjectNode in = s.section().isEmpty() ? root : root.putObject(s.section());
    in.set(s.name(), JSON.valueToTree(v));
    SETreeConfig c = load(JSON.writeValueAsString(root));
    assertEquals(v, s.get(c), s.key + " read from " + root);
    assertEquals(v, s.get(c.toBuilder().build()), s.key + " kept by toBuilder");
  }

  @SuppressWarnings("unchecked")
  private static <T> T otherThanDefault(Setting<T> s) {
    Object d = s.defaultValue;
    if (s instanceof Setting.Decimal) {
      double v = (Double) d + 0.125;
      return (T) (Double) (s.problem((T) (Double) v) == null ? v : (Double) d / 2);
    }
    if (s instanceof Setting.Whole) {
      long v = (Long) d + 1;
      return (T) (Long) (s.problem((T) (Long) v) == null ? v : (Long) d - 1);
    }
    if (s instanceof Setting.Flag) {
      return (T) (Boolean) !(Boolean) d;
    }
    if (s instanceof Setting.Hops) {
      return (T) (Integer) 2;
    }
    for (String name : List.of("minilm-int8", "approximate")) {
      if (s.problem((T) name) == null) {
        return (T) name;
      }
    }
    throw new AssertionError("no other value for " + s.key);
  }

  /** Out of range, from code and from a file: the same message, naming the key. */
  @Test
  void builderFileAndOptionsRefuseABadValueWithOneMessage() throws Exception {
    for (Setting<?> s : Settings.ALL) {
      for (Object bad : badValues(s)) {
        sameMessage(s, bad);
      }
    }
  }

  private static List<Object> badValues(Setting<?> s) {
    if (s instanceof Setting.Whole w) {
      List<Object> out = new ArrayList<>();
      for (long v : new long[] {-101, 0, 1, 2, 1001, 100_001, 3_600_001L, Integer.MAX_VALUE + 1L}) {
        if (w.problem(v) != null && (v <= Integer.MAX_VALUE || w.key.endsWith("_ms"))) {
          out.add(v);
        }
      }
      return out;
    }
    if (s instanceof Setting.Decimal d) {
      return List.of(-0.5, 1.5, 0.0).stream().filter(v -> d.problem(v) != null).map(v -> (Object) v).toList();
    }
    if (s instanceof Setting.Hops) {
      return List.of(3, -1);
    }
    return s instanceof Setting.Choice ? List.of("nope") : List.of();
  }

  @SuppressWarnings("unchecked")
  private <T> void sameMessage(Setting<T> s, Object bad) throws Exception {
    String fromCode = assertThrows(IllegalArgumentException.class, () -> {
      SETreeConfig.Builder b = SETreeConfig.builder();
      s.apply(b, (T) bad);
      b.build();
    }, s.key + "=" + bad).getMessage();
    assertTrue(fromCode.startsWith(s.key + " must be "), fromCode);
    ObjectNode root = JSON.createObjectNode();
    (s.section().isEmpty() ? root : root.putObject(s.section())).set(s.name(), JSON.valueToTree(bad));
    Path f = write(JSON.writeValueAsString(root));
    String fromFile = assertThrows(IllegalArgumentException.class, () -> ConfigFile.load(f, Map.of()), root.toString())
        .getMessage();
    assertEquals("config key '" + s.key + "' in " + f + fromCode.substring(s.key.length()), fromFile);
  }

  /** The per-call overrides are checked by the same entries, with the same messages. */
  @Test
  void retrieveOptionsRefuseAsTheConfigDoes() {
    assertEquals(message(() -> SETreeConfig.builder().beta(-1).build()),
        message(() -> RetrieveOptions.builder().beta(-1).build()));
    assertEquals(message(() -> SETreeConfig.builder().tau(Double.NaN).build()),
        message(() -> RetrieveOptions.builder().tau(Double.NaN).build()));
    assertEquals(message(() -> SETreeConfig.builder().overviewShare(2).build()),
        message(() -> RetrieveOptions.builder().overviewShare(2).build()));
    assertEquals(message(() -> SETreeConfig.builder().overviewTemperature(0).build()),
        message(() -> RetrieveOptions.builder().overviewTemperature(0).build()));
    assertEquals(message(() -> SETreeConfig.builder().secondHop(3).build()),
        message(() -> RetrieveOptions.builder().secondHop(3).build()));
    assertEquals("overview_temperature must be > 0, got 0", message(() -> RetrieveOptions.builder()
        .overviewTemperature(0).build()));
  }

  /** second_hop has one type, an int (the deprecated string API is gone with issue 17's surface work). */
  @Test
  void secondHopIsAnInt() {
    assertEquals(0, SETreeConfig.defaults().secondHopLeaves());
    assertEquals(2, SETreeConfig.builder().secondHop(2).build().secondHopLeaves());
    assertEquals("second_hop must be \"off\", 1 or 2 (0 is off), got 3",
        message(() -> SETreeConfig.builder().secondHop(3).build()));
  }

  /**
   * context_window from code is the LLM's window (issue 17: it was ignored unless read from a file); the
   * facade's LlmConfig has no window of its own, so the window is set in one place.
   */
  @Test
  void contextWindowFromCodeIsTheLlmsWindow() {
    LlmConfig llm = LlmConfig.builder().baseUrl("http://localhost:8080/v1").model("m").build();
    SETreeConfig c = SETreeConfig.builder().contextWindow(4096).llm(llm).build();
    assertEquals(4096, c.llmSettings().contextWindow());
    assertEquals(2048, c.toBuilder().contextWindow(2048).build().llmSettings().contextWindow(), "changed after toBuilder");
    assertEquals(4096, SETreeConfig.builder().llm(llm).contextWindow(4096).build().llmSettings().contextWindow());
    assertEquals(8192, SETreeConfig.builder().llm(llm).build().llmSettings().contextWindow());
    String tooSmall = message(() -> SETreeConfig.builder().contextWindow(10).llm(llm).build());
    assertTrue(tooSmall.contains("context_window") && tooSmall.contains("10"), tooSmall);
    assertEquals(10, SETreeConfig.builder().contextWindow(10).build().contextWindow(), "no LLM: any window >= 1");
  }

  /** The llm section's numbers set from code get the file's check and message (one definition, issue 17). */
  @Test
  void llmNumbersFromCodeAreCheckedLikeTheFile() {
    LlmConfig.Builder b = LlmConfig.builder().baseUrl("http://localhost:8080/v1").model("m");
    assertEquals("llm.max_retries must be in [0, 10], got 11", message(() -> b.maxRetries(11).build()));
    b.maxRetries(3);
    assertEquals("llm.max_concurrency must be in [0, 256], got -1", message(() -> b.maxConcurrency(-1).build()));
    b.maxConcurrency(0);
    assertEquals("llm.read_timeout_ms must be in [1, 3600000], got 0",
        message(() -> b.readTimeout(java.time.Duration.ZERO).build()));
    b.readTimeout(java.time.Duration.ofMillis(1));
    assertEquals("llm.connect_timeout_ms must be in [1, 3600000], got -5",
        message(() -> b.connectTimeout(java.time.Duration.ofMillis(-5)).build()));
    b.connectTimeout(java.time.Duration.ofNanos(10));
    LlmConfig ok = b.build();
    assertEquals(ok, ok.toBuilder().build());
    assertTrue(message(() -> LlmConfig.builder().model("m").build()).contains("llm.base_url"));
    assertTrue(message(() -> LlmConfig.builder().baseUrl("localhost:8080").model("m").build()).contains("localhost:8080"));
    assertFalse(ok.toBuilder().apiKey("sk-secret").build().toString().contains("sk-secret"));
  }

  private static String message(org.junit.jupiter.api.function.Executable e) {
    return assertThrows(IllegalArgumentException.class, e).getMessage();
  }

  private Path write(String json) throws Exception {
    Path f = Files.createTempFile(dir, "cfg", ".json");
    Files.writeString(f, json);
    return f;
  }

  private SETreeConfig load(String json) throws Exception {
    return ConfigFile.load(write(json), Map.of()).build();
  }
}

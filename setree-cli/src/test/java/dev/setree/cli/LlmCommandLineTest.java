package dev.setree.cli;

import static dev.setree.cli.CommandLineTest.JSON;
import static dev.setree.cli.CommandLineTest.run;
import static dev.setree.cli.CommandLineTest.writeFacts;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.setree.cli.CommandLineTest.Run;
import dev.setree.testing.StubLlmServer;
import dev.setree.testing.StubReply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line with an LLM (the stub server, or a dead port) and with config files. */
class LlmCommandLineTest {

  static List<String> listing(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** A dead endpoint: non-zero exit, the URL in the message, the database file exactly as it was. */
  @Test
  void deadEndpointFailsTheBuildAndLeavesTheDatabaseAlone(@TempDir Path dir) throws Exception {
    Path facts = writeFacts(dir);
    Path db = dir.resolve("kb.db");
    assertEquals(0, run("build", "--db", db.toString(), "--facts", facts.toString()).code());
    byte[] before = Files.readAllBytes(db);
    List<String> filesBefore = listing(dir);
    String dead = StubLlmServer.deadBaseUrl();
    Run r = run("build", "--db", db.toString(), "--facts", facts.toString(), "--llm-base-url", dead,
        "--llm-model", "qwen2.5");
    assertNotEquals(0, r.code());
    assertTrue(r.err().contains("cannot reach the LLM at " + dead), r.err());
    assertTrue(r.err().contains("was not touched"), r.err());
    assertArrayEquals(before, Files.readAllBytes(db), "database bytes unchanged");
    assertEquals(filesBefore, listing(dir), "no journal or new file left behind");
    // A database that did not exist is not created.
    Path fresh = dir.resolve("fresh.db");
    Run f = run("build", "--db", fresh.toString(), "--facts", facts.toString(), "--llm-base-url", dead,
        "--llm-model", "m");
    assertNotEquals(0, f.code());
    assertFalse(Files.exists(fresh));
  }

  /** A build with the stub LLM; stats shows which summariser wrote the summaries. */
  @Test
  void buildWithTheStubLlmAndStatsShowKinds(@TempDir Path dir) throws Exception {
    Path facts = writeFacts(dir);
    Path db = dir.resolve("kb.db");
    try (StubLlmServer stub = StubLlmServer.start()) {
      stub.defaultReply(StubReply.summary("The user has hobbies."));
      Run b = run("build", "--db", db.toString(), "--facts", facts.toString(), "--llm-base-url", stub.baseUrl(),
          "--llm-model", "stub-model");
      assertEquals(0, b.code(), b.err());
      assertTrue(b.out().contains("fell back to extractive"), b.out());
      assertTrue(b.out().contains("0 fell back"), b.out());
      assertTrue(stub.chatRequestCount() > 0);
      assertEquals("stub-model", stub.chatRequests().get(0).model());
    }
    Run s = run("stats", "--db", db.toString(), "--json");
    assertEquals(0, s.code(), s.err());
    JsonNode stats = JSON.readTree(s.out());
    int internal = stats.get("internal_nodes").asInt();
    assertEquals(internal, stats.get("summarizers").get("llm").asInt());
    assertEquals(0, stats.get("summarizers").get("extractive").asInt());
    Run text = run("stats", "--db", db.toString());
    assertTrue(text.out().contains("summarizers extractive 0 llm " + internal), text.out());
  }

  /**
   * eval runs unchanged with an LLM summariser (the stub): overview prompts are scored on the LLM's summary
   * text, which the shown root carries and a flat list does not.
   */
  @Test
  void evalWithTheStubLlmScoresOverviewPrompts(@TempDir Path dir) throws Exception {
    Path facts = writeFacts(dir);
    Path queries = dir.resolve("queries.jsonl");
    Files.write(queries, List.of("{\"id\": \"q1\", \"prompt\": \"What does the user bake?\", "
        + "\"gold\": [\"cooking-01\"], \"category\": 4, \"answer\": \"sourdough\"}"));
    Path broad = dir.resolve("broad.jsonl");
    Files.write(broad, List.of("{\"id\": \"b1\", \"prompt\": \"Give me an overview of the user.\", "
        + "\"gold\": [\"cooking-01\"], \"category\": 6, \"answer\": \"\", "
        + "\"events\": [\"The user practises zymurgy.\"]}"));
    Path out = dir.resolve("eval.json");
    try (StubLlmServer stub = StubLlmServer.start()) {
      stub.defaultReply(StubReply.summary("The user practises zymurgy."));
      Run e = run("eval", "--facts", facts.toString(), "--queries", queries.toString(), "--broad", broad.toString(),
          "--budgets", "256", "--systems", "setree,hybrid", "--json", out.toString(),
          "--llm-base-url", stub.baseUrl(), "--llm-model", "stub");
      assertEquals(0, e.code(), e.err());
      assertTrue(stub.chatRequestCount() > 0, "the build summarised with the LLM");
    }
    double setree = -1;
    double hybrid = -1;
    for (JsonNode r : JSON.readTree(out.toFile()).get("results")) {
      if (r.get("categories").asText().equals("6")) {
        if (r.get("system").asText().equals("setree")) {
          setree = r.get("event_rouge1").asDouble();
        } else {
          hybrid = r.get("event_rouge1").asDouble();
        }
      }
    }
    assertEquals(1.0, setree, 1e-9, "the root's LLM summary carries every event word");
    assertTrue(hybrid < 0.5, "a list of leaves does not: " + hybrid);
  }

  /** Garbage for some nodes: the build completes, warns, and stats counts the fallbacks. */
  @Test
  void garbageFallsBackAndIsReported(@TempDir Path dir) throws Exception {
    Path facts = writeFacts(dir);
    Path db = dir.resolve("kb.db");
    try (StubLlmServer stub = StubLlmServer.start()) {
      stub.defaultReply(StubReply.summary("The user has hobbies."))
          .when(r -> r.userMessage().toLowerCase().contains("bread"), StubReply.html());
      Run b = run("build", "--db", db.toString(), "--facts", facts.toString(), "--llm-base-url", stub.baseUrl(),
          "--llm-model", "m");
      assertEquals(0, b.code(), b.err());
      assertTrue(b.err().contains("fell back to extractive; last LLM error: " + stub.baseUrl()), b.err());
      assertTrue(b.err().contains("HTML"), b.err());
    }
    JsonNode stats = JSON.readTree(run("stats", "--db", db.toString(), "--json").out());
    assertTrue(stats.get("summarizers").get("extractive").asInt() > 0, stats.toString());
    assertTrue(stats.get("summarizers").get("llm").asInt() > 0, stats.toString());
  }

  /** Flags beat the file; the file beats the defaults; bad files and {@code --config ""} are refused. */
  @Test
  void configFileAndFlags(@TempDir Path dir) throws Exception {
    Path facts = writeFacts(dir);
    Path db = dir.resolve("kb.db");
    Path cfg = dir.resolve("setree.json");
    Files.writeString(cfg, "{\"default_budget\": 64, \"maintenance\": {\"quiet_window_ms\": 100}}");
    assertEquals(0, run("build", "--db", db.toString(), "--facts", facts.toString(), "--config", cfg.toString())
        .code());
    JsonNode fromFile = JSON.readTree(run("retrieve", "--db", db.toString(), "--config", cfg.toString(), "--json",
        "cooking").out());
    assertEquals(64, fromFile.get("budget").asInt(), "the file's default_budget");
    JsonNode fromFlag = JSON.readTree(run("retrieve", "--db", db.toString(), "--config", cfg.toString(), "--budget",
        "100", "--json", "cooking").out());
    assertEquals(100, fromFlag.get("budget").asInt(), "the flag beats the file");
    JsonNode defaults = JSON.readTree(run("retrieve", "--db", db.toString(), "--json", "cooking").out());
    assertEquals(4096, defaults.get("budget").asInt());

    // The LLM URL flag beats the file's llm.base_url.
    byte[] before = Files.readAllBytes(db);
    String fileUrl = StubLlmServer.deadBaseUrl();
    String flagUrl = StubLlmServer.deadBaseUrl().replace("/v1", "/flag/v1");
    Path llmCfg = dir.resolve("llm.json");
    Files.writeString(llmCfg, "{\"llm\": {\"base_url\": \"" + fileUrl + "\", \"model\": \"m\", \"max_retries\": 0}}");
    Run dead = run("build", "--db", db.toString(), "--facts", facts.toString(), "--config", llmCfg.toString(),
        "--llm-base-url", flagUrl);
    assertEquals(1, dead.code());
    assertTrue(dead.err().contains(flagUrl), dead.err());
    assertTrue(dead.err().contains("1 attempt"), "max_retries from the file: " + dead.err());
    assertArrayEquals(before, Files.readAllBytes(db));

    Run empty = run("build", "--db", db.toString(), "--facts", facts.toString(), "--config", "");
    assertEquals(2, empty.code(), "a usage error");
    assertTrue(empty.err().contains("--config needs the path"), empty.err());

    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"calibration\": {\"epsilon\": -1}}");
    Run refused = run("stats", "--db", db.toString(), "--config", bad.toString());
    assertEquals(1, refused.code());
    assertTrue(refused.err().contains("'calibration.epsilon' in " + bad), refused.err());
    Run unknown = run("retrieve", "--db", db.toString(), "--config", dir.resolve("nope.json").toString(), "x");
    assertEquals(1, unknown.code());
    assertTrue(unknown.err().contains("nope.json does not exist"), unknown.err());

    Run noModel = run("build", "--db", db.toString(), "--facts", facts.toString(), "--llm-base-url", fileUrl);
    assertEquals(1, noModel.code());
    assertTrue(noModel.err().contains("cannot reach the LLM at " + fileUrl + " to list its models"), noModel.err());
    assertArrayEquals(before, Files.readAllBytes(db));
  }

  /** Without --llm-model the server's only or first model is used and named; no list is a clear error. */
  @Test
  void llmModelIsOptional(@TempDir Path dir) throws Exception {
    Path facts = writeFacts(dir);
    try (StubLlmServer stub = StubLlmServer.start()) {
      stub.models(200, "qwen2.5:3b", "llama3.2:1b");
      Path db = dir.resolve("kb.db");
      Run b = run("build", "--db", db.toString(), "--facts", facts.toString(), "--llm-base-url", stub.baseUrl());
      assertEquals(0, b.code(), b.err());
      assertTrue(b.err().contains("no --llm-model given; using 'qwen2.5:3b', the first of 2 models"), b.err());
      assertTrue(stub.chatRequestCount() > 0);
      assertTrue(stub.chatRequests().stream().allMatch(r -> "qwen2.5:3b".equals(r.model())), "the chosen model is sent");

      stub.models(200, "local");
      Run one = run("build", "--db", db.toString(), "--facts", facts.toString(), "--llm-base-url", stub.baseUrl());
      assertEquals(0, one.code(), one.err());
      assertTrue(one.err().contains("using 'local', the only model at " + stub.baseUrl()), one.err());

      byte[] before = Files.readAllBytes(db);
      stub.models(200);
      Run none = run("build", "--db", db.toString(), "--facts", facts.toString(), "--llm-base-url", stub.baseUrl());
      assertEquals(1, none.code());
      assertTrue(none.err().contains("lists no models") && none.err().contains("--llm-model"), none.err());
      stub.models(404);
      Run noEndpoint = run("build", "--db", db.toString(), "--facts", facts.toString(), "--llm-base-url", stub.baseUrl());
      assertEquals(1, noEndpoint.code());
      assertTrue(noEndpoint.err().contains("has no model list: GET " + stub.baseUrl() + "/models answered HTTP 404"),
          noEndpoint.err());
      assertArrayEquals(before, Files.readAllBytes(db), "a refused build leaves the file as it was");
    }
  }
}

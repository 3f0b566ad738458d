package dev.setree.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.BuildProgress;
import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tools in-process on the test embedder: schemas, argument checks and the admin tools' edge cases. */
class KnowledgeBaseToolsTest {
  static SETreeConfig config(int dim) {
    return SETreeConfig.builder().embedder(new HashEmbedder(dim)).tokenCounter(new SimpleTokenCounter())
        .quietWindowMillis(50).build();
  }

  static String text(CallToolResult r) {
    return r.content().stream().map(c -> ((TextContent) c).text()).collect(Collectors.joining("\n"));
  }

  static void assertError(CallToolResult r, String... fragments) {
    assertTrue(Boolean.TRUE.equals(r.isError()), "expected an error: " + text(r));
    for (String f : fragments) {
      assertTrue(text(r).contains(f), "'" + f + "' missing in: " + text(r));
    }
  }

  static void assertOk(CallToolResult r) {
    assertFalse(Boolean.TRUE.equals(r.isError()), text(r));
  }

  @Test
  void everyToolHasASchemaThatNamesItsArguments(@TempDir Path dir) {
    try (KnowledgeBaseTools tools = new KnowledgeBaseTools(dir.resolve("kb.db"), config(48))) {
      assertEquals(7, tools.specifications().size());
      Map<String, List<String>> required = Map.of("retrieve", List.of("prompt"), "insert", List.of("assertion"),
          "build", List.of("assertions"), "setr_switch", List.of("db"));
      for (String name : KnowledgeBaseTools.TOOL_NAMES) {
        Tool t = tools.tool(name);
        assertEquals("object", t.inputSchema().get("type"));
        assertEquals(false, t.inputSchema().get("additionalProperties"));
        assertEquals(required.get(name), t.inputSchema().get("required"), name);
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> assertions = (Map<String, Object>) ((Map<String, Object>) tools.tool("build")
          .inputSchema().get("properties")).get("assertions");
      assertEquals(2, assertions.get("minItems"));
    }
  }

  @Test
  void badArgumentsSayWhatToDo(@TempDir Path dir) {
    try (KnowledgeBaseTools tools = new KnowledgeBaseTools(dir.resolve("kb.db"), config(48))) {
      assertError(tools.call("retrieve", Map.of("prompt", 42)), "'prompt' must be a string");
      assertError(tools.call("retrieve", Map.of("prompt", "x", "budget", 1.5)), "'budget' must be an integer");
      assertError(tools.call("retrieve", Map.of("prompt", "x", "budget", 1e12)), "too large");
      assertError(tools.call("retrieve", Map.of("prompt", "x", "promt", "y")), "unknown argument(s) [promt]",
          "prompt, budget");
      assertError(tools.call("insert", Map.of("assertion", "x".repeat(Fact.MAX_CHARS + 1))), "split it");
      assertError(tools.call("build", Map.of("assertions", "one string")), "must be an array of strings");
      assertError(tools.call("build", Map.of("assertions", List.of("a", 3))), "assertion 2 of 2 is 3");
      assertError(tools.call("build", Map.of()), "build needs 'assertions'");
      assertError(tools.call("stats", Map.of("verbose", true)), "takes no arguments");
      assertError(tools.call("setr_switch", Map.of()), "setr_switch needs 'db'");
      assertError(tools.call("setr_switch", Map.of("db", dir.toString())), "is a directory");
      assertError(tools.call("no_such_tool", null), "unknown tool", "retrieve, insert");
      Map<String, Object> nullBudget = new HashMap<>();
      nullBudget.put("prompt", "anything");
      nullBudget.put("budget", null);
      assertOk(tools.call("retrieve", nullBudget));
      assertOk(tools.call("retrieve", Map.of("prompt", "x", "budget", 0)));
      // a number sent as a string is refused: the schema says integer
      assertError(tools.call("retrieve", Map.of("prompt", "x", "budget", "50")), "'budget' must be a JSON number",
          "the string \"50\"", "{\"budget\": 50}");
      // a prompt is a request, not a document: capped with a clear error before any work
      long t0 = System.nanoTime();
      assertError(tools.call("retrieve", Map.of("prompt", "word ".repeat(1_000_000))), "'prompt' has 5000000"
          + " characters", "at most " + KnowledgeBaseTools.MAX_PROMPT_CHARS);
      assertTrue(System.nanoTime() - t0 < 1_000_000_000L, "refused at once");
      assertOk(tools.call("retrieve", Map.of("prompt", "x".repeat(KnowledgeBaseTools.MAX_PROMPT_CHARS))));
      assertError(tools.call("build", Map.of("assertions", List.of("a fact", "y".repeat(Fact.MAX_CHARS + 1)))),
          "assertion 2 has", "split it");
    }
  }

  @Test
  void aHostsKnowledgeBaseGetsNoAdminToolsAndStaysOpen(@TempDir Path dir) {
    try (SETree kb = SETree.open(dir.resolve("host.db"), config(48))) {
      kb.build(Corpora.personal().subList(0, 8), BuildProgress.NONE);
      try (KnowledgeBaseTools tools = new KnowledgeBaseTools(kb)) {
        assertEquals(KnowledgeBaseTools.HOSTED_TOOL_NAMES,
            tools.specifications().stream().map(t -> t.tool().name()).toList());
        assertError(tools.call("reset", Map.of()), "unknown tool 'reset'", "retrieve, insert, build");
        assertError(tools.call("setr_switch", Map.of("db", dir.resolve("x.db").toString())), "unknown tool");
        assertTrue(text(tools.call("retrieve", Map.of("prompt", Corpora.personal().get(3).text())))
            .contains(Corpora.personal().get(3).text()));
      }
      assertEquals(8, kb.stats().leaves(), "closing the tools leaves the host's knowledge base open");
      assertFalse(Files.exists(dir.resolve("x.db")));
    }
  }

  @Test
  void switchRefusesAnotherEmbeddersKnowledgeBase(@TempDir Path dir) {
    Path foreign = dir.resolve("foreign.db");
    try (SETree kb = SETree.open(foreign, config(32))) {
      kb.build(Corpora.personal().subList(0, 5), BuildProgress.NONE);
    }
    Path db = dir.resolve("kb.db");
    try (KnowledgeBaseTools tools = new KnowledgeBaseTools(db, config(48))) {
      assertError(tools.call("setr_switch", Map.of("db", foreign.toString())), foreign.toString(),
          "Still serving " + db);
      assertOk(tools.call("setr_switch", Map.of("db", db.toString())));
      assertTrue(text(tools.call("setr_switch", Map.of("db", db.toString()))).startsWith("already serving"));
    }
  }

  @Test
  void resetDeletesAndRecreatesTheFile(@TempDir Path dir) {
    Path db = dir.resolve("kb.db");
    // No maintenance run may apply the insert before reset counts it: a quiet window the test never reaches.
    SETreeConfig noMaintenance = SETreeConfig.builder().embedder(new HashEmbedder(48))
        .tokenCounter(new SimpleTokenCounter()).quietWindowMillis(3_600_000).build();
    try (KnowledgeBaseTools tools = new KnowledgeBaseTools(db, noMaintenance)) {
      List<String> texts = Corpora.personal().subList(0, 12).stream().map(Fact::text).toList();
      assertOk(tools.call("build", Map.of("assertions", texts)));
      // The snapshot shows the leaves a moment before the build's state says done: wait for the state.
      assertEquals("done", tools.awaitLastBuild(60_000));
      assertTrue(text(tools.call("stats", Map.of())).contains("build done"));
      assertTrue(text(tools.call("stats", Map.of())).contains("leaves 12"));
      assertOk(tools.call("insert", Map.of("assertion", "the user collects stamps")));
      CallToolResult reset = tools.call("reset", Map.of());
      assertOk(reset);
      assertTrue(text(reset).contains("dropped 12 leaves and 1 pending mutation(s)"), text(reset));
      assertTrue(text(tools.call("stats", Map.of())).contains("leaves 0"));
      assertTrue(Files.exists(db));
      assertOk(tools.call("insert", Map.of("assertion", "the user collects coins")));
    }
    assertFalse(Files.exists(Path.of(db + "-wal")));
  }

  /**
   * The CLI closes the tools twice at once when a client ends the session: its main thread on end of
   * input and its shutdown hook on the client's SIGTERM. The JVM halts once the hook returns, so the hook's
   * close must not return before the other one has checkpointed the file.
   */
  @Test
  void aSecondCloseReturnsOnlyOnceTheFileIsCheckpointed(@TempDir Path dir) throws Exception {
    Path db = dir.resolve("kb.db");
    Path wal = Path.of(db + "-wal");
    for (int round = 0; round < 5; round++) {
      KnowledgeBaseTools tools = new KnowledgeBaseTools(db, config(48));
      List<String> texts = Corpora.personal().subList(0, 40).stream().map(Fact::text).toList();
      assertOk(tools.call("build", Map.of("assertions", texts)));
      assertEquals("done", tools.awaitLastBuild(60_000));
      assertTrue(Files.exists(wal), "the open knowledge base is in WAL mode");
      CyclicBarrier start = new CyclicBarrier(2);
      ConcurrentLinkedQueue<Boolean> walSeenOnReturn = new ConcurrentLinkedQueue<>();
      Runnable close = () -> {
        try {
          start.await();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
        tools.close();
        walSeenOnReturn.add(Files.exists(wal));
      };
      Thread a = new Thread(close);
      Thread b = new Thread(close);
      a.start();
      b.start();
      a.join(60_000);
      b.join(60_000);
      assertEquals(List.of(false, false), List.copyOf(walSeenOnReturn), "round " + round);
      SETree.deleteFiles(db);
    }
  }
}

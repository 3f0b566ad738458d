package dev.setree.cli.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.setree.mcp.KnowledgeBaseTools;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code setree mcp} as a separate process, driven over stdio by the MCP Java SDK's own client: initialise,
 * list the seven tools, build, wait, retrieve, insert, maintain, stats, and the errors a client can cause,
 * after which the server keeps serving. The server loads the real MiniLM model.
 */
class McpServerProcessTest {
  static final ObjectMapper JSON = new ObjectMapper();

  /** A running server and its client; closing shuts the client down and waits for the process to exit. */
  static final class Session implements AutoCloseable {
    final McpSyncClient client;
    final List<String> stderr = Collections.synchronizedList(new ArrayList<>());
    final String marker;

    Session(Path db, String... extra) {
      marker = db.toString();
      List<String> args = new ArrayList<>(List.of("-Dai.djl.offline=true", "-cp",
          System.getProperty("java.class.path"), "dev.setree.cli.Main", "mcp", "--db", db.toString()));
      args.addAll(List.of(extra));
      ServerParameters params = ServerParameters.builder(
          Path.of(System.getProperty("java.home"), "bin", "java").toString()).args(args).build();
      StdioClientTransport transport = new StdioClientTransport(params, new JacksonMcpJsonMapper(new ObjectMapper()));
      transport.setStdErrorHandler(stderr::add);
      client = McpClient.sync(transport)
          .clientInfo(McpSchema.Implementation.builder("setree-test", "1.0").build())
          .requestTimeout(Duration.ofSeconds(60))
          .initializationTimeout(Duration.ofSeconds(60))
          .build();
    }

    CallToolResult call(String tool, Map<String, Object> args) {
      return client.callTool(McpSchema.CallToolRequest.builder(tool).arguments(args).build());
    }

    /** The server process (a child of this JVM whose arguments name this session's database). */
    Optional<ProcessHandle> process() {
      return ProcessHandle.current().children()
          .filter(p -> p.info().arguments().map(a -> List.of(a).contains(marker)).orElse(false))
          .findFirst();
    }

    @Override
    public void close() {
      Optional<ProcessHandle> p = process();
      client.closeGracefully();
      if (p.isPresent()) {
        try {
          p.get().onExit().get(20, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
          p.get().destroyForcibly();
          fail("the server did not exit within 20 s after the client closed");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          p.get().destroyForcibly();
        } catch (java.util.concurrent.ExecutionException e) {
          throw new AssertionError(e);
        }
      }
    }
  }

  static String text(CallToolResult r) {
    return r.content().stream().filter(c -> c instanceof TextContent).map(c -> ((TextContent) c).text())
        .collect(Collectors.joining("\n"));
  }

  static boolean isError(CallToolResult r) {
    return Boolean.TRUE.equals(r.isError());
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> structured(CallToolResult r) {
    assertNotNull(r.structuredContent(), "structured content in " + r);
    return (Map<String, Object>) r.structuredContent();
  }

  static int intOf(Map<String, Object> m, String key) {
    return ((Number) m.get(key)).intValue();
  }

  /** Calls stats until {@code done} holds, at most {@code seconds}. */
  static Map<String, Object> awaitStats(Session s, int seconds, Predicate<Map<String, Object>> done) throws Exception {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    Map<String, Object> last = null;
    while (System.nanoTime() < end) {
      CallToolResult r = s.call("stats", Map.of());
      assertFalse(isError(r), text(r));
      last = structured(r);
      if (done.test(last)) {
        return last;
      }
      Thread.sleep(100);
    }
    fail("stats did not reach the expected state within " + seconds + " s; last: " + last);
    return last;
  }

  @Test
  @Timeout(120)
  void sevenToolsOverStdio(@TempDir Path dir) throws Exception {
    Path db = dir.resolve("kb.db");
    List<Fact> facts = Corpora.personal().subList(0, 30);
    try (Session s = new Session(db)) {
      McpSchema.InitializeResult init = s.client.initialize();
      assertEquals("setree", init.serverInfo().name());
      assertNotNull(init.capabilities().tools(), "the server offers tools");

      // tools/list: the seven tools, each with an object input schema and a description
      ListToolsResult tools = s.client.listTools();
      System.out.println("tools/list answer: " + JSON.writerWithDefaultPrettyPrinter().writeValueAsString(tools));
      assertEquals(KnowledgeBaseTools.TOOL_NAMES,
          tools.tools().stream().map(McpSchema.Tool::name).toList());
      for (McpSchema.Tool t : tools.tools()) {
        assertNotNull(t.inputSchema(), t.name() + " has an input schema");
        assertEquals("object", t.inputSchema().get("type"), t.name());
        assertTrue(t.description() != null && t.description().length() > 60, t.name() + " is described");
      }
      assertEquals(List.of("prompt"), tools.tools().get(0).inputSchema().get("required"));

      // an empty knowledge base answers retrieve with an empty context
      CallToolResult empty = s.call("retrieve", Map.of("prompt", "what does the user cook?"));
      assertFalse(isError(empty), text(empty));
      assertEquals("", structured(empty).get("context"));
      assertEquals(0, intOf(structured(empty), "leaves"));

      // build runs in the background; stats shows when it is done
      List<String> texts = facts.stream().map(Fact::text).toList();
      CallToolResult built = s.call("build", Map.of("assertions", texts));
      assertFalse(isError(built), text(built));
      assertTrue(text(built).startsWith("build queued"), text(built));
      // the tree is visible a moment before the job records "done": wait for both
      Map<String, Object> st = awaitStats(s, 30, m -> intOf(m, "leaves") > 0
          && m.get("build") instanceof Map<?, ?> b && !"running".equals(b.get("state")));
      assertEquals(facts.size(), intOf(st, "leaves"));
      assertTrue(intOf(st, "nodes") > facts.size());
      @SuppressWarnings("unchecked")
      Map<String, Object> build = (Map<String, Object>) st.get("build");
      assertEquals("done", build.get("state"), String.valueOf(build));

      // retrieve finds a known fact
      Fact known = facts.get(7);
      CallToolResult got = s.call("retrieve", Map.of("prompt", known.text(), "budget", 256));
      assertFalse(isError(got), text(got));
      assertTrue(text(got).contains(known.text()), "the context holds '" + known.text() + "':\n" + text(got));
      Map<String, Object> ctx = structured(got);
      assertTrue(intOf(ctx, "tokens_used") <= 256 && intOf(ctx, "tokens_used") > 0, ctx.toString());
      assertTrue(ctx.get("complete") instanceof Boolean);
      assertTrue(text(got).contains("tokens_used: " + intOf(ctx, "tokens_used") + " of 256"), text(got));

      // insert is acknowledged once durable, maintenance makes it visible
      String fact = "The user adopted a three-legged cat named Pixel from the shelter in March.";
      CallToolResult ins = s.call("insert", Map.of("assertion", fact));
      assertFalse(isError(ins), text(ins));
      assertTrue(text(ins).startsWith("insert queued"), text(ins));
      CallToolResult tm = s.call("trigger_maintain", Map.of());
      assertFalse(isError(tm), text(tm));
      assertTrue(text(tm).startsWith("maintenance requested"), text(tm));
      st = awaitStats(s, 30, m -> intOf(m, "leaves") == facts.size() + 1 && intOf(m, "pending_mutations") == 0);
      assertEquals(null, st.get("last_maintenance_error"));
      assertTrue(text(s.call("stats", Map.of())).contains("leaves " + (facts.size() + 1)));
      CallToolResult cat = s.call("retrieve", Map.of("prompt", "Does the user have a cat called Pixel?", "budget", 256));
      assertTrue(text(cat).contains(fact), text(cat));

      // errors: a result with isError and a message that says what to do
      CallToolResult noPrompt = s.call("retrieve", Map.of());
      assertTrue(isError(noPrompt));
      assertTrue(text(noPrompt).contains("retrieve needs 'prompt'"), text(noPrompt));
      CallToolResult negative = s.call("retrieve", Map.of("prompt", "x", "budget", -1));
      assertTrue(isError(negative));
      assertTrue(text(negative).contains("'budget' must be an integer >= 0"), text(negative));
      CallToolResult one = s.call("build", Map.of("assertions", List.of("only one fact")));
      assertTrue(isError(one));
      assertTrue(text(one).contains("at least 2"), text(one));
      CallToolResult blank = s.call("insert", Map.of("assertion", "   "));
      assertTrue(isError(blank));
      assertTrue(text(blank).contains("'assertion' is empty"), text(blank));
      CallToolResult blankFact = s.call("build", Map.of("assertions", List.of("a fact", " ")));
      assertTrue(isError(blankFact));
      assertTrue(text(blankFact).contains("assertion 2 of 2 is empty"), text(blankFact));

      // switching to a file that is not a knowledge base is refused, names the problem, touches nothing
      Path notes = dir.resolve("notes.txt");
      Files.writeString(notes, "shopping list: eggs, flour, milk\n".repeat(10));
      byte[] before = Files.readAllBytes(notes);
      CallToolResult sw = s.call("setr_switch", Map.of("db", notes.toString()));
      assertTrue(isError(sw));
      assertTrue(text(sw).contains(notes.toString()) && text(sw).contains("is not a SQLite database"), text(sw));
      assertTrue(text(sw).contains("Still serving " + db), text(sw));
      assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(notes)), "the refused file is untouched");

      // ... and the server keeps serving the same knowledge base
      CallToolResult after = s.call("retrieve", Map.of("prompt", known.text(), "budget", 256));
      assertFalse(isError(after), text(after));
      assertTrue(text(after).contains(known.text()));
      assertEquals(db.toString(), structured(s.call("stats", Map.of())).get("db"));

      // admin: switch to a new file, back, then reset
      Path other = dir.resolve("other.db");
      CallToolResult sw2 = s.call("setr_switch", Map.of("db", other.toString()));
      assertFalse(isError(sw2), text(sw2));
      assertEquals(0, intOf(structured(s.call("stats", Map.of())), "leaves"));
      CallToolResult back = s.call("setr_switch", Map.of("db", db.toString()));
      assertFalse(isError(back), text(back));
      assertEquals(facts.size() + 1, intOf(structured(s.call("stats", Map.of())), "leaves"));
      CallToolResult reset = s.call("reset", Map.of());
      assertFalse(isError(reset), text(reset));
      assertTrue(text(reset).startsWith("knowledge base emptied"), text(reset));
      Map<String, Object> emptied = structured(s.call("stats", Map.of()));
      assertEquals(0, intOf(emptied, "leaves"));
      assertEquals(0, intOf(emptied, "pending_mutations"));
      assertEquals("", structured(s.call("retrieve", Map.of("prompt", known.text()))).get("context"));
    }
    // a clean shutdown checkpoints the database back into one file
    assertFalse(Files.exists(Path.of(db + "-wal")), "no WAL left behind");
  }

  /**
   * A server started on a file that is not a knowledge base, with an LLM that does not answer: every tool
   * says what is wrong and what to do, reset does not delete the file, and setr_switch recovers.
   */
  @Test
  @Timeout(120)
  void degradedServerKeepsServing(@TempDir Path dir) throws Exception {
    Path notes = dir.resolve("notes.txt");
    Files.writeString(notes, "not a database\n".repeat(40));
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    String deadUrl = "http://127.0.0.1:" + deadPort + "/v1";
    Path config = dir.resolve("setree.json");
    Files.writeString(config, "{\"llm\": {\"base_url\": \"" + deadUrl + "\", \"model\": \"local\","
        + " \"max_retries\": 0, \"connect_timeout_ms\": 2000}}");
    try (Session s = new Session(notes, "--config", config.toString())) {
      s.client.initialize();
      assertEquals(7, s.client.listTools().tools().size());

      CallToolResult r = s.call("retrieve", Map.of("prompt", "anything"));
      assertTrue(isError(r));
      assertTrue(text(r).contains("no knowledge base is open") && text(r).contains("is not a SQLite database")
          && text(r).contains("setr_switch"), text(r));
      CallToolResult st = s.call("stats", Map.of());
      assertTrue(isError(st));
      CallToolResult reset = s.call("reset", Map.of());
      assertTrue(isError(reset));
      assertTrue(text(reset).contains("not deleted"), text(reset));
      assertTrue(Files.exists(notes), "reset never deletes a file that is not a knowledge base");

      Path fresh = dir.resolve("fresh.db");
      CallToolResult sw = s.call("setr_switch", Map.of("db", fresh.toString()));
      assertFalse(isError(sw), text(sw));
      assertTrue(text(sw).contains("new, empty knowledge base"), text(sw));

      // the LLM is needed to build: refused up front, naming the URL
      CallToolResult b = s.call("build", Map.of("assertions", List.of("the user likes tea", "the user hikes")));
      assertTrue(isError(b), text(b));
      assertTrue(text(b).contains(deadUrl) && text(b).contains("Start the LLM server"), text(b));
      // an insert is still stored; maintenance needs the LLM and says so
      CallToolResult ins = s.call("insert", Map.of("assertion", "the user likes green tea"));
      assertFalse(isError(ins), text(ins));
      CallToolResult tm = s.call("trigger_maintain", Map.of());
      assertTrue(isError(tm), text(tm));
      assertTrue(text(tm).contains(deadUrl) && text(tm).contains("pending mutation(s) stay stored"), text(tm));
      // still serving
      CallToolResult ok = s.call("retrieve", Map.of("prompt", "tea"));
      assertFalse(isError(ok), text(ok));
      assertEquals(1, intOf(structured(ok), "pending_mutations"));
    }
  }
}

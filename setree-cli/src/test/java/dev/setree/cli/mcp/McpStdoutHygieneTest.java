package dev.setree.cli.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Standard output of {@code setree mcp} carries the protocol and nothing else: every line it writes through
 * a build, a maintenance run and retrieves is one JSON-RPC message; the process exits 0 when its stdin
 * closes and leaves the database as one file.
 */
class McpStdoutHygieneTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @Test
  @Timeout(90)
  void stdoutCarriesOnlyJsonRpc(@TempDir Path dir) throws Exception {
    Path db = dir.resolve("kb.db");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dai.djl.offline=true", "-cp", System.getProperty("java.class.path"), "dev.setree.cli.Main", "mcp",
        "--db", db.toString())
        .redirectError(dir.resolve("stderr.txt").toFile())
        .start();
    List<String> lines = Collections.synchronizedList(new ArrayList<>());
    BlockingQueue<JsonNode> responses = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          lines.add(line);
          try {
            responses.add(JSON.readTree(line));
          } catch (Exception notJson) {
            // counted below: every line must be JSON
          }
        }
      } catch (Exception e) {
        // the process ended
      }
    }, "stdout-reader");
    reader.start();
    OutputStream in = p.getOutputStream();
    try {
      int[] id = {0};
      java.util.function.BiFunction<String, Object, JsonNode> request = (method, params) -> {
        try {
          ObjectNode msg = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ++id[0]).put("method", method);
          msg.set("params", JSON.valueToTree(params));
          in.write((JSON.writeValueAsString(msg) + "\n").getBytes(StandardCharsets.UTF_8));
          in.flush();
          long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
          while (System.nanoTime() < end) {
            JsonNode r = responses.poll(100, TimeUnit.MILLISECONDS);
            if (r != null && r.path("id").asInt(-1) == id[0]) {
              return r;
            }
          }
          throw new AssertionError("no answer to " + method + "; stderr: " + Files.readString(dir.resolve("stderr.txt")));
        } catch (java.io.IOException | InterruptedException e) {
          throw new AssertionError(e);
        }
      };
      JsonNode init = request.apply("initialize", Map.of("protocolVersion", "2025-06-18",
          "capabilities", Map.of(), "clientInfo", Map.of("name", "raw", "version", "1")));
      assertEquals("setree", init.at("/result/serverInfo/name").asText(), init.toString());
      in.write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
      assertEquals(7, request.apply("tools/list", Map.of()).at("/result/tools").size());
      JsonNode b = request.apply("tools/call", Map.of("name", "build", "arguments", Map.of("assertions",
          List.of("the user drinks green tea every morning", "the user hikes in the Alps each summer",
              "the user writes Java 17 at work", "the user plays chess on Sundays"))));
      assertTrue(b.at("/result/content/0/text").asText().startsWith("build queued"), b.toString());
      waitForStats(request, s -> s.path("leaves").asInt() == 4);
      request.apply("tools/call", Map.of("name", "insert", "arguments", Map.of("assertion", "the user owns a cat")));
      request.apply("tools/call", Map.of("name", "trigger_maintain", "arguments", Map.of()));
      waitForStats(request, s -> s.path("leaves").asInt() == 5 && s.path("pending_mutations").asInt() == 0);
      JsonNode r = request.apply("tools/call", Map.of("name", "retrieve",
          "arguments", Map.of("prompt", "which pet does the user have?", "budget", 64)));
      assertFalse(r.at("/result/isError").asBoolean(), r.toString());
      assertTrue(r.at("/result/structuredContent/context").asText().contains("the user owns a cat"), r.toString());
      assertEquals(64, r.at("/result/structuredContent/budget").asInt());
    } finally {
      in.close(); // end of input: the server shuts down
    }
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the server exits when its input closes");
    reader.join(5000);
    assertEquals(0, p.exitValue(), Files.readString(dir.resolve("stderr.txt")));
    assertFalse(lines.isEmpty());
    for (String line : lines) {
      JsonNode n;
      try {
        n = JSON.readTree(line);
      } catch (Exception e) {
        fail("stdout carried a line that is not JSON: " + line);
        return;
      }
      assertEquals("2.0", n.path("jsonrpc").asText(), "not a JSON-RPC message: " + line);
    }
    String stderr = Files.readString(dir.resolve("stderr.txt"));
    assertTrue(stderr.contains("setree mcp: serving " + db), "logs go to stderr: " + stderr);
    assertTrue(stderr.contains("build done"), stderr);
    assertFalse(Files.exists(Path.of(db + "-wal")), "closed cleanly into one file");
  }

  private static void waitForStats(java.util.function.BiFunction<String, Object, JsonNode> request,
      java.util.function.Predicate<JsonNode> done) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    JsonNode last = null;
    while (System.nanoTime() < end) {
      last = request.apply("tools/call", Map.of("name", "stats", "arguments", Map.of()));
      JsonNode s = last.at("/result/structuredContent");
      assertNotNull(s);
      if (done.test(s)) {
        return;
      }
      Thread.sleep(100);
    }
    fail("stats never reached the expected state: " + last);
  }
}

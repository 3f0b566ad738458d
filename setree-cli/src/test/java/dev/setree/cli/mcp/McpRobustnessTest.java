package dev.setree.cli.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The defects of issue 16, each against a real {@code setree mcp} process spoken to in raw JSON-RPC lines: a
 * request before {@code initialize} is answered; a line that is not JSON gets -32700 and the server keeps
 * serving; {@code arguments} that are not an object get -32602; a budget sent as a string is refused; a 5 MB
 * prompt is refused at once; and the process exits when its stdin closes, even after all that.
 */
class McpRobustnessTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @Test
  @Timeout(120)
  void badInputNeverStopsTheServerAndEndOfInputEndsIt(@TempDir Path dir) throws Exception {
    Path db = dir.resolve("kb.db");
    Path stderr = dir.resolve("stderr.txt");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dai.djl.offline=true", "-cp", System.getProperty("java.class.path"), "dev.setree.cli.Main", "mcp",
        "--db", db.toString())
        .redirectError(stderr.toFile())
        .start();
    BlockingQueue<JsonNode> replies = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          replies.add(JSON.readTree(line)); // every stdout line must be JSON
        }
      } catch (Exception e) {
        // the process ended
      }
    }, "stdout-reader");
    reader.setDaemon(true);
    reader.start();
    OutputStream in = p.getOutputStream();
    try {
      // before initialize: answered with an error, not dropped
      JsonNode early = request(in, replies, stderr, 1, "tools/call", Map.of("name", "stats", "arguments", Map.of()));
      assertEquals(-32002, early.at("/error/code").asInt(), early.toString());
      assertTrue(early.at("/error/message").asText().contains("initialize"), early.toString());

      request(in, replies, stderr, 2, "initialize", Map.of("protocolVersion", "2025-06-18",
          "capabilities", Map.of(), "clientInfo", Map.of("name", "raw", "version", "1")));
      send(in, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

      // one malformed line: -32700, and every later request is still answered
      send(in, "{bad");
      JsonNode parse = next(replies, stderr);
      assertEquals(-32700, parse.at("/error/code").asInt(), parse.toString());
      assertTrue(parse.get("id").isNull(), parse.toString());
      assertEquals(7, request(in, replies, stderr, 3, "tools/list", Map.of()).at("/result/tools").size());

      // arguments that are not an object: -32602 (invalid params), not -32603 with a parser's text
      JsonNode notObject = request(in, replies, stderr, 4, "tools/call", Map.of("name", "retrieve", "arguments", "tea"));
      assertEquals(-32602, notObject.at("/error/code").asInt(), notObject.toString());
      assertTrue(notObject.at("/error/message").asText().contains("\"params.arguments\" must be an object"),
          notObject.toString());

      // a budget sent as a string is refused, saying what to send
      JsonNode str = request(in, replies, stderr, 5, "tools/call", Map.of("name", "retrieve",
          "arguments", Map.of("prompt", "tea", "budget", "50")));
      assertTrue(str.at("/result/isError").asBoolean(), str.toString());
      assertTrue(str.at("/result/content/0/text").asText().contains("'budget' must be a JSON number"), str.toString());

      // a 5 MB prompt and a 5 MB fact: refused at once with the limit
      long t0 = System.nanoTime();
      JsonNode huge = request(in, replies, stderr, 6, "tools/call", Map.of("name", "retrieve",
          "arguments", Map.of("prompt", "tea ".repeat(1_250_000))));
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertTrue(huge.at("/result/isError").asBoolean(), huge.toString());
      assertTrue(huge.at("/result/content/0/text").asText().contains("'prompt' has 5000000 characters"));
      assertTrue(ms < 10_000, "a 5 MB prompt took " + ms + " ms");
      System.out.println("5 MB prompt refused in " + ms + " ms (round trip)");
      JsonNode hugeFact = request(in, replies, stderr, 7, "tools/call", Map.of("name", "insert",
          "arguments", Map.of("assertion", "tea ".repeat(1_250_000))));
      assertTrue(hugeFact.at("/result/isError").asBoolean());
      assertTrue(hugeFact.at("/result/content/0/text").asText().contains("split it into several facts"));

      // still serving
      JsonNode ok = request(in, replies, stderr, 8, "tools/call", Map.of("name", "build", "arguments",
          Map.of("assertions", List.of("the user drinks green tea", "the user hikes in the Alps"))));
      assertFalse(ok.at("/result/isError").asBoolean(), ok.toString());
    } finally {
      in.close();
    }
    assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the server exits when its stdin closes");
    assertEquals(0, p.exitValue(), Files.readString(stderr));
  }

  static void send(OutputStream in, String line) throws Exception {
    in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    in.flush();
  }

  static JsonNode next(BlockingQueue<JsonNode> replies, Path stderr) throws Exception {
    JsonNode n = replies.poll(60, TimeUnit.SECONDS);
    if (n == null) {
      throw new AssertionError("no reply within 60 s; stderr: " + Files.readString(stderr));
    }
    return n;
  }

  static JsonNode request(OutputStream in, BlockingQueue<JsonNode> replies, Path stderr, int id, String method,
      Object params) throws Exception {
    send(in, JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", id, "method", method, "params", params)));
    JsonNode n = next(replies, stderr);
    assertEquals(id, n.path("id").asInt(-1), n.toString().length() > 400 ? n.toString().substring(0, 400) : n.toString());
    return n;
  }
}

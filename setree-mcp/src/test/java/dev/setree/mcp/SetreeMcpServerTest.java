package dev.setree.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.setree.BuildProgress;
import dev.setree.SETree;
import dev.setree.testing.Corpora;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SetreeMcpServer} embedded in a host over its own {@link SETree}, spoken to in raw JSON-RPC lines
 * through pipes: whatever arrives, every request is answered with the right JSON-RPC error and the server
 * keeps serving; the end of the input ends it.
 */
class SetreeMcpServerTest {
  static final ObjectMapper JSON = new ObjectMapper();

  /** The client end of a server: writes lines to its input, reads its output lines as JSON. */
  static final class Pipe implements AutoCloseable {
    final PipedOutputStream toServer = new PipedOutputStream();
    final PipedInputStream serverIn;
    final PipedInputStream fromServer = new PipedInputStream(1 << 20);
    final PipedOutputStream serverOut;
    final BlockingQueue<JsonNode> replies = new LinkedBlockingQueue<>();
    final Thread reader;

    Pipe() throws IOException {
      serverIn = new PipedInputStream(toServer, 1 << 20);
      serverOut = new PipedOutputStream(fromServer);
      reader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            replies.add(JSON.readTree(line));
          }
        } catch (IOException e) {
          // the server side closed
        }
      }, "test-reader");
      reader.setDaemon(true);
      reader.start();
    }

    void send(String line) throws IOException {
      toServer.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      toServer.flush();
    }

    JsonNode next() throws InterruptedException {
      JsonNode n = replies.poll(20, TimeUnit.SECONDS);
      assertNotNull(n, "no reply within 20 s");
      return n;
    }

    JsonNode request(int id, String method, String params) throws Exception {
      send("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":" + params + "}");
      JsonNode n = next();
      assertEquals(id, n.path("id").asInt(-1), n.toString());
      return n;
    }

    void initialize() throws Exception {
      JsonNode init = request(1, "initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
          + "\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}");
      assertEquals("setree", init.at("/result/serverInfo/name").asText(), init.toString());
      send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    }

    @Override
    public void close() throws IOException {
      toServer.close();
    }
  }

  static SETree kb(Path dir) {
    SETree kb = SETree.open(dir.resolve("host.db"), KnowledgeBaseToolsTest.config(48));
    kb.build(Corpora.personal().subList(0, 10), BuildProgress.NONE);
    return kb;
  }

  static void assertError(JsonNode reply, int code, String fragment) {
    assertEquals(code, reply.at("/error/code").asInt(), reply.toString());
    assertTrue(reply.at("/error/message").asText().contains(fragment), reply.toString());
  }

  @Test
  @Timeout(60)
  void aHostServesItsOwnKnowledgeBaseAndBadInputNeverStopsIt(@TempDir Path dir) throws Exception {
    try (SETree kb = kb(dir); Pipe pipe = new Pipe();
         SetreeMcpServer server = SetreeMcpServer.start(kb, pipe.serverIn, pipe.serverOut)) {
      // a request before initialize is answered, not dropped
      assertError(pipe.request(7, "tools/call", "{\"name\":\"stats\",\"arguments\":{}}"),
          LineTransport.NOT_INITIALIZED, "send \"initialize\"");
      pipe.initialize();

      // a line that is not JSON: -32700 with id null, then the server keeps answering
      pipe.send("{bad");
      JsonNode parse = pipe.next();
      assertTrue(parse.get("id").isNull(), parse.toString());
      assertError(parse, LineTransport.PARSE_ERROR, "not JSON");
      assertEquals(5, pipe.request(2, "tools/list", "{}").at("/result/tools").size(), "no admin tools");

      // JSON that is not a JSON-RPC message: -32600
      pipe.send("[1,2,3]");
      assertError(pipe.next(), LineTransport.INVALID_REQUEST, "a JSON object");
      pipe.send("{\"id\":3,\"method\":\"tools/list\"}");
      assertError(pipe.next(), LineTransport.INVALID_REQUEST, "\"jsonrpc\" must be \"2.0\"");

      // arguments that are not an object: -32602 naming the field
      assertError(pipe.request(4, "tools/call", "{\"name\":\"retrieve\",\"arguments\":\"what does the user do?\"}"),
          LineTransport.INVALID_PARAMS, "\"params.arguments\" must be an object");
      assertError(pipe.request(5, "tools/call", "{\"name\":42}"), LineTransport.INVALID_PARAMS, "params.name");

      // a budget sent as a string is a tool error that says what to send
      JsonNode s = pipe.request(6, "tools/call", "{\"name\":\"retrieve\",\"arguments\":{\"prompt\":\"tea\",\"budget\":\"50\"}}");
      assertTrue(s.at("/result/isError").asBoolean(), s.toString());
      assertTrue(s.at("/result/content/0/text").asText().contains("'budget' must be a JSON number"), s.toString());

      // and the tools still work
      String known = Corpora.personal().get(4).text();
      JsonNode r = pipe.request(8, "tools/call", "{\"name\":\"retrieve\",\"arguments\":" + JSON.writeValueAsString(
          java.util.Map.of("prompt", known, "budget", 256)) + "}");
      assertFalse(r.at("/result/isError").asBoolean(), r.toString());
      assertTrue(r.at("/result/structuredContent/context").asText().contains(known), r.toString());

      // end of input: the server stops, the host's knowledge base stays open
      pipe.close();
      Thread waiter = new Thread(() -> {
        try {
          server.awaitTermination();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      waiter.start();
      waiter.join(10_000);
      assertFalse(waiter.isAlive(), "awaitTermination returns when the input ends");
    }
  }

  @Test
  @Timeout(60)
  void aLineOverTheLimitIsRefusedAndSkipped(@TempDir Path dir) throws Exception {
    try (SETree kb = kb(dir); Pipe pipe = new Pipe();
         KnowledgeBaseTools tools = new KnowledgeBaseTools(kb);
         SetreeMcpServer server = SetreeMcpServer.start(tools, pipe.serverIn, pipe.serverOut, 4096)) {
      pipe.initialize();
      String big = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"retrieve\","
          + "\"arguments\":{\"prompt\":\"" + "x".repeat(200_000) + "\"}}}";
      pipe.send(big);
      JsonNode tooLong = pipe.next();
      assertError(tooLong, LineTransport.INVALID_REQUEST, "limit of 4096 bytes");
      assertEquals(5, pipe.request(10, "tools/list", "{}").at("/result/tools").size(), "still serving");
    }
  }
}

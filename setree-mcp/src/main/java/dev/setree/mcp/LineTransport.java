package dev.setree.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.publisher.Mono;

/**
 * The MCP stdio transport of {@link SetreeMcpServer}: one JSON-RPC message per line in each direction, read
 * on one thread and checked before the SDK's session sees it, so that no input can stop the server.
 *
 * <ul>
 *   <li>A line that is not JSON gets a {@code -32700} (parse error) reply with {@code id: null}; a JSON value
 *       that is not a JSON-RPC 2.0 message gets {@code -32600}; the server keeps serving.
 *   <li>A line longer than {@link #maxLineBytes} is skipped (never held in memory) and answered with
 *       {@code -32600} naming the limit.
 *   <li>A request other than {@code initialize} or {@code ping} before {@code initialize} gets {@code -32002}
 *       saying to initialise first (the SDK would leave it unanswered).
 *   <li>{@code tools/call} whose {@code params.name} is not a string or whose {@code params.arguments} is
 *       present but not an object gets {@code -32602} (invalid params) naming the field.
 *   <li>End of input (the client went away) closes the session and releases {@link #awaitEnd}.
 * </ul>
 *
 * <p>The SDK's own {@code StdioServerTransportProvider} stops reading after a line it cannot parse (and then
 * never sees the end of its input) and answers a request before {@code initialize} with nothing; see
 * {@code docs/adr/0013-mcp-module-and-ga-reactor.md}.
 */
final class LineTransport implements McpServerTransportProvider, McpServerTransport {
  private static final System.Logger LOG = System.getLogger(LineTransport.class.getName());

  /** JSON-RPC 2.0 error codes used here. */
  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int INVALID_PARAMS = -32602;
  /** Server-defined (-32000 to -32099): the session is not initialised yet. */
  static final int NOT_INITIALIZED = -32002;

  private final McpJsonMapper mapper;
  private final ObjectMapper json;
  private final InputStream in;
  private final OutputStream out;
  private final int maxLineBytes;
  private final CountDownLatch ended = new CountDownLatch(1);
  private final AtomicBoolean closing = new AtomicBoolean();
  private volatile boolean initializeSeen;
  private volatile McpServerSession session;

  LineTransport(McpJsonMapper mapper, ObjectMapper json, InputStream in, OutputStream out, int maxLineBytes) {
    this.mapper = Objects.requireNonNull(mapper);
    this.json = Objects.requireNonNull(json);
    this.in = Objects.requireNonNull(in);
    this.out = Objects.requireNonNull(out);
    if (maxLineBytes < 1024) {
      throw new IllegalArgumentException("maxLineBytes must be at least 1024, got " + maxLineBytes);
    }
    this.maxLineBytes = maxLineBytes;
  }

  // ------------------------------------------------------------- provider

  @Override
  public void setSessionFactory(McpServerSession.Factory factory) {
    this.session = factory.create(this);
    Thread reader = new Thread(this::readLoop, "setree-mcp-stdin");
    reader.setDaemon(true);
    reader.start();
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    McpServerSession s = session;
    return s == null ? Mono.empty() : s.sendNotification(method, params);
  }

  @Override
  public java.util.List<String> protocolVersions() {
    return McpServerTransportProvider.super.protocolVersions();
  }

  /** Waits until the input has ended (or the transport was closed). */
  void awaitEnd() throws InterruptedException {
    ended.await();
  }

  // ------------------------------------------------------------- session transport

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return Mono.fromRunnable(() -> {
      try {
        writeLine(mapper.writeValueAsBytes(message));
      } catch (IOException e) {
        if (!closing.get()) {
          LOG.log(Level.WARNING, "cannot write an MCP message: " + e.getMessage());
        }
      }
    });
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    return mapper.convertValue(data, typeRef);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(this::close);
  }

  @Override
  public void close() {
    closing.set(true);
    ended.countDown();
  }

  // ------------------------------------------------------------- reading

  private void readLoop() {
    try {
      ByteArrayOutputStream line = new ByteArrayOutputStream(4096);
      byte[] buf = new byte[65536];
      boolean tooLong = false;
      long lineBytes = 0;
      int n;
      while (!closing.get() && (n = in.read(buf)) >= 0) {
        int start = 0;
        for (int i = 0; i < n; i++) {
          if (buf[i] != '\n') {
            continue;
          }
          lineBytes += i - start;
          if (!tooLong) {
            line.write(buf, start, i - start);
            handleLine(line.toByteArray());
          } else {
            reportTooLong(lineBytes);
          }
          line.reset();
          tooLong = false;
          lineBytes = 0;
          start = i + 1;
        }
        int rest = n - start;
        lineBytes += rest;
        if (!tooLong && lineBytes > maxLineBytes) {
          tooLong = true;
          line.reset();
        }
        if (!tooLong) {
          line.write(buf, start, rest);
        }
      }
      if (tooLong) {
        reportTooLong(lineBytes);
      } else if (line.size() > 0) {
        handleLine(line.toByteArray());
      }
    } catch (IOException e) {
      if (!closing.get()) {
        LOG.log(Level.INFO, "standard input failed, stopping: " + e.getMessage());
      }
    } finally {
      McpServerSession s = session;
      if (s != null) {
        s.closeGracefully().onErrorResume(e -> Mono.empty()).subscribe();
      }
      ended.countDown();
    }
  }

  private void reportTooLong(long bytes) {
    sendError(null, INVALID_REQUEST, "Invalid Request: a message of " + bytes + " bytes exceeds this server's"
        + " limit of " + maxLineBytes + " bytes per line; it was ignored");
  }

  /** Checks one line and hands a well-formed message to the session; answers a bad one with an error. */
  void handleLine(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    if (text.isBlank()) {
      return;
    }
    JsonNode node;
    try {
      node = json.readTree(text);
    } catch (IOException e) {
      sendError(null, PARSE_ERROR, "Parse error: the line is not JSON (" + firstLine(e.getMessage())
          + "); send one JSON-RPC 2.0 message per line");
      return;
    }
    if (node == null || !node.isObject()) {
      sendError(null, INVALID_REQUEST, "Invalid Request: a JSON-RPC message is a JSON object, got "
          + (node == null ? "nothing" : node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)));
      return;
    }
    JsonNode id = node.get("id");
    JsonNode idForError = id != null && (id.isTextual() || id.isIntegralNumber()) ? id : null;
    if (!"2.0".equals(node.path("jsonrpc").asText(null))) {
      sendError(idForError, INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
      return;
    }
    JsonNode method = node.get("method");
    boolean isRequest = method != null && id != null && !id.isNull();
    if (method != null && !method.isTextual()) {
      sendError(idForError, INVALID_REQUEST, "Invalid Request: \"method\" must be a string");
      return;
    }
    if (method == null && !node.has("result") && !node.has("error")) {
      sendError(idForError, INVALID_REQUEST, "Invalid Request: a message needs \"method\" (a request or"
          + " notification) or \"result\"/\"error\" (a response)");
      return;
    }
    if (id != null && !id.isNull() && !(id.isTextual() || id.isIntegralNumber())) {
      sendError(null, INVALID_REQUEST, "Invalid Request: \"id\" must be a string or an integer");
      return;
    }
    if (isRequest) {
      String m = method.asText();
      if ("initialize".equals(m)) {
        initializeSeen = true;
      } else if (!initializeSeen && !"ping".equals(m)) {
        sendError(id, NOT_INITIALIZED, "Server not initialized: send \"initialize\" (then the"
            + " \"notifications/initialized\" notification) before \"" + m + "\"");
        return;
      }
      if ("tools/call".equals(m)) {
        String problem = toolsCallProblem(node.get("params"));
        if (problem != null) {
          sendError(id, INVALID_PARAMS, "Invalid params: " + problem);
          return;
        }
      }
    }
    McpSchema.JSONRPCMessage message;
    try {
      message = McpSchema.deserializeJsonRpcMessage(mapper, text);
    } catch (IOException | RuntimeException e) {
      sendError(isRequest ? id : null, INVALID_REQUEST, "Invalid Request: " + firstLine(e.getMessage()));
      return;
    }
    McpServerSession s = session;
    s.handle(message).onErrorResume(e -> {
      LOG.log(Level.WARNING, "handling " + (method == null ? "a response" : method.asText()) + " failed: "
          + e.getMessage());
      return Mono.empty();
    }).subscribe();
  }

  private static String toolsCallProblem(JsonNode params) {
    if (params == null || !params.isObject()) {
      return "tools/call needs \"params\": an object with \"name\" (a string) and \"arguments\" (an object)";
    }
    JsonNode name = params.get("name");
    if (name == null || !name.isTextual()) {
      return "tools/call needs \"params.name\": the tool's name as a string";
    }
    JsonNode arguments = params.get("arguments");
    if (arguments != null && !arguments.isNull() && !arguments.isObject()) {
      return "\"params.arguments\" must be an object of named arguments, e.g. {\"prompt\": \"...\"}, got "
          + describe(arguments);
    }
    return null;
  }

  private static String describe(JsonNode n) {
    if (n.isTextual()) {
      String s = n.asText();
      return "the string \"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
    }
    if (n.isArray()) {
      return "an array of " + n.size();
    }
    return n.getNodeType().toString().toLowerCase(java.util.Locale.ROOT) + " " + n;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "no detail";
    }
    int nl = s.indexOf('\n');
    String first = nl < 0 ? s : s.substring(0, nl);
    return first.length() > 200 ? first.substring(0, 200) + "..." : first;
  }

  private void sendError(JsonNode id, int code, String message) {
    ObjectNode reply = json.createObjectNode().put("jsonrpc", "2.0");
    if (id == null) {
      reply.putNull("id");
    } else {
      reply.set("id", id);
    }
    reply.putObject("error").put("code", code).put("message", message);
    try {
      writeLine(json.writeValueAsBytes(reply));
    } catch (IOException e) {
      if (!closing.get()) {
        LOG.log(Level.WARNING, "cannot write an MCP error reply: " + e.getMessage());
      }
    }
  }

  private void writeLine(byte[] message) throws IOException {
    synchronized (out) {
      out.write(message);
      out.write('\n');
      out.flush();
    }
  }
}

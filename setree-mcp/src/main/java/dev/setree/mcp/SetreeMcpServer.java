package dev.setree.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.setree.SETree;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;

/**
 * A Model Context Protocol server over a SETree knowledge base, for embedding in a host application (and
 * behind {@code setree mcp}): JSON-RPC messages one per line on an input and an output stream, served with
 * the official MCP Java SDK.
 *
 * <p>A host application serves its own, already open knowledge base; the admin tools ({@code reset},
 * {@code setr_switch}) are not offered then, and the knowledge base stays the host's to close:
 *
 * <pre>{@code
 * try (SETree kb = SETree.open(Path.of("kb.db"));
 *      SetreeMcpServer server = SetreeMcpServer.start(kb, System.in, System.out)) {
 *   server.awaitTermination();      // until the client closes the input
 * }
 * }</pre>
 *
 * <p>Whatever arrives on the input, the server keeps serving and answers every request: a line that is not
 * JSON gets a {@code -32700} error, a request before {@code initialize} gets {@code -32002}, a
 * {@code tools/call} with {@code arguments} that are not an object gets {@code -32602}, a line longer than
 * {@link #DEFAULT_MAX_LINE_BYTES} gets {@code -32600}; tool-level mistakes (a missing prompt, a budget that is
 * not a number, a prompt over {@link KnowledgeBaseTools#MAX_PROMPT_CHARS}) come back as tool results with
 * {@code isError}. The server stops when the input ends. Nothing but protocol messages is written to the
 * output stream; diagnostics go to {@link System.Logger} {@code dev.setree.mcp}.
 */
public final class SetreeMcpServer implements AutoCloseable {
  /** The server name reported to clients at initialisation. */
  public static final String NAME = "setree";

  /** The version reported to clients. */
  public static final String VERSION = "0.1.0";

  /** The longest input line (one JSON-RPC message) accepted, in bytes: 16 MiB. */
  public static final int DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

  static final String INSTRUCTIONS = "SETree holds the user's long-term memory: short facts organised into a tree"
      + " of summaries. Call retrieve with the user's request to get the relevant facts within a token budget"
      + " (summaries stand in for the rest). Call insert when the user states a durable new fact. stats shows"
      + " the knowledge base's size, pending inserts and errors. build replaces everything; reset and"
      + " setr_switch are admin tools: use them only when the user asks.";

  private final KnowledgeBaseTools tools;
  private final boolean ownsTools;
  private final LineTransport transport;
  private final McpSyncServer server;
  private volatile boolean closed;

  private SetreeMcpServer(KnowledgeBaseTools tools, boolean ownsTools, InputStream in, OutputStream out,
      int maxLineBytes) {
    this.tools = Objects.requireNonNull(tools, "tools");
    this.ownsTools = ownsTools;
    ObjectMapper objectMapper = new ObjectMapper();
    McpJsonMapper mapper = new JacksonMcpJsonMapper(objectMapper);
    this.transport = new LineTransport(mapper, objectMapper, Objects.requireNonNull(in, "in"),
        Objects.requireNonNull(out, "out"), maxLineBytes);
    this.server = McpServer.sync(transport)
        .serverInfo(NAME, VERSION)
        .instructions(INSTRUCTIONS)
        .capabilities(ServerCapabilities.builder().tools(false).build())
        .jsonMapper(mapper)
        .jsonSchemaValidator(new DefaultJsonSchemaValidator(objectMapper))
        // The tools check their own arguments, with messages that say what to do (see KnowledgeBaseTools).
        .validateToolInputs(false)
        .tools(tools.specifications())
        .build();
  }

  /**
   * Starts serving a host application's open knowledge base on the given streams (reading on a daemon
   * thread) and returns at once. The tools are {@code retrieve}, {@code insert}, {@code build},
   * {@code trigger_maintain} and {@code stats}; {@link #close} stops the server but leaves {@code kb} open.
   *
   * @param kb the knowledge base to serve; the caller keeps it open while serving and closes it afterwards
   * @param in the stream the client's messages arrive on, one JSON-RPC message per line
   * @param out the stream for protocol messages only
   * @return the running server
   */
  public static SetreeMcpServer start(SETree kb, InputStream in, OutputStream out) {
    return new SetreeMcpServer(new KnowledgeBaseTools(kb), true, in, out, DEFAULT_MAX_LINE_BYTES);
  }

  /**
   * Starts serving the given tools (for example {@code setree mcp}'s, which own their database file and
   * offer the admin tools) and returns at once. {@link #close} does not close {@code tools}.
   *
   * @param tools the tools and their knowledge base
   * @param in the stream the client's messages arrive on
   * @param out the stream for protocol messages only
   * @param maxLineBytes the longest message accepted, in bytes (at least 1024)
   * @return the running server
   */
  public static SetreeMcpServer start(KnowledgeBaseTools tools, InputStream in, OutputStream out, int maxLineBytes) {
    return new SetreeMcpServer(tools, false, in, out, maxLineBytes);
  }

  /**
   * Serves the tools until {@code in} reaches end of file (the client went away), then closes the MCP
   * session. The caller closes {@code tools}.
   *
   * @param tools the tools and their knowledge base
   * @param in the stream the client's messages arrive on (stdin)
   * @param out the stream for protocol messages only (stdout)
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public static void serve(KnowledgeBaseTools tools, InputStream in, OutputStream out) throws InterruptedException {
    try (SetreeMcpServer s = start(tools, in, out, DEFAULT_MAX_LINE_BYTES)) {
      s.awaitTermination();
    }
  }

  /**
   * Blocks until the input ends (the client closed it) or {@link #close} is called.
   *
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public void awaitTermination() throws InterruptedException {
    transport.awaitEnd();
  }

  /** Stops serving: closes the MCP session (and, for {@link #start(SETree, InputStream, OutputStream)}, the tools, not the knowledge base). Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      server.closeGracefully();
    } finally {
      transport.close();
      if (ownsTools) {
        tools.close();
      }
    }
  }
}

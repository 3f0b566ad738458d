package dev.setree.cli.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;

/**
 * Serves {@link KnowledgeBaseTools} as a Model Context Protocol server over stdio with the official MCP Java
 * SDK: JSON-RPC messages one per line on the given streams (the process's stdin and stdout), nothing else on
 * the output stream. {@link #serve} returns when the client closes the input stream.
 */
public final class SetreeMcpServer {
  /** The server name and version reported to clients at initialisation. */
  public static final String NAME = "setree";

  /** The version reported to clients. */
  public static final String VERSION = "0.1.0";

  static final String INSTRUCTIONS = "SETree holds the user's long-term memory: short facts organised into a tree"
      + " of summaries. Call retrieve with the user's request to get the relevant facts within a token budget"
      + " (summaries stand in for the rest). Call insert when the user states a durable new fact. stats shows"
      + " the knowledge base's size, pending inserts and errors. build replaces everything; reset and"
      + " setr_switch are admin tools: use them only when the user asks.";

  private SetreeMcpServer() {}

  /**
   * Serves the tools until {@code in} reaches end of file (the client went away), then closes the MCP
   * session. The caller closes {@code tools}.
   *
   * @param tools the tools and their knowledge base
   * @param in the stream the client's messages arrive on (stdin)
   * @param out the stream for protocol messages only (stdout)
   */
  public static void serve(KnowledgeBaseTools tools, InputStream in, OutputStream out) throws InterruptedException {
    ObjectMapper objectMapper = new ObjectMapper();
    McpJsonMapper mapper = new JacksonMcpJsonMapper(objectMapper);
    CountDownLatch eof = new CountDownLatch(1);
    StdioServerTransportProvider transport =
        new StdioServerTransportProvider(mapper, new EofWatchingInputStream(in, eof), out);
    McpSyncServer server = McpServer.sync(transport)
        .serverInfo(NAME, VERSION)
        .instructions(INSTRUCTIONS)
        .capabilities(ServerCapabilities.builder().tools(false).build())
        .jsonMapper(mapper)
        .jsonSchemaValidator(new DefaultJsonSchemaValidator(objectMapper))
        // The tools check their own arguments, with messages that say what to do (see KnowledgeBaseTools).
        .validateToolInputs(false)
        .tools(tools.specifications())
        .build();
    try {
      eof.await();
    } finally {
      server.closeGracefully();
    }
  }

  /** Counts down a latch when the wrapped stream ends or fails, so the server knows the client is gone. */
  private static final class EofWatchingInputStream extends FilterInputStream {
    private final CountDownLatch eof;

    EofWatchingInputStream(InputStream in, CountDownLatch eof) {
      super(in);
      this.eof = eof;
    }

    @Override
    public int read() throws IOException {
      try {
        int b = super.read();
        if (b < 0) {
          eof.countDown();
        }
        return b;
      } catch (IOException e) {
        eof.countDown();
        throw e;
      }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      try {
        int n = super.read(b, off, len);
        if (n < 0) {
          eof.countDown();
        }
        return n;
      } catch (IOException e) {
        eof.countDown();
        throw e;
      }
    }

    @Override
    public void close() throws IOException {
      eof.countDown();
      super.close();
    }
  }
}

package dev.setree.cli;

import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.spi.Embedder;
import dev.setree.mcp.KnowledgeBaseTools;
import dev.setree.mcp.SetreeMcpServer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code setree mcp}: serves a knowledge base to agents as a Model Context Protocol server over stdio (seven
 * tools: retrieve, insert, build, trigger_maintain, stats, reset, setr_switch). Standard output carries the
 * protocol only: everything else the process prints goes to standard error.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true,
    description = {"Serve a knowledge base to agents: an MCP server on stdin/stdout (logs on stderr).",
        "Tools: retrieve, insert, build, trigger_maintain, stats, and the admin tools reset and setr_switch."})
final class McpCommand implements Callable<Integer> {
  @Option(names = "--db", required = true, paramLabel = "FILE",
      description = "Knowledge-base file (created empty if missing).")
  Path db;

  @Mixin
  ConfigOptions options = new ConfigOptions();

  @Override
  public Integer call() throws Exception {
    PrintStream protocol = System.out;
    System.setOut(System.err); // nothing but MCP messages may reach stdout
    try {
      SETreeConfig given = options.builder().build();
      // Loaded once and shared by every knowledge base this server opens (setr_switch, reset).
      SETreeConfig config = SETree.withEmbedder(given);
      Embedder loaded = given.embedder() == null ? config.embedder() : null;
      try {
        KnowledgeBaseTools tools = new KnowledgeBaseTools(db, config);
        Thread hook = new Thread(tools::close, "setree-mcp-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
          SetreeMcpServer.serve(tools, System.in, protocol);
        } finally {
          tools.close();
          try {
            Runtime.getRuntime().removeShutdownHook(hook);
          } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
          }
        }
      } finally {
        if (loaded != null) {
          loaded.close();
        }
      }
    } finally {
      System.setOut(protocol);
    }
    return 0;
  }
}

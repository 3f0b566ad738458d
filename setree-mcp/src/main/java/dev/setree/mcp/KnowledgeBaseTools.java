package dev.setree.mcp;

import static dev.setree.mcp.ToolResults.error;
import static dev.setree.mcp.ToolResults.message;

import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.mcp.ToolArguments.BadArgument;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The MCP tools over a knowledge base and the knowledge base they share: {@code retrieve}, {@code insert},
 * {@code build}, {@code trigger_maintain}, {@code stats}, and, when the tools own their database file
 * ({@link #KnowledgeBaseTools(Path, SETreeConfig)}, as {@code setree mcp} does), the admin tools
 * {@code reset} and {@code setr_switch}. Over a host application's own open knowledge base
 * ({@link #KnowledgeBaseTools(SETree)}) the admin tools are not offered and the knowledge base stays the
 * host's. Transport-free, so it can be driven directly; {@link SetreeMcpServer} serves it over stdio.
 *
 * <p>Every failure a caller can cause or fix (a bad argument, a dead LLM endpoint, a file that is not a
 * knowledge base) comes back as a tool result with {@code isError} and a message saying what to do; the
 * server keeps serving. A database that cannot be opened at start-up leaves the server running with no
 * knowledge base: every tool but {@code setr_switch} then says so.
 *
 * <p><b>Threads.</b> Tool calls may arrive concurrently. {@code retrieve}, {@code insert},
 * {@code trigger_maintain} and {@code stats} share a read lock (SETree itself is thread-safe); {@code reset}
 * and {@code setr_switch} take the write lock, so they never close a knowledge base under another call.
 * Builds run one at a time on a background thread holding the read lock; an admin tool refuses while one is
 * running, and a build queued before a reset or switch is cancelled rather than applied to the new file.
 */
public final class KnowledgeBaseTools implements AutoCloseable {
  /** Tool names, in the order {@code tools/list} shows them. */
  public static final List<String> TOOL_NAMES =
      List.of("retrieve", "insert", "build", "trigger_maintain", "stats", "reset", "setr_switch");

  /** The tools offered over a host application's own knowledge base: no admin tools. */
  public static final List<String> HOSTED_TOOL_NAMES =
      List.of("retrieve", "insert", "build", "trigger_maintain", "stats");

  /**
   * The longest prompt {@code retrieve} accepts, in characters. MiniLM reads only the first 256 word pieces
   * and the prompt's BM25 query grows with its length, so a longer prompt only costs CPU.
   */
  public static final int MAX_PROMPT_CHARS = 16_384;

  /** The most assertions one {@code build} call accepts. */
  public static final int MAX_BUILD_ASSERTIONS = 100_000;

  private final ServedKnowledgeBase served;
  private final BackgroundBuilds builds;
  private final KnowledgeTools knowledge;
  private final AdminTools admin;
  private volatile boolean closed;

  /**
   * Serves a host application's open knowledge base: the tools of {@link #HOSTED_TOOL_NAMES} (no
   * {@code reset} or {@code setr_switch}, which would close or delete the host's file). {@link #close} stops
   * the build thread but leaves {@code kb} open: the host closes it.
   *
   * @param kb the knowledge base, open and writable
   */
  public KnowledgeBaseTools(SETree kb) {
    this(new ServedKnowledgeBase(kb));
  }

  /**
   * Opens the knowledge base at {@code db} (created empty if missing). A file that will not open does not
   * fail the constructor: the tools report it and {@code setr_switch} can open another one.
   *
   * @param db the database file
   * @param config the configuration for every knowledge base this server opens; give it an embedder (see
   *     {@link SETreeConfig.Builder#embedder}) so that switching files does not reload the model
   */
  public KnowledgeBaseTools(Path db, SETreeConfig config) {
    this(new ServedKnowledgeBase(db, config));
  }

  private KnowledgeBaseTools(ServedKnowledgeBase served) {
    this.served = served;
    this.builds = new BackgroundBuilds(served);
    this.knowledge = new KnowledgeTools(served, builds);
    this.admin = new AdminTools(served);
  }

  /** The names of the tools offered: {@link #TOOL_NAMES}, or {@link #HOSTED_TOOL_NAMES} over a host's knowledge base. */
  public List<String> toolNames() {
    return served.ownsKb ? TOOL_NAMES : HOSTED_TOOL_NAMES;
  }

  /** The tools with their JSON schemas, descriptions and handlers, for the MCP server. */
  public List<SyncToolSpecification> specifications() {
    List<SyncToolSpecification> specs = new ArrayList<>();
    for (String name : toolNames()) {
      Tool tool = tool(name);
      specs.add(SyncToolSpecification.builder().tool(tool)
          .callHandler((exchange, request) -> call(name, request.arguments()))
          .build());
    }
    return specs;
  }

  /** The definition of one tool (name, title, description, input schema, output schema, hints). */
  Tool tool(String name) {
    return ToolSchemas.tool(name, served.config);
  }

  /**
   * Runs one tool. Never throws: every failure is a result with {@code isError} and a message that says
   * what to do.
   *
   * @param name the tool's name
   * @param arguments the call's arguments (null for none)
   */
  public CallToolResult call(String name, Map<String, Object> arguments) {
    Map<String, Object> args = arguments == null ? Map.of() : arguments;
    try {
      if (closed) {
        return error("the server is shutting down");
      }
      if (!toolNames().contains(name)) {
        return error("unknown tool '" + name + "'; the tools are " + String.join(", ", toolNames()));
      }
      return switch (name) {
        case "retrieve" -> knowledge.retrieve(args);
        case "insert" -> knowledge.insert(args);
        case "build" -> builds.build(args);
        case "trigger_maintain" -> knowledge.triggerMaintain(args);
        case "stats" -> knowledge.stats(args);
        case "reset" -> admin.reset(args, builds.last());
        case "setr_switch" -> admin.switchDb(args, builds.last());
        default -> error("unknown tool '" + name + "'; the tools are " + String.join(", ", TOOL_NAMES));
      };
    } catch (BadArgument e) {
      return error(e.getMessage());
    } catch (RuntimeException e) {
      ToolResults.warn(name + " failed: " + message(e), e);
      return error(name + " failed: " + message(e));
    }
  }

  /**
   * Waits up to {@code millis} for the last build queued to end (done, failed or cancelled); for tests and
   * hosts that must not poll {@code stats}. Returns the build's state then, or null when none was queued.
   */
  String awaitLastBuild(long millis) {
    BuildJob job = builds.last();
    return job == null ? null : job.awaitEnd(millis).wireName();
  }

  /**
   * Stops accepting calls, cancels queued builds, waits briefly for a running one, and closes the
   * knowledge base (which checkpoints it into one file). Idempotent; a second caller (the CLI's shutdown
   * hook while the main thread closes on end of input) waits until the first has finished, so the JVM
   * does not halt in the middle of the checkpoint.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    builds.close();
    served.close();
  }
}

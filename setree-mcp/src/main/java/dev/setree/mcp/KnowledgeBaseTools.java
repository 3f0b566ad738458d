package dev.setree.mcp;

import dev.setree.Ack;
import dev.setree.Context;
import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.core.Fact;
import dev.setree.maintain.BuildProgress;
import dev.setree.maintain.llm.TargetLlmSummarizer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;

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

  private static final System.Logger LOG = System.getLogger("dev.setree.mcp");

  private static final long ADMIN_LOCK_WAIT_SECONDS = 30;

  private final SETreeConfig config;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final ExecutorService builds;
  /** The open knowledge base, or null when {@link #openError} says why not. Guarded by {@link #lock}. */
  private SETree kb;
  /** The file being served (open or not). Guarded by {@link #lock}. */
  private Path dbPath;
  /** Why {@link #dbPath} could not be opened, or null. Guarded by {@link #lock}. */
  private String openError;
  /** Bumped by reset and switch; a queued build from an older generation is cancelled. */
  private volatile long generation;
  private volatile BuildRecord lastBuild;
  private volatile String lastBuildError;
  private volatile boolean closed;
  /** False when a host application owns {@link #kb}: no admin tools, and {@link #close} leaves it open. */
  private final boolean ownsKb;

  /**
   * Serves a host application's open knowledge base: the tools of {@link #HOSTED_TOOL_NAMES} (no
   * {@code reset} or {@code setr_switch}, which would close or delete the host's file). {@link #close} stops
   * the build thread but leaves {@code kb} open: the host closes it.
   *
   * @param kb the knowledge base, open and writable
   */
  public KnowledgeBaseTools(SETree kb) {
    this.kb = Objects.requireNonNull(kb, "kb");
    this.config = kb.config();
    this.dbPath = kb.path().toAbsolutePath().normalize();
    this.ownsKb = false;
    this.builds = buildExecutor();
  }

  private static ExecutorService buildExecutor() {
    return Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "setree-mcp-build");
      t.setDaemon(true);
      return t;
    });
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
    this.config = Objects.requireNonNull(config, "config");
    this.dbPath = db.toAbsolutePath().normalize();
    this.ownsKb = true;
    this.builds = buildExecutor();
    try {
      this.kb = SETree.open(dbPath, config);
      log("serving " + dbPath + " (" + kb.stats().leaves() + " leaves, " + kb.pendingMutations()
          + " pending mutation(s))");
    } catch (RuntimeException e) {
      this.openError = message(e);
      log("cannot open " + dbPath + ": " + openError + "; serving without a knowledge base until setr_switch");
    }
  }

  // ---------------------------------------------------------------- tool definitions

  /** The names of the tools offered: {@link #TOOL_NAMES}, or {@link #HOSTED_TOOL_NAMES} over a host's knowledge base. */
  public List<String> toolNames() {
    return ownsKb ? TOOL_NAMES : HOSTED_TOOL_NAMES;
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
    int budget = config.defaultBudget();
    long quiet = config.quietWindowMillis();
    return switch (name) {
      case "retrieve" -> Tool.builder(name, schema(props(
              "prompt", Map.of("type", "string", "minLength", 1, "maxLength", MAX_PROMPT_CHARS,
                  "description", "The question or task to find context for, in natural language."),
              "budget", Map.of("type", "integer", "minimum", 0,
                  "description", "Most tokens of context to return (default " + budget + ").")),
              List.of("prompt")))
          .title("Retrieve context")
          .description("Get the context for a prompt from the user's knowledge base: a selection of the stored"
              + " facts and summaries that fits a token budget, with the exact facts where the prompt cares and"
              + " short summaries for everything else, so every fact is still represented. Call it with the"
              + " user's request before answering anything that may depend on what the user told you earlier."
              + " Fast and synchronous; never calls an LLM. Returns the context text, then a line with"
              + " tokens_used, budget and complete (true when every fact is covered). An empty knowledge base"
              + " gives an empty context: add facts with build or insert.")
          .outputSchema(schema(props(
              "context", Map.of("type", "string", "description", "The rendered context."),
              "tokens_used", Map.of("type", "integer"),
              "budget", Map.of("type", "integer"),
              "complete", Map.of("type", "boolean",
                  "description", "True when every fact is covered by itself or a summary."),
              "items", Map.of("type", "integer", "description", "Facts and summaries in the context."),
              "leaves", Map.of("type", "integer", "description", "Facts in the knowledge base."),
              "pending_mutations", Map.of("type", "integer",
                  "description", "Inserts not yet visible (applied by the next maintenance run).")),
              List.of("context", "tokens_used", "budget", "complete")))
          .annotations(hints(true, false, true))
          .build();
      case "insert" -> Tool.builder(name, schema(props("assertion", Map.of("type", "string", "minLength", 1,
              "maxLength", Fact.MAX_CHARS, "description", "The fact, as one sentence.")), List.of("assertion")))
          .title("Insert a fact")
          .description("Add one fact to the knowledge base: a short, self-contained assertion such as"
              + " 'the user's daughter is called Mia' (not a whole document). Returns 'insert queued' once the"
              + " fact is stored durably; retrieve sees it after the next maintenance run, which starts by"
              + " itself about " + quiet + " ms after the last change (or call trigger_maintain). A text that"
              + " is already stored is not added twice.")
          .annotations(hints(false, false, false))
          .build();
      case "build" -> Tool.builder(name, schema(props("assertions", Map.of("type", "array", "minItems", 2,
              "items", Map.of("type", "string", "minLength", 1, "maxLength", Fact.MAX_CHARS),
              "description", "The facts, one short self-contained assertion each.")), List.of("assertions")))
          .title("Build the knowledge base")
          .description("Replace the whole knowledge base with a tree built from these facts (at least 2)."
              + " Every fact of the current tree, inserted ones included, is dropped (inserts still pending are"
              + " applied on top of the new tree afterwards). Returns 'build queued' as"
              + " soon as the build has started; it runs in the background (seconds for hundreds of facts,"
              + " longer with an LLM summariser). Call stats until build.state is 'done' (or 'failed', with"
              + " the error); until then retrieve answers from the previous tree. To add facts to the"
              + " existing tree, use insert instead.")
          .annotations(hints(false, true, false))
          .build();
      case "trigger_maintain" -> Tool.builder(name, schema(Map.of(), List.of()))
          .title("Apply pending inserts now")
          .description("Apply the pending inserts now instead of after the quiet window. Returns 'maintenance"
              + " requested' at once; call stats until pending_mutations is 0 (last_maintenance_error says why"
              + " a run failed; failed runs are retried and the inserts stay stored).")
          .annotations(hints(false, false, true))
          .build();
      case "stats" -> Tool.builder(name, schema(Map.of(), List.of()))
          .title("Knowledge-base status")
          .description("Shape and status of the open knowledge base: its file, leaves (facts), nodes, depth,"
              + " pending_mutations (inserts not yet visible to retrieve), last_maintenance_error, and the last"
              + " build (state queued, running, done, failed or cancelled, with its error).")
          .outputSchema(statsOutputSchema())
          .annotations(hints(true, false, true))
          .build();
      case "reset" -> Tool.builder(name, schema(Map.of(), List.of()))
          .title("Admin: empty the knowledge base")
          .description("Admin tool. Empty the open knowledge base: its database file (and its -wal, -shm and"
              + " -journal files) is deleted and a new empty one is created at the same path. All facts,"
              + " summaries and pending inserts are lost; a build that has not started yet is cancelled."
              + " Refused while a build is running. Use only when the user asks to forget everything.")
          .annotations(hints(false, true, true))
          .build();
      case "setr_switch" -> Tool.builder(name, schema(props("db", Map.of("type", "string", "minLength", 1,
              "description", "Path of the SETree database file, e.g. /home/me/notes.db.")), List.of("db")))
          .title("Admin: switch the knowledge-base file")
          .description("Admin tool. Serve another knowledge-base file: it is opened (created empty if it does"
              + " not exist) and the current one is closed; the current one's pending inserts stay stored in"
              + " it and are applied when it is opened again. A file that is not a SETree knowledge base is"
              + " refused and left untouched, and the current one stays open. Refused while a build is"
              + " running. Give an absolute path.")
          .annotations(hints(false, true, true))
          .build();
      default -> throw new IllegalArgumentException("unknown tool " + name);
    };
  }

  private static Map<String, Object> statsOutputSchema() {
    Map<String, Object> nullableString = Map.of("type", List.of("string", "null"));
    return schema(props(
        "db", Map.of("type", "string"),
        "open", Map.of("type", "boolean"),
        "open_error", nullableString,
        "leaves", Map.of("type", "integer"),
        "nodes", Map.of("type", "integer"),
        "depth", Map.of("type", "integer"),
        "root_arity", Map.of("type", "integer"),
        "pending_mutations", Map.of("type", "integer"),
        "model_id", nullableString,
        "last_maintenance_error", nullableString,
        "last_build_error", nullableString,
        "build", Map.of("type", List.of("object", "null"))),
        List.of("db", "open"));
  }

  private static Map<String, Object> props(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static Map<String, Object> schema(Map<String, Object> properties, List<String> required) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("type", "object");
    s.put("properties", properties);
    if (!required.isEmpty()) {
      s.put("required", required);
    }
    s.put("additionalProperties", false);
    return s;
  }

  private static ToolAnnotations hints(boolean readOnly, boolean destructive, boolean idempotent) {
    return ToolAnnotations.builder().readOnlyHint(readOnly).destructiveHint(destructive)
        .idempotentHint(idempotent).openWorldHint(false).build();
  }

  // ---------------------------------------------------------------- dispatch

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
        case "retrieve" -> retrieve(args);
        case "insert" -> insert(args);
        case "build" -> build(args);
        case "trigger_maintain" -> triggerMaintain(args);
        case "stats" -> stats(args);
        case "reset" -> reset(args);
        case "setr_switch" -> switchDb(args);
        default -> error("unknown tool '" + name + "'; the tools are " + String.join(", ", TOOL_NAMES));
      };
    } catch (BadArgument e) {
      return error(e.getMessage());
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, name + " failed: " + message(e), e);
      return error(name + " failed: " + message(e));
    }
  }

  // ---------------------------------------------------------------- the tools

  private CallToolResult retrieve(Map<String, Object> args) {
    checkKeys("retrieve", args, "prompt", "budget");
    String prompt = text(args, "prompt", "retrieve needs 'prompt': a non-empty string, the question or task"
        + " to find context for, e.g. {\"prompt\": \"what does the user work on?\", \"budget\": 512}");
    if (prompt.length() > MAX_PROMPT_CHARS) {
      throw new BadArgument("'prompt' has " + prompt.length() + " characters; retrieve takes at most "
          + MAX_PROMPT_CHARS + " (the request itself, not a document: the embedder reads only its first 256"
          + " word pieces). Shorten it to the question or task.");
    }
    Integer given = integer(args, "budget");
    int budget = given == null ? config.defaultBudget() : given;
    if (budget < 0) {
      throw new BadArgument("'budget' must be an integer >= 0 (the most tokens of context to return), got "
          + budget + "; omit it to use the default of " + config.defaultBudget());
    }
    return withKb(kb -> {
      Context ctx = kb.retrieve(prompt, budget);
      int leaves = kb.stats().leaves();
      int pending = kb.pendingMutations();
      StringBuilder status = new StringBuilder();
      status.append(String.format(Locale.ROOT, "tokens_used: %d of %d, complete: %b, items: %d, leaves: %d",
          ctx.tokensUsed(), budget, ctx.complete(), ctx.items().size(), leaves));
      if (pending > 0) {
        status.append(", pending_mutations: ").append(pending).append(" (not visible yet)");
      }
      if (leaves == 0) {
        status.append(" (the knowledge base holds no facts yet: add them with build or insert)");
      }
      Map<String, Object> structured = new LinkedHashMap<>();
      structured.put("context", ctx.text());
      structured.put("tokens_used", ctx.tokensUsed());
      structured.put("budget", budget);
      structured.put("complete", ctx.complete());
      structured.put("items", ctx.items().size());
      structured.put("leaves", leaves);
      structured.put("pending_mutations", pending);
      return CallToolResult.builder().addTextContent(ctx.text()).addTextContent(status.toString())
          .structuredContent(structured).isError(false).build();
    });
  }

  private CallToolResult insert(Map<String, Object> args) {
    checkKeys("insert", args, "assertion");
    String assertion = text(args, "assertion", "insert needs 'assertion': a non-empty string, one short"
        + " self-contained fact, e.g. {\"assertion\": \"the user's daughter is called Mia\"}");
    checkLength(assertion, "'assertion'");
    return withKb(kb -> {
      Ack ack = kb.insert(assertion);
      if (ack.duplicate()) {
        return ok("insert queued: nothing to add, the knowledge base already holds this text as leaf "
            + ack.leafId());
      }
      return ok("insert queued (leaf " + ack.leafId() + ", seq " + ack.seq() + "; stored durably, visible to"
          + " retrieve after the next maintenance run, about " + config.quietWindowMillis()
          + " ms after the last change, or call trigger_maintain)");
    });
  }

  private CallToolResult build(Map<String, Object> args) {
    checkKeys("build", args, "assertions");
    Object raw = args.get("assertions");
    String usage = "build needs 'assertions': an array of at least 2 non-empty strings, one fact each, e.g."
        + " {\"assertions\": [\"the user works on SETree\", \"the user writes Java 17\"]}; to add one fact to"
        + " the existing tree use insert";
    if (!(raw instanceof List<?> list)) {
      throw new BadArgument(raw == null ? usage : "'assertions' must be an array of strings, got "
          + describe(raw) + ". " + usage);
    }
    if (list.size() < 2) {
      throw new BadArgument("build got " + list.size() + " assertion(s); " + usage);
    }
    if (list.size() > MAX_BUILD_ASSERTIONS) {
      throw new BadArgument("build got " + list.size() + " assertions; one call takes at most "
          + MAX_BUILD_ASSERTIONS + ". Build from a facts file with the setree command line instead.");
    }
    List<Fact> facts = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      Object o = list.get(i);
      if (!(o instanceof String s)) {
        throw new BadArgument("assertion " + (i + 1) + " of " + list.size() + " is " + describe(o)
            + ", not a string. " + usage);
      }
      if (s.isBlank()) {
        throw new BadArgument("assertion " + (i + 1) + " of " + list.size() + " is empty; every fact needs"
            + " text. " + usage);
      }
      checkLength(s, "assertion " + (i + 1));
      facts.add(Fact.of("f" + i, s.strip()));
    }
    String llmProblem = llmProblem();
    if (llmProblem != null) {
      return error("build needs the LLM that writes the summaries, and " + llmProblem + " Nothing was"
          + " queued; the knowledge base is unchanged. Start the LLM server (or fix llm.base_url / --llm-base-url"
          + " and restart setree mcp), then call build again.");
    }
    return withKb(kb -> {
      BuildRecord rec = new BuildRecord(dbPath, facts.size(), generation);
      lastBuild = rec;
      builds.execute(() -> runBuild(rec, facts));
      // "Queued" means started: wait (briefly) for the background thread to pick it up.
      String state = rec.awaitStart(2000);
      if ("failed".equals(rec.state)) {
        return error("build failed: " + rec.message + ". The knowledge base is unchanged.");
      }
      String where = "queued".equals(state) ? "waiting for the build before it to finish" : "started";
      return ok("build queued (" + facts.size() + " assertions, " + where + "; it replaces the whole knowledge"
          + " base " + rec.db.getFileName() + "; call stats until build.state is 'done')");
    });
  }

  private void runBuild(BuildRecord rec, List<Fact> facts) {
    lock.readLock().lock();
    try {
      if (rec.generation != generation || kb == null || closed) {
        rec.finish("cancelled", "the knowledge base was reset or switched before the build started");
        log("build of " + rec.assertions + " assertions cancelled: " + rec.message);
        return;
      }
      rec.start();
      log("build of " + rec.assertions + " assertions started on " + rec.db);
      long t0 = System.nanoTime();
      kb.build(facts, BuildProgress.NONE);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      rec.finish("done", kb.stats().leaves() + " leaves, " + kb.stats().nodes() + " nodes in " + ms + " ms");
      lastBuildError = null;
      log("build done: " + rec.message);
    } catch (RuntimeException e) {
      rec.finish("failed", message(e));
      lastBuildError = rec.message;
      log("build failed: " + rec.message);
    } finally {
      lock.readLock().unlock();
    }
  }

  private CallToolResult triggerMaintain(Map<String, Object> args) {
    checkKeys("trigger_maintain", args);
    return withKb(kb -> {
      int pending = kb.pendingMutations();
      if (pending > 0) {
        String llmProblem = llmProblem();
        if (llmProblem != null) {
          return error("maintenance needs the LLM that writes the summaries, and " + llmProblem + " The "
              + pending + " pending mutation(s) stay stored and are applied once it answers (runs are retried);"
              + " start the LLM server, then call trigger_maintain again.");
        }
      }
      kb.triggerMaintain();
      return ok(pending == 0 ? "maintenance requested (nothing is pending: the knowledge base is up to date)"
          : "maintenance requested (" + pending + " pending mutation(s); call stats until pending_mutations is 0)");
    });
  }

  private CallToolResult stats(Map<String, Object> args) {
    checkKeys("stats", args);
    lock.readLock().lock();
    try {
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("db", dbPath.toString());
      s.put("open", kb != null);
      s.put("open_error", openError);
      StringBuilder text = new StringBuilder();
      text.append("db ").append(dbPath).append('\n');
      if (kb != null) {
        SETree.Stats st = kb.stats();
        Exception maint = kb.lastMaintenanceError();
        s.put("leaves", st.leaves());
        s.put("nodes", st.nodes());
        s.put("depth", st.depth());
        s.put("root_arity", st.rootArity());
        s.put("pending_mutations", kb.pendingMutations());
        s.put("model_id", st.modelId());
        s.put("last_maintenance_error", maint == null ? null : message(maint));
        text.append("leaves ").append(st.leaves()).append('\n')
            .append("nodes ").append(st.nodes()).append('\n')
            .append("depth ").append(st.depth()).append('\n')
            .append("pending_mutations ").append(kb.pendingMutations()).append('\n')
            .append("last_maintenance_error ").append(maint == null ? "none" : message(maint)).append('\n');
      } else {
        s.put("model_id", null);
        s.put("last_maintenance_error", null);
        text.append("not open: ").append(openError).append('\n');
      }
      s.put("last_build_error", lastBuildError);
      BuildRecord b = lastBuild;
      if (b == null) {
        s.put("build", null);
        text.append("build none since the server started");
      } else {
        s.put("build", b.toMap());
        text.append("build ").append(b.state).append(": ").append(b.assertions).append(" assertions on ")
            .append(b.db.getFileName());
        if (b.message != null) {
          text.append(" (").append(b.message).append(')');
        }
      }
      if (lastBuildError != null && (b == null || !"failed".equals(b.state))) {
        text.append("\nlast_build_error ").append(lastBuildError);
      }
      if (kb == null) {
        return CallToolResult.builder().addTextContent(text + "\n" + notOpenMessage()).isError(true).build();
      }
      return CallToolResult.builder().addTextContent(text.toString()).structuredContent(s).isError(false).build();
    } finally {
      lock.readLock().unlock();
    }
  }

  private CallToolResult reset(Map<String, Object> args) {
    checkKeys("reset", args);
    return withAdminLock("reset", () -> {
      if (kb == null) {
        return error("reset empties the open knowledge base, but none is open: " + dbPath + " could not be"
            + " opened (" + openError + "), so it is not deleted. Call setr_switch with the path of a SETree"
            + " database (a new path creates an empty one).");
      }
      SETree.Stats before = kb.stats();
      int pending = kb.pendingMutations();
      generation++;
      kb.close();
      kb = null;
      try {
        for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
          Files.deleteIfExists(Path.of(dbPath + suffix));
        }
      } catch (IOException e) {
        openError = "reset could not delete it: " + e.getMessage();
        return error("reset could not delete " + dbPath + ": " + e.getMessage() + ". No knowledge base is"
            + " open now; fix the file's permissions and call reset again, or call setr_switch.");
      }
      try {
        kb = SETree.open(dbPath, config);
        openError = null;
      } catch (RuntimeException e) {
        openError = message(e);
        return error("reset deleted " + dbPath + " but could not create it again: " + openError
            + ". Call setr_switch with another path.");
      }
      log("reset " + dbPath + ": dropped " + before.leaves() + " leaves and " + pending + " pending mutation(s)");
      return ok("knowledge base emptied: " + dbPath + " was deleted and created again, empty (dropped "
          + before.leaves() + " leaves and " + pending + " pending mutation(s)). Add facts with build or insert.");
    });
  }

  private CallToolResult switchDb(Map<String, Object> args) {
    checkKeys("setr_switch", args, "db");
    String raw = text(args, "db", "setr_switch needs 'db': the path of a SETree database file, e.g."
        + " {\"db\": \"/home/me/notes.db\"} (a new path creates an empty knowledge base)");
    Path target;
    try {
      target = Path.of(raw.strip()).toAbsolutePath().normalize();
    } catch (java.nio.file.InvalidPathException e) {
      throw new BadArgument("'db' is not a valid path: " + e.getMessage());
    }
    if (Files.isDirectory(target)) {
      throw new BadArgument(target + " is a directory; give the path of a database file inside it, e.g. "
          + target.resolve("kb.db"));
    }
    return withAdminLock("setr_switch", () -> {
      if (target.equals(dbPath) && kb != null) {
        return ok("already serving " + target + " (" + kb.stats().leaves() + " leaves)");
      }
      boolean existed = Files.exists(target);
      SETree next;
      try {
        next = SETree.open(target, config);
      } catch (RuntimeException e) {
        String still = kb != null ? "Still serving " + dbPath + "." : "No knowledge base is open.";
        return error("cannot open " + target + ": " + message(e) + ". The file was left untouched. " + still
            + " Pass the path of a SETree knowledge base, or a new path to create an empty one.");
      }
      generation++;
      Path old = dbPath;
      if (kb != null) {
        kb.close();
      }
      kb = next;
      dbPath = target;
      openError = null;
      int leaves = next.stats().leaves();
      log("switched from " + old + " to " + target);
      return ok("switched to " + target + (existed ? " (" + leaves + " leaves, " + next.pendingMutations()
          + " pending mutation(s))" : " (a new, empty knowledge base: add facts with build or insert)")
          + "; closed " + old);
    });
  }

  // ---------------------------------------------------------------- helpers

  /** A problem with the configured LLM ending in a full stop, or null when none is configured or it answers. */
  private String llmProblem() {
    if (config.llm() == null || config.summarizer() != null) {
      return null;
    }
    try (TargetLlmSummarizer llm = new TargetLlmSummarizer(config.llm())) {
      llm.checkReachable();
      return null;
    } catch (RuntimeException e) {
      return message(e).replaceAll("[.?!]?$", ".");
    }
  }

  private interface KbAction {
    CallToolResult apply(SETree kb);
  }

  private CallToolResult withKb(KbAction action) {
    lock.readLock().lock();
    try {
      if (kb == null) {
        return error(notOpenMessage());
      }
      return action.apply(kb);
    } finally {
      lock.readLock().unlock();
    }
  }

  private String notOpenMessage() {
    return "no knowledge base is open: " + dbPath + " could not be opened (" + openError + "). Call"
        + " setr_switch with the path of a SETree database (a new path creates an empty one), or restart"
        + " setree mcp with another --db.";
  }

  private interface AdminAction {
    CallToolResult run();
  }

  private CallToolResult withAdminLock(String tool, AdminAction action) {
    BuildRecord b = lastBuild;
    if (b != null && "running".equals(b.state)) {
      return error(tool + " is refused while a build is running (" + b.assertions + " assertions on "
          + b.db.getFileName() + "); call stats until build.state is 'done' or 'failed', then call " + tool
          + " again.");
    }
    boolean locked;
    try {
      locked = lock.writeLock().tryLock(ADMIN_LOCK_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return error(tool + " was interrupted; call it again");
    }
    if (!locked) {
      return error(tool + " timed out waiting for other calls (a build?) to finish; call stats, then " + tool
          + " again.");
    }
    try {
      return action.run();
    } finally {
      lock.writeLock().unlock();
    }
  }

  private static void checkKeys(String tool, Map<String, Object> args, String... allowed) {
    Set<String> unknown = new TreeSet<>(args.keySet());
    unknown.removeAll(List.of(allowed));
    if (!unknown.isEmpty()) {
      throw new BadArgument(tool + " got unknown argument(s) " + unknown + "; it takes "
          + (allowed.length == 0 ? "no arguments" : String.join(", ", allowed)));
    }
  }

  private static String text(Map<String, Object> args, String key, String usage) {
    Object v = args.get(key);
    if (v == null) {
      throw new BadArgument(usage);
    }
    if (!(v instanceof String s)) {
      throw new BadArgument("'" + key + "' must be a string, got " + describe(v) + ". " + usage);
    }
    if (s.isBlank()) {
      throw new BadArgument("'" + key + "' is empty. " + usage);
    }
    return s;
  }

  private static void checkLength(String s, String what) {
    if (s.length() > Fact.MAX_CHARS) {
      throw new BadArgument(what + " has " + s.length() + " characters; a fact is a short assertion of at most "
          + Fact.MAX_CHARS + " characters: split it into several facts");
    }
  }

  private static Integer integer(Map<String, Object> args, String key) {
    Object v = args.get(key);
    if (v == null) {
      return null;
    }
    if (v instanceof String s) {
      throw new BadArgument("'" + key + "' must be a JSON number, got " + describe(v) + "; send it without"
          + " quotes, e.g. {\"" + key + "\": " + (s.strip().matches("[+-]?\\d{1,10}") ? s.strip() : "512") + "}");
    }
    if (v instanceof Number n) {
      double d = n.doubleValue();
      if (d == Math.rint(d) && !Double.isInfinite(d)) {
        if (d > Integer.MAX_VALUE) {
          throw new BadArgument("'" + key + "' is too large: " + n + " (at most " + Integer.MAX_VALUE + ")");
        }
        if (d < Integer.MIN_VALUE) {
          return Integer.MIN_VALUE;
        }
        return (int) d;
      }
    }
    throw new BadArgument("'" + key + "' must be an integer, got " + describe(v));
  }

  private static String describe(Object v) {
    if (v instanceof String s) {
      return "the string \"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
    }
    if (v instanceof List<?> l) {
      return "an array of " + l.size();
    }
    if (v instanceof Map<?, ?>) {
      return "an object";
    }
    return v == null ? "null" : v.toString();
  }

  private static CallToolResult ok(String text) {
    return CallToolResult.builder().addTextContent(text).isError(false).build();
  }

  private static CallToolResult error(String text) {
    return CallToolResult.builder().addTextContent(text).isError(true).build();
  }

  static String message(Throwable e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }

  private static void log(String line) {
    LOG.log(System.Logger.Level.INFO, line);
  }

  /** A caller's mistake: reported as the tool result's message. */
  private static final class BadArgument extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadArgument(String message) {
      super(message, null, false, false);
    }
  }

  /** One build: where, how many facts, and how it went. */
  private static final class BuildRecord {
    final Path db;
    final int assertions;
    final long generation;
    final long queuedAt = System.currentTimeMillis();
    volatile long startedAt;
    volatile long finishedAt;
    volatile String state = "queued";
    volatile String message;

    BuildRecord(Path db, int assertions, long generation) {
      this.db = db;
      this.assertions = assertions;
      this.generation = generation;
    }

    synchronized void start() {
      startedAt = System.currentTimeMillis();
      state = "running";
      notifyAll();
    }

    synchronized void finish(String finalState, String msg) {
      finishedAt = System.currentTimeMillis();
      message = msg;
      state = finalState;
      notifyAll();
    }

    /** Waits up to {@code millis} for the build to leave the queue; returns the state then. */
    synchronized String awaitStart(long millis) {
      long end = System.currentTimeMillis() + millis;
      while ("queued".equals(state)) {
        long left = end - System.currentTimeMillis();
        if (left <= 0) {
          break;
        }
        try {
          wait(left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      return state;
    }

    Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("state", state);
      m.put("db", db.toString());
      m.put("assertions", assertions);
      m.put("message", message);
      long end = finishedAt != 0 ? finishedAt : System.currentTimeMillis();
      m.put("elapsed_ms", startedAt == 0 ? 0 : end - startedAt);
      return m;
    }
  }

  // ---------------------------------------------------------------- lifecycle

  /**
   * Stops accepting calls, cancels queued builds, waits briefly for a running one, and closes the
   * knowledge base (which checkpoints it into one file). Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    builds.shutdownNow();
    boolean locked = false;
    try {
      locked = lock.writeLock().tryLock(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!locked) {
      log("a build is still running; exiting without waiting for it (" + dbPath + " keeps its previous tree)");
      return;
    }
    try {
      if (kb != null && ownsKb) {
        kb.close();
      }
      kb = null;
    } finally {
      lock.writeLock().unlock();
    }
  }
}

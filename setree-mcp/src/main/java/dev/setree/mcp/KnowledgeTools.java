package dev.setree.mcp;

import static dev.setree.mcp.ToolArguments.checkKeys;
import static dev.setree.mcp.ToolArguments.checkLength;
import static dev.setree.mcp.ToolArguments.integer;
import static dev.setree.mcp.ToolArguments.text;
import static dev.setree.mcp.ToolResults.error;
import static dev.setree.mcp.ToolResults.message;
import static dev.setree.mcp.ToolResults.ok;

import dev.setree.Ack;
import dev.setree.Context;
import dev.setree.SETree;
import dev.setree.mcp.ToolArguments.BadArgument;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The everyday tools over the served knowledge base, each under its read lock: {@code retrieve},
 * {@code insert}, {@code trigger_maintain} and {@code stats}.
 */
final class KnowledgeTools {
  private final ServedKnowledgeBase served;
  private final BackgroundBuilds builds;

  KnowledgeTools(ServedKnowledgeBase served, BackgroundBuilds builds) {
    this.served = served;
    this.builds = builds;
  }

  CallToolResult retrieve(Map<String, Object> args) {
    checkKeys("retrieve", args, "prompt", "budget");
    String prompt = text(args, "prompt", "retrieve needs 'prompt': a non-empty string, the question or task"
        + " to find context for, e.g. {\"prompt\": \"what does the user work on?\", \"budget\": 512}");
    if (prompt.length() > KnowledgeBaseTools.MAX_PROMPT_CHARS) {
      throw new BadArgument("'prompt' has " + prompt.length() + " characters; retrieve takes at most "
          + KnowledgeBaseTools.MAX_PROMPT_CHARS + " (the request itself, not a document: the embedder reads"
          + " only its first 256 word pieces). Shorten it to the question or task.");
    }
    Integer given = integer(args, "budget");
    int defaultBudget = served.config.defaultBudget();
    int budget = given == null ? defaultBudget : given;
    if (budget < 0) {
      throw new BadArgument("'budget' must be an integer >= 0 (the most tokens of context to return), got "
          + budget + "; omit it to use the default of " + defaultBudget);
    }
    return served.withKb(kb -> {
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

  CallToolResult insert(Map<String, Object> args) {
    checkKeys("insert", args, "assertion");
    String assertion = text(args, "assertion", "insert needs 'assertion': a non-empty string, one short"
        + " self-contained fact, e.g. {\"assertion\": \"the user's daughter is called Mia\"}");
    checkLength(assertion, "'assertion'");
    return served.withKb(kb -> {
      Ack ack = kb.insert(assertion);
      if (ack.duplicate()) {
        return ok("insert queued: nothing to add, the knowledge base already holds this text as leaf "
            + ack.leafId());
      }
      return ok("insert queued (leaf " + ack.leafId() + ", seq " + ack.seq() + "; stored durably, visible to"
          + " retrieve after the next maintenance run, about " + served.config.quietWindowMillis()
          + " ms after the last change, or call trigger_maintain)");
    });
  }

  CallToolResult triggerMaintain(Map<String, Object> args) {
    checkKeys("trigger_maintain", args);
    return served.withKb(kb -> {
      int pending = kb.pendingMutations();
      if (pending > 0) {
        String llmProblem = served.llmProblem();
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

  CallToolResult stats(Map<String, Object> args) {
    checkKeys("stats", args);
    served.lock.readLock().lock();
    try {
      SETree kb = served.kb;
      Map<String, Object> s = new LinkedHashMap<>();
      s.put("db", served.dbPath.toString());
      s.put("open", kb != null);
      s.put("open_error", served.openError);
      StringBuilder text = new StringBuilder();
      text.append("db ").append(served.dbPath).append('\n');
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
        text.append("not open: ").append(served.openError).append('\n');
      }
      String lastBuildError = builds.lastError();
      s.put("last_build_error", lastBuildError);
      BuildJob b = builds.last();
      BuildState state = b == null ? null : b.state();
      if (b == null) {
        s.put("build", null);
        text.append("build none since the server started");
      } else {
        s.put("build", b.toMap());
        text.append("build ").append(state).append(": ").append(b.assertions).append(" assertions on ")
            .append(b.db.getFileName());
        if (b.message() != null) {
          text.append(" (").append(b.message()).append(')');
        }
      }
      if (lastBuildError != null && state != BuildState.FAILED) {
        text.append("\nlast_build_error ").append(lastBuildError);
      }
      if (kb == null) {
        return CallToolResult.builder().addTextContent(text + "\n" + served.notOpenMessage()).isError(true).build();
      }
      return CallToolResult.builder().addTextContent(text.toString()).structuredContent(s).isError(false).build();
    } finally {
      served.lock.readLock().unlock();
    }
  }
}

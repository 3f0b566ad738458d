package dev.setree.mcp;

import static dev.setree.mcp.ToolArguments.checkKeys;
import static dev.setree.mcp.ToolArguments.checkLength;
import static dev.setree.mcp.ToolArguments.describe;
import static dev.setree.mcp.ToolResults.error;
import static dev.setree.mcp.ToolResults.log;
import static dev.setree.mcp.ToolResults.message;
import static dev.setree.mcp.ToolResults.ok;

import dev.setree.BuildProgress;
import dev.setree.mcp.ToolArguments.BadArgument;
import dev.setree.spi.Fact;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The {@code build} tool: checks the facts, queues a {@link BuildJob} and runs it on one background thread
 * under the served knowledge base's read lock. A job queued before a reset or switch is cancelled rather
 * than applied to the new file.
 */
final class BackgroundBuilds {
  private final ServedKnowledgeBase served;
  private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "setree-mcp-build");
    t.setDaemon(true);
    return t;
  });
  private volatile BuildJob last;
  private volatile String lastError;
  private volatile boolean closed;

  BackgroundBuilds(ServedKnowledgeBase served) {
    this.served = served;
  }

  /** The last build queued, or null. */
  BuildJob last() {
    return last;
  }

  /** The error of the last build that failed, until one succeeds; or null. */
  String lastError() {
    return lastError;
  }

  /** The {@code build} tool. */
  CallToolResult build(Map<String, Object> args) {
    checkKeys("build", args, "assertions");
    List<Fact> facts = facts(args.get("assertions"));
    String llmProblem = served.llmProblem();
    if (llmProblem != null) {
      return error("build needs the LLM that writes the summaries, and " + llmProblem + " Nothing was"
          + " queued; the knowledge base is unchanged. Start the LLM server (or fix llm.base_url / --llm-base-url"
          + " and restart setree mcp), then call build again.");
    }
    return served.withKb(kb -> {
      BuildJob job = new BuildJob(served.dbPath, facts.size(), served.generation);
      last = job;
      executor.execute(() -> run(job, facts));
      // "Queued" means started: wait (briefly) for the background thread to pick it up.
      BuildState state = job.awaitStart(2000);
      if (job.state() == BuildState.FAILED) {
        return error("build failed: " + job.message() + ". The knowledge base is unchanged.");
      }
      String where = state == BuildState.QUEUED ? "waiting for the build before it to finish" : "started";
      return ok("build queued (" + facts.size() + " assertions, " + where + "; it replaces the whole knowledge"
          + " base " + job.db.getFileName() + "; call stats until build.state is 'done')");
    });
  }

  private static List<Fact> facts(Object raw) {
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
    if (list.size() > KnowledgeBaseTools.MAX_BUILD_ASSERTIONS) {
      throw new BadArgument("build got " + list.size() + " assertions; one call takes at most "
          + KnowledgeBaseTools.MAX_BUILD_ASSERTIONS + ". Build from a facts file with the setree command line"
          + " instead.");
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
    return facts;
  }

  private void run(BuildJob job, List<Fact> facts) {
    served.lock.readLock().lock();
    try {
      if (job.generation != served.generation || served.kb == null || closed) {
        job.finish(BuildState.CANCELLED, "the knowledge base was reset or switched before the build started");
        log("build of " + job.assertions + " assertions cancelled: " + job.message());
        return;
      }
      job.start();
      log("build of " + job.assertions + " assertions started on " + job.db);
      long t0 = System.nanoTime();
      served.kb.build(facts, BuildProgress.NONE);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      lastError = null;
      job.finish(BuildState.DONE, served.kb.stats().leaves() + " leaves, " + served.kb.stats().nodes()
          + " nodes in " + ms + " ms");
      log("build done: " + job.message());
    } catch (RuntimeException e) {
      lastError = message(e);
      job.finish(BuildState.FAILED, lastError);
      log("build failed: " + job.message());
    } finally {
      served.lock.readLock().unlock();
    }
  }

  /** Cancels queued builds and stops the build thread (a running build is interrupted). */
  void close() {
    closed = true;
    executor.shutdownNow();
  }
}

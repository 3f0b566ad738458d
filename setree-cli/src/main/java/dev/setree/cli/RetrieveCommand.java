package dev.setree.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.Context;
import dev.setree.SETree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code setree retrieve}: prints the context for a prompt. It reads the config file (calibration, default
 * budget) and accepts the LLM flags for a uniform command line, but never calls an LLM.
 */
@Command(name = "retrieve", mixinStandardHelpOptions = true, description = "Print the context for a prompt.")
final class RetrieveCommand implements Callable<Integer> {
  @Option(names = "--db", required = true, description = "Knowledge-base file.")
  Path db;

  @Option(names = "--budget", description = "Token budget (default: the config's default_budget).")
  Integer budget;

  @Option(names = "--json", description = "Print JSON: text, items, tokens_used, complete, stats.")
  boolean json;

  @Parameters(arity = "1..*", paramLabel = "PROMPT", description = "The prompt.")
  String[] prompt;

  @Mixin
  ConfigOptions options = new ConfigOptions();

  @Override
  public Integer call() throws Exception {
    var config = options.builder().build();
    if (!Files.exists(db)) {
      throw new IllegalArgumentException(db + " does not exist");
    }
    String p = String.join(" ", prompt);
    try (SETree kb = SETree.openReadOnly(db, config)) { // a read path never writes
      Context ctx = budget == null ? kb.retrieve(p) : kb.retrieve(p, budget);
      if (json) {
        ObjectMapper m = new ObjectMapper();
        ObjectNode root = m.createObjectNode();
        root.put("prompt", p);
        root.put("budget", ctx.budget());
        root.put("tokens_used", ctx.tokensUsed());
        root.put("complete", ctx.complete());
        root.put("text", ctx.text());
        ArrayNode items = root.putArray("items");
        for (Context.Item it : ctx.items()) {
          ObjectNode o = items.addObject();
          o.put("node_id", it.nodeId());
          o.put("kind", it.isLeaf() ? "leaf" : "summary");
          o.put("level", it.level());
          o.put("tokens", it.tokens());
          o.put("text", it.text());
          ArrayNode ids = o.putArray("leaf_ids");
          it.leafIds().forEach(ids::add);
        }
        ObjectNode st = root.putObject("stats");
        st.put("pops", ctx.stats().pops());
        st.put("nodes_scored", ctx.stats().nodesScored());
        st.put("elapsed_ms", ctx.stats().elapsedNanos() / 1e6);
        System.out.println(m.writerWithDefaultPrettyPrinter().writeValueAsString(root));
      } else {
        System.out.println(ctx.text());
        System.err.printf("%d/%d tokens, %d items, %s, %.1f ms%n", ctx.tokensUsed(), ctx.budget(),
            ctx.items().size(), ctx.complete() ? "covers the whole knowledge base" : "partial cover",
            ctx.stats().elapsedNanos() / 1e6);
      }
    }
    return 0;
  }
}

package dev.setree.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.SETree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code setree stats}: the shape of a knowledge base's tree and which summariser wrote its summaries (with
 * an LLM configured, the {@code extractive} ones are the nodes that fell back).
 */
@Command(name = "stats", mixinStandardHelpOptions = true, description = "Show the shape of a knowledge base.")
final class StatsCommand implements Callable<Integer> {
  @Option(names = "--db", required = true, description = "Knowledge-base file.")
  Path db;

  @Option(names = "--json", description = "Print JSON with leaves, nodes, depth, ...")
  boolean json;

  @Mixin
  ConfigOptions options = new ConfigOptions();

  @Override
  public Integer call() throws Exception {
    var config = options.builder().build();
    if (!Files.exists(db)) {
      throw new IllegalArgumentException(db + " does not exist");
    }
    try (SETree kb = SETree.openReadOnly(db, config)) { // a read path never writes
      SETree.Stats s = kb.stats();
      Map<String, Integer> kinds = kb.tree().summarizerKinds();
      if (json) {
        ObjectMapper m = new ObjectMapper();
        ObjectNode o = m.createObjectNode();
        o.put("leaves", s.leaves());
        o.put("nodes", s.nodes());
        o.put("depth", s.depth());
        o.put("internal_nodes", s.internalNodes());
        o.put("mean_arity", s.meanArity());
        o.put("root_arity", s.rootArity());
        o.put("model_id", s.modelId());
        o.put("pending_mutations", kb.pendingMutations());
        ObjectNode k = o.putObject("summarizers");
        kinds.forEach(k::put);
        System.out.println(m.writerWithDefaultPrettyPrinter().writeValueAsString(o));
      } else {
        System.out.printf("leaves %d%nnodes %d%ndepth %d%ninternal nodes %d%nmean arity %.2f%n"
                + "root arity %d%nembedder %s%n", s.leaves(), s.nodes(), s.depth(), s.internalNodes(),
            s.meanArity(), s.rootArity(), s.modelId());
        StringBuilder line = new StringBuilder("summarizers");
        kinds.forEach((kind, n) -> line.append(' ').append(kind).append(' ').append(n));
        System.out.println(line);
        System.out.println("pending mutations " + kb.pendingMutations());
      }
    }
    return 0;
  }
}

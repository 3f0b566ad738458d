package dev.setree.cli;

import dev.setree.SETree;
import dev.setree.core.Fact;
import dev.setree.maintain.BuildResult;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code setree build}: builds (or atomically replaces) the tree of a knowledge base from a facts file. */
@Command(name = "build", mixinStandardHelpOptions = true,
    description = "Build the tree of a knowledge base from a facts file (JSONL with id/text, or one fact a line).")
final class BuildCommand implements Callable<Integer> {
  @Option(names = "--db", required = true, description = "Knowledge-base file (created if missing).")
  Path db;

  @Option(names = "--facts", required = true, description = "Facts file.")
  Path facts;

  @Override
  public Integer call() throws Exception {
    List<Fact> list = FactsFile.read(facts);
    ProgressBar bar = new ProgressBar(System.err, true);
    long t0 = System.nanoTime();
    try (SETree kb = SETree.open(db)) {
      BuildResult.Stats s = kb.build(list, bar);
      bar.finish();
      SETree.Stats st = kb.stats();
      System.out.printf("built %s: %d leaves, %d nodes, depth %d, mean arity %.1f in %.1f s"
              + " (embed %.1f s, kNN %.1f s, clustering %.1f s, summaries %.1f s)%n",
          db, st.leaves(), st.nodes(), st.depth(), st.meanArity(), (System.nanoTime() - t0) / 1e9,
          s.embedNanos() / 1e9, s.knnNanos() / 1e9, s.clusterNanos() / 1e9, s.summaryNanos() / 1e9);
    }
    return 0;
  }
}

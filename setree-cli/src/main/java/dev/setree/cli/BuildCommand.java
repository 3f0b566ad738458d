package dev.setree.cli;

import dev.setree.BuildReport;
import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.spi.Fact;
import dev.setree.spi.SummarizerException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code setree build}: builds (or atomically replaces) the tree of a knowledge base from a facts file, with
 * extractive summaries or, when an LLM is configured, the Target LLM's. A dead LLM endpoint fails the command
 * before the database is opened, so the file is left exactly as it was.
 */
@Command(name = "build", mixinStandardHelpOptions = true,
    description = "Build the tree of a knowledge base from a facts file (JSONL with id/text, or one fact a line).")
final class BuildCommand implements Callable<Integer> {
  @Option(names = "--db", required = true, description = "Knowledge-base file (created if missing).")
  Path db;

  @Option(names = "--facts", required = true, description = "Facts file.")
  Path facts;

  @Option(names = "--format", defaultValue = "auto", description = "Facts file format: auto (default), jsonl"
      + " (one {\"id\", \"text\", \"time\"} object per line) or lines (one fact per line). auto reads"
      + " JSON Lines when the name ends with .jsonl or .ndjson or the first non-blank line starts with '{',"
      + " refuses a JSON array, and otherwise reads lines. A UTF-8 byte-order mark is skipped.")
  String format;

  @Mixin
  ConfigOptions options = new ConfigOptions();

  @Override
  public Integer call() throws Exception {
    SETreeConfig config = options.builder().build();
    List<Fact> list = FactsFile.read(facts, FactsFile.Format.parse(format));
    try {
      SETree.checkLlmReachable(config);
    } catch (SummarizerException e) { // the endpoint does not answer
      throw new IllegalStateException(e.getMessage() + " Nothing was built; " + db + " was not touched.", e);
    }
    ProgressBar bar = ProgressBar.onStderr();
    long t0 = System.nanoTime();
    boolean existed = Files.exists(db);
    try (SETree kb = SETree.open(db, config)) {
      BuildReport s;
      try {
        s = kb.build(list, bar);
      } catch (RuntimeException e) {
        if (!existed) {
          kb.close();
          SETree.deleteFiles(db); // a failed build leaves no new file behind
        }
        throw e;
      }
      bar.finish();
      SETree.Stats st = kb.stats();
      System.out.printf("built %s: %d leaves, %d nodes, depth %d, mean arity %.1f in %.1f s"
              + " (embed %.1f s, kNN %.1f s, clustering %.1f s, summaries %.1f s)%n",
          db, st.leaves(), st.nodes(), st.depth(), st.meanArity(), (System.nanoTime() - t0) / 1e9,
          s.embedNanos() / 1e9, s.knnNanos() / 1e9, s.clusterNanos() / 1e9, s.summaryNanos() / 1e9);
      if (config.llm() != null) {
        int byLlm = kb.tree().summarizerKinds().get("llm");
        System.out.printf("summaries: %d by the LLM (%s), %d fell back to extractive%n", byLlm,
            config.llm().model(), s.summaryFallbacks());
        if (s.summaryFallbacks() > 0) {
          System.err.println("setree: warning: " + s.summaryFallbacks() + " of " + st.internalNodes()
              + " summaries fell back to extractive; last LLM error: " + kb.lastLlmFailure().orElse("(none)"));
        }
      }
    }
    return 0;
  }
}

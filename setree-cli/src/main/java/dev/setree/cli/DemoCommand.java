package dev.setree.cli;

import dev.setree.Context;
import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.internal.eval.Research;
import dev.setree.spi.Fact;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code setree demo}: builds a small bundled knowledge base in a temporary folder with the embedded
 * defaults (MiniLM, extractive summaries, no network), then answers a broad and a niche prompt.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Build a bundled knowledge base and show contexts for a broad and a niche prompt.")
final class DemoCommand implements Callable<Integer> {
  @Option(names = "--budget", defaultValue = "200", description = "Token budget of each context.")
  int budget;

  @Option(names = "--summary-design", hidden = true, description = "Experiment: the extractive summary design"
      + " (SENTENCE, TERMS, CLAUSES, TOPICS).")
  Research.SummaryDesign summaryDesign;

  @Override
  public Integer call() throws Exception {
    List<Fact> facts = new ArrayList<>();
    try (InputStream in = DemoCommand.class.getResourceAsStream("/dev/setree/cli/demo-facts.txt");
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (!line.isBlank()) {
          facts.add(Fact.of("fact-" + (facts.size() + 1), line.strip()));
        }
      }
    }
    Path dir = Files.createTempDirectory("setree-demo-");
    Path db = dir.resolve("demo.db");
    ProgressBar bar = ProgressBar.onStderr();
    SETreeConfig.Builder config = SETreeConfig.builder();
    if (summaryDesign != null) {
      config.summarizer(Research.extractive(summaryDesign));
    }
    try (SETree kb = SETree.open(db, config.build())) {
      long t0 = System.nanoTime();
      kb.build(facts, bar);
      bar.finish();
      SETree.Stats s = kb.stats();
      System.out.printf("Built %d facts into a tree of %d nodes (depth %d) in %.1f s: %s%n%n", s.leaves(),
          s.nodes(), s.depth(), (System.nanoTime() - t0) / 1e9, db);
      for (String prompt : List.of("What do you know about me?",
          "Which medication do I take for my blood pressure?")) {
        for (int i = 0; i < 5; i++) {
          kb.retrieve(prompt, budget); // warm-up: the first calls pay for JIT compilation
        }
        Context ctx = kb.retrieve(prompt, budget);
        System.out.printf("Prompt: %s  (budget %d)%n", prompt, budget);
        System.out.println("-".repeat(72));
        System.out.println(ctx.text());
        System.out.println("-".repeat(72));
        System.out.printf("%d tokens, %d items, %s, retrieve %.1f ms%n%n", ctx.tokensUsed(), ctx.items().size(),
            ctx.complete() ? "covers the whole knowledge base" : "partial cover", ctx.stats().elapsedNanos() / 1e6);
      }
    } finally {
      SETree.deleteFiles(db); // the database and its side files
      Files.deleteIfExists(dir);
    }
    return 0;
  }
}

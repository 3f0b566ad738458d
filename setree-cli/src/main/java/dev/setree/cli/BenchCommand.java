package dev.setree.cli;

import dev.setree.embed.MiniLmEmbedder;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code setree bench}: measurements that are not tests. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks (measurements, not tests).",
    subcommands = {BenchCommand.Embed.class, BenchInsert.class, BenchLadder.class})
final class BenchCommand implements Runnable {
  @Override
  public void run() {
    new picocli.CommandLine(this).usage(System.out);
  }

  /** The first {@code n} sentences of a corpus file; a missing file says how to fetch it. */
  static List<String> corpus(Path file, int n) throws java.io.IOException {
    if (!Files.exists(file)) {
      throw new IllegalArgumentException(file + " does not exist: run scripts/fetch_benchmark_corpus.sh"
          + " (or pass --corpus FILE with one sentence per line)");
    }
    List<String> lines = FactsFile.readLines(file).stream().filter(s -> !s.isBlank()).toList();
    if (lines.size() < n) {
      throw new IllegalArgumentException(file + " has " + lines.size() + " sentences; " + n + " are needed");
    }
    return lines.subList(0, n);
  }

  /** {@code setree bench embed}: embedder start-up, resident memory, prompt latency and batch throughput. */
  @Command(name = "embed", mixinStandardHelpOptions = true,
      description = "Embedder start-up, resident memory, single-prompt P50/P99 and batch throughput.")
  static final class Embed implements Callable<Integer> {
    @Option(names = "--prompts", defaultValue = "500", description = "Single-prompt calls to time.")
    int prompts;

    @Option(names = "--batch", defaultValue = "32", description = "Batch size for the throughput run.")
    int batch;

    @Override
    public Integer call() throws Exception {
      long rss0 = rssKb();
      long t0 = System.nanoTime();
      try (MiniLmEmbedder e = MiniLmEmbedder.load()) {
        e.embed("warm up");
        double startup = (System.nanoTime() - t0) / 1e6;
        long rss1 = rssKb();
        List<String> sentences = new ArrayList<>();
        try (var in = BenchCommand.class.getResourceAsStream("/dev/setree/cli/demo-facts.txt")) {
          new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
              .filter(s -> !s.isBlank()).forEach(sentences::add);
        }
        for (int i = 0; i < 50; i++) {
          e.embed(sentences.get(i % sentences.size()));
        }
        double[] ms = new double[prompts];
        for (int i = 0; i < prompts; i++) {
          String p = "What does the user think about " + sentences.get(i % sentences.size()).toLowerCase(Locale.ROOT);
          long s = System.nanoTime();
          e.embed(p);
          ms[i] = (System.nanoTime() - s) / 1e6;
        }
        Arrays.sort(ms);
        int total = 0;
        long b0 = System.nanoTime();
        for (int round = 0; round < 4; round++) {
          for (int i = 0; i + batch <= sentences.size(); i += batch) {
            e.embed(sentences.subList(i, i + batch));
            total += batch;
          }
        }
        double secs = (System.nanoTime() - b0) / 1e9;
        System.out.printf(Locale.ROOT, "start-up (load + first embed): %.0f ms%n", startup);
        System.out.printf(Locale.ROOT, "resident memory: %.0f MB before, %.0f MB after loading%n", rss0 / 1024.0,
            rss1 / 1024.0);
        System.out.printf(Locale.ROOT, "single prompt (%d calls): P50 %.2f ms, P99 %.2f ms%n", prompts,
            Evaluation.percentile(ms, 0.5), Evaluation.percentile(ms, 0.99));
        System.out.printf(Locale.ROOT, "batch of %d: %.0f sentences/s%n", batch, total / secs);
        System.out.printf("processors: %d, JVM: %s%n", Runtime.getRuntime().availableProcessors(),
            ManagementFactory.getRuntimeMXBean().getVmVersion());
      }
      return 0;
    }

    private static long rssKb() throws Exception {
      Path status = Path.of("/proc/self/status");
      if (!Files.exists(status)) {
        return -1;
      }
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
      return -1;
    }
  }
}

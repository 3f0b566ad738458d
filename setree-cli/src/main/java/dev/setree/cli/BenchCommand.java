package dev.setree.cli;

import dev.setree.internal.embed.MiniLmEmbedder;
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
    subcommands = {BenchCommand.Embed.class, BenchInsert.class, BenchLadder.class, BenchAnn.class, BenchKnn.class})
final class BenchCommand implements Runnable {
  @Override
  public void run() {
    new picocli.CommandLine(this).usage(System.out);
  }

  /** Every sentence of a corpus file; a missing file says how to fetch it. */
  static List<String> corpus(Path file) throws java.io.IOException {
    if (!Files.exists(file)) {
      throw new IllegalArgumentException(file + " does not exist: run scripts/fetch_benchmark_corpus.sh"
          + " (or pass --corpus FILE with one sentence per line)");
    }
    return FactsFile.readLines(file).stream().filter(s -> !s.isBlank()).toList();
  }

  /** The first {@code n} sentences of a corpus file; a missing file says how to fetch it. */
  static List<String> corpus(Path file, int n) throws java.io.IOException {
    List<String> lines = corpus(file);
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

    @Option(names = "--corpus", defaultValue = "corpus/sotu-sentences.txt",
        description = "Sentences for the model comparison (default: scripts/fetch_benchmark_corpus.sh's output).")
    Path corpus;

    @Option(names = "--sentences", defaultValue = "5000",
        description = "How many corpus sentences the model comparison embeds.")
    int sentenceCount;

    @Option(names = "--json", description = "Also compare fp32, int8 and langchain4j's own MiniLM on the corpus"
        + " sentences and write sentences_per_s, int8_sentences_per_s, langchain4j_sentences_per_s here.")
    Path jsonOut;

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
      if (jsonOut != null) {
        compareModels();
      }
      return 0;
    }

    /**
     * fp32, int8 and langchain4j's {@code AllMiniLmL6V2EmbeddingModel} on the same corpus sentences in one
     * process, each after a warm-up. The sentences are cut into rounds of {@value #ROUND}; every round is
     * embedded by all three, in an order that turns each round, so that a change in the machine's load
     * reaches the three alike. Each round is one call, as a build makes them (ours sort it by length and
     * batch it; langchain4j's {@code embedAll} gets the same call).
     */
    private void compareModels() throws Exception {
      List<String> texts = BenchCommand.corpus(corpus, sentenceCount);
      var reference = new dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel();
      double[] seconds = new double[3];
      try (MiniLmEmbedder fp32 = MiniLmEmbedder.load(); MiniLmEmbedder int8 = MiniLmEmbedder.loadInt8()) {
        List<java.util.function.Consumer<List<String>>> models = List.of(
            fp32::embed,
            int8::embed,
            t -> reference.embedAll(t.stream().map(dev.langchain4j.data.segment.TextSegment::from).toList()));
        List<String> warmUp = texts.subList(0, Math.min(256, texts.size()));
        models.forEach(m -> m.accept(warmUp));
        int rounds = (texts.size() + ROUND - 1) / ROUND;
        ProgressBar bar = ProgressBar.onStderr();
        for (int r = 0; r < rounds; r++) {
          List<String> round = texts.subList(r * ROUND, Math.min(texts.size(), (r + 1) * ROUND));
          for (int k = 0; k < 3; k++) {
            int m = (r + k) % 3;
            long t0 = System.nanoTime();
            models.get(m).accept(round);
            seconds[m] += (System.nanoTime() - t0) / 1e9;
            bar.update("compare models", r * 3L + k + 1, rounds * 3L);
          }
        }
      }
      double fp32 = texts.size() / seconds[0];
      double int8 = texts.size() / seconds[1];
      double lc4j = texts.size() / seconds[2];
      System.out.printf(Locale.ROOT, "%d corpus sentences: fp32 %.0f/s, int8 %.0f/s, langchain4j %.0f/s"
          + " (fp32 %.2fx, int8 %.2fx langchain4j's)%n", texts.size(), fp32, int8, lc4j, fp32 / lc4j, int8 / lc4j);
      com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
      var o = m.createObjectNode();
      o.put("sentences", texts.size());
      o.put("corpus", corpus.toString());
      o.put("sentences_per_s", fp32);
      o.put("int8_sentences_per_s", int8);
      o.put("langchain4j_sentences_per_s", lc4j);
      o.put("fp32_over_langchain4j", fp32 / lc4j);
      o.put("int8_over_langchain4j", int8 / lc4j);
      o.put("processors", Runtime.getRuntime().availableProcessors());
      o.put("load_average", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
      Files.writeString(jsonOut, m.writerWithDefaultPrettyPrinter().writeValueAsString(o));
    }

    /** Sentences per round of the model comparison. */
    private static final int ROUND = 1000;

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

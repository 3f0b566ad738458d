package dev.setree.cli;

import dev.setree.BuildReport;
import dev.setree.Context;
import dev.setree.SETree;
import dev.setree.RetrieveOptions;
import dev.setree.RetrievePath;
import dev.setree.SETreeConfig;
import dev.setree.Strategy;
import dev.setree.internal.core.SimdDot;
import dev.setree.spi.Fact;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code setree bench ladder}: the scaling benchmark. One knowledge base per rung, built from the State
 * of the Union corpus with the extractive summariser; per rung the build time split into embed / kNN /
 * clustering / summaries, database size, peak heap, depth and arity, retrieve P50/P99 over held-out prompts
 * and the flat scan's P50 on the same prompts. Writes {@code results.csv} and ends with the HNSW decision.
 *
 * <p>The latencies are those of a process that has served retrieves for a while: {@code --warmup} other prompts
 * (1,000 by default) go through the same calls first. A retrieve calls many of its methods once, and HotSpot's
 * tiered compiler gives a method its optimised (C2) code only after hundreds to thousands of calls, so a
 * process's first few hundred retrieves run partly in the profiling tier (docs/benchmarks.md, "The ladder's
 * warm-up").
 *
 * <p>{@code --embedder hash} swaps MiniLM for the deterministic feature-hash embedder
 * ({@link dev.setree.internal.eval.Research#hashEmbedder}; token counts stay WordPiece's), so that everything but
 * embedding can be measured at sizes a neural model would take hours to embed. Rungs larger than the corpus get synthetic leaves: {@link #synthetic}.
 */
@Command(name = "ladder", mixinStandardHelpOptions = true,
    description = "Scaling benchmark: build and retrieve at growing sizes (corpus: scripts/fetch_benchmark_corpus.sh).")
final class BenchLadder implements Callable<Integer> {
  /** Retrieve P50 target at the largest rung (issue #6), in ms. */
  static final double P50_TARGET_MS = 10;
  /** Build time target at the largest rung, in seconds. */
  static final double BUILD_TARGET_S = 300;

  @Option(names = "--rungs", split = ",", defaultValue = "100,500,1000,5000,10000,50000",
      description = "Knowledge-base sizes.")
  List<Integer> rungs;

  @Option(names = "--out", defaultValue = "bench-out", description = "Output folder (results.csv, tree_<n>.db).")
  Path out;

  @Option(names = "--prompts", defaultValue = "200", description = "Held-out prompts per rung.")
  int prompts;

  @Option(names = "--warmup", defaultValue = "1000", description = "Prompts run before the measured ones, on every"
      + " rung: each through the default, flat and exact retrieves and the embedder alone, as the measured ones"
      + " are, so that the JIT has compiled the retrieve paths (default: ${DEFAULT-VALUE}). Other sentences of the"
      + " corpus than the held-out ones; the held-out prompts again when the corpus has too few.")
  int warmup;

  @Option(names = "--budget", defaultValue = "1024", description = "Retrieve budget.")
  int budget;

  @Option(names = "--corpus", defaultValue = "corpus/sotu-sentences.txt", description = "Sentences, one per line.")
  Path corpus;

  @Mixin
  BenchEmbedderOptions embedderOptions = new BenchEmbedderOptions();

  @Option(names = "--reuse", description = "Reuse an existing tree_<n>.db of the same rung instead of building"
      + " it again (measures retrieval only; build columns are then 0).")
  boolean reuse;

  record Row(int leaves, double buildS, double embedS, double knnS, double clusterS, double summaryS, long dbBytes,
      long peakHeapMb, int depth, double arity, int rootArity, double p50, double p99, double flatP50,
      Paths paths, int warmup) {}

  /**
   * The query-path columns of issue 13: the prompt embedding alone, which leaf scoring the default retrieve
   * took, the exact path's latency on the same prompts and how far the two covers agree.
   *
   * @param embedP50 P50 of the prompt embedding alone, ms
   * @param embedP99 P99 of the prompt embedding alone, ms (what retrieve's P99 can be set against)
   * @param approximate true when the default retrieve took the candidate path at this size
   * @param exactP50 P50 of the exact path, ms
   * @param exactP99 P99 of the exact path, ms
   * @param agreement mean Jaccard of the rendered leaf ids, default vs exact path (1 when both are exact)
   */
  record Paths(double embedP50, double embedP99, boolean approximate, double exactP50, double exactP99,
      double agreement) {
    static final Paths NONE = new Paths(0, 0, false, 0, 0, 1);
  }

  @Override
  public Integer call() throws Exception {
    System.out.println(BenchJvm.current().line());
    System.out.printf(Locale.ROOT, "A retrieve's dot products: %s%n",
        SimdDot.vectorized() ? "JDK Vector API (docs/adr/0024-simd-query-dots.md)"
            : "scalar (vector lanes need --add-modules jdk.incubator.vector)");
    if (warmup < 0) {
      throw new IllegalArgumentException("--warmup must be 0 or more, got " + warmup);
    }
    int max = rungs.stream().mapToInt(Integer::intValue).max().orElse(0);
    int lines = countLines();
    // The leaves and held-out prompts come from the first max + prompts sentences, as before the warm-up was
    // added, so that a knowledge base kept from an earlier run (--reuse) meets the same prompts.
    int base = Math.min(max + prompts, lines);
    List<String> all = BenchCommand.corpus(corpus, Math.min(base + warmup, lines));
    Files.createDirectories(out);
    List<Row> rows = new ArrayList<>();
    ProgressBar bar = ProgressBar.onStderr();
    try (BenchEmbedderOptions.Opened opened = embedderOptions.open()) {
      SETreeConfig cfg = SETreeConfig.builder().embedder(opened.embedder()).tokenCounter(opened.counter()).build();
      for (int n : rungs) {
        Split split = split(all, base, n, prompts, warmup);
        List<Fact> facts = split.facts();
        List<String> held = split.held();
        Path db = out.resolve("tree_" + n + ".db");
        boolean rebuild = !(reuse && Files.exists(db));
        if (rebuild) {
          Files.deleteIfExists(db);
        }
        resetPeaks();
        long t0 = System.nanoTime();
        BuildReport s;
        Row row;
        try (SETree kb = SETree.open(db, cfg)) {
          String label = "rung " + n;
          s = rebuild ? kb.build(facts, (stage, done, total) -> bar.update(label + " " + stage, done, total))
              : new BuildReport(0, 0, 0, 0, 0, 0, 0);
          double buildS = rebuild ? (System.nanoTime() - t0) / 1e9 : 0;
          bar.finish();
          List<String> warm = split.warmup();
          for (int i = 0; i < warm.size(); i++) { // the measured loop's calls, on other prompts
            kb.retrieve(warm.get(i), budget);
            kb.retrieve(warm.get(i), budget, Strategy.FLAT);
            opened.embedder().embed(warm.get(i));
            kb.retrieve(warm.get(i), budget, EXACT);
            bar.update(label + " warm-up", i + 1, warm.size());
          }
          bar.finish();
          double[] ms = new double[held.size()];
          double[] flat = new double[held.size()];
          double[] embed = new double[held.size()];
          double[] exact = new double[held.size()];
          double agreement = 0;
          for (int i = 0; i < held.size(); i++) {
            Context c = kb.retrieve(held.get(i), budget);
            ms[i] = c.stats().elapsedNanos() / 1e6;
            flat[i] = kb.retrieve(held.get(i), budget, Strategy.FLAT).stats().elapsedNanos() / 1e6;
            long e0 = System.nanoTime();
            opened.embedder().embed(held.get(i));
            embed[i] = (System.nanoTime() - e0) / 1e6;
            Context x = kb.retrieve(held.get(i), budget, EXACT);
            exact[i] = x.stats().elapsedNanos() / 1e6;
            agreement += jaccard(c.leafIds(), x.leafIds());
            bar.update(label + " prompts", i + 1, held.size());
          }
          bar.finish();
          Arrays.sort(ms);
          Arrays.sort(flat);
          Arrays.sort(embed);
          Arrays.sort(exact);
          Paths paths = new Paths(Evaluation.percentile(embed, 0.5), Evaluation.percentile(embed, 0.99),
              approximate(kb.config(), n),
              Evaluation.percentile(exact, 0.5), Evaluation.percentile(exact, 0.99),
              held.isEmpty() ? 1 : agreement / held.size());
          SETree.Stats st = kb.stats();
          row = new Row(n, buildS, s.embedNanos() / 1e9, s.knnNanos() / 1e9, s.clusterNanos() / 1e9,
              s.summaryNanos() / 1e9, 0, peakHeapMb(), st.depth(), st.meanArity(), st.rootArity(),
              Evaluation.percentile(ms, 0.5), Evaluation.percentile(ms, 0.99), Evaluation.percentile(flat, 0.5),
              paths, warm.size());
        }
        row = new Row(row.leaves(), row.buildS(), row.embedS(), row.knnS(), row.clusterS(), row.summaryS(),
            Files.size(db), row.peakHeapMb(), row.depth(), row.arity(), row.rootArity(), row.p50(), row.p99(),
            row.flatP50(), row.paths(), row.warmup());
        rows.add(row);
        print(row);
      }
    }
    writeCsv(rows);
    Row last = rows.get(rows.size() - 1);
    boolean knnBound = last.knnS() > BUILD_TARGET_S / 2;
    boolean scanBound = last.flatP50() > P50_TARGET_MS;
    System.out.printf(Locale.ROOT, "HNSW mandatory at %d leaves: %s (rule: an approximate index is mandatory when"
            + " exact kNN takes more than half of the %.0f s build target (here %.1f s) or when the exact scan alone"
            + " misses the %.0f ms retrieve P50 target (here flat P50 %.2f ms))%n", last.leaves(),
        knnBound || scanBound ? "yes" : "no", BUILD_TARGET_S, last.knnS(), P50_TARGET_MS, last.flatP50());
    return 0;
  }

  private static final RetrieveOptions EXACT = RetrieveOptions.builder().path(RetrievePath.EXACT).build();

  /** Whether the default retrieve takes the candidate path on {@code leaves} leaves under {@code c}. */
  static boolean approximate(SETreeConfig c, int leaves) {
    return c.retrievePath() == RetrievePath.APPROXIMATE
        || c.retrievePath() == RetrievePath.AUTO && leaves >= c.approximateFromLeaves();
  }

  /** |a ∩ b| / |a ∪ b| of two id lists as sets (1 when both are empty). */
  static double jaccard(List<String> a, List<String> b) {
    java.util.Set<String> union = new java.util.HashSet<>(a);
    union.addAll(b);
    if (union.isEmpty()) {
      return 1;
    }
    java.util.Set<String> both = new java.util.HashSet<>(a);
    both.retainAll(new java.util.HashSet<>(b));
    return (double) both.size() / union.size();
  }

  private int countLines() throws java.io.IOException {
    return (int) FactsFile.readLines(corpus).stream().filter(s -> !s.isBlank()).count();
  }

  /**
   * A rung's leaves, its held-out prompts and its warm-up prompts.
   *
   * @param facts the leaves
   * @param held the measured prompts
   * @param warmup the prompts run before them
   */
  record Split(List<Fact> facts, List<String> held, List<String> warmup) {}

  /**
   * Splits the corpus for a rung of {@code n} leaves. Leaves and held-out prompts come from the first {@code base}
   * sentences: when they have room, the leaves are spread over them (every step-th sentence) and the held-out
   * prompts are sentences in between; larger rungs get {@link #synthetic} leaves from all of them but the first
   * {@code prompts}, which are the prompts. The warm-up prompts are the sentences that are neither a leaf nor a
   * held-out prompt, in corpus order (at a synthetic rung, those after the prompts, which the leaves are made
   * of); when there are too few, the held-out prompts follow, as often as needed. Every prompt is a sentence cut
   * to its first 12 words ({@link #truncate}).
   */
  static Split split(List<String> all, int base, int n, int prompts, int warmup) {
    List<Fact> facts = new ArrayList<>(n);
    List<String> held = new ArrayList<>(prompts);
    List<String> warm = new ArrayList<>(warmup);
    if (n + prompts <= base) {
      int step = Math.max(1, base / (n + prompts));
      for (int i = 0; i < all.size() && (facts.size() < n || held.size() < prompts || warm.size() < warmup); i++) {
        if (i < base && i % step == 0 && facts.size() < n) {
          facts.add(Fact.of("s" + i, all.get(i)));
        } else if (i < base && i % step == step / 2 && held.size() < prompts) {
          held.add(truncate(all.get(i)));
        } else if (warm.size() < warmup) {
          warm.add(truncate(all.get(i)));
        }
      }
    } else {
      int p = Math.min(prompts, base);
      facts = synthetic(all.subList(p, base), n);
      all.subList(0, p).forEach(x -> held.add(truncate(x)));
      all.subList(p, Math.min(all.size(), p + warmup)).forEach(x -> warm.add(truncate(x)));
    }
    for (int i = 0; warm.size() < warmup && !held.isEmpty(); i++) {
      warm.add(held.get(i % held.size()));
    }
    return new Split(facts, held, warm);
  }

  /**
   * {@code n} distinct synthetic leaves from corpus sentences, for rungs larger than the corpus: leaf
   * {@code i} joins the first half of sentence {@code i mod m} with the second half of sentence
   * {@code (i / m * 7919 + i) mod m}, so each round over the corpus pairs every sentence with another
   * partner; a number suffix keeps the rare repeated pair distinct. Deterministic.
   */
  static List<Fact> synthetic(List<String> sentences, int n) {
    int m = sentences.size();
    List<Fact> out = new ArrayList<>(n);
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < n; i++) {
      String[] a = sentences.get(i % m).split("\\s+");
      String[] b = sentences.get((int) (((long) (i / m) * 7919 + i) % m)).split("\\s+");
      String text = String.join(" ", Arrays.copyOf(a, (a.length + 1) / 2)) + " "
          + String.join(" ", Arrays.copyOfRange(b, b.length / 2, b.length));
      if (!seen.add(text)) {
        text = text + " (" + i + ")";
      }
      out.add(Fact.of("g" + i, text));
    }
    return out;
  }

  /** A held-out sentence as a prompt: its first 12 words. */
  static String truncate(String s) {
    String[] w = s.split("\\s+");
    return String.join(" ", Arrays.copyOf(w, Math.min(12, w.length)));
  }

  private static void resetPeaks() {
    System.gc();
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      p.resetPeakUsage();
    }
  }

  private static long peakHeapMb() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        sum += p.getPeakUsage().getUsed();
      }
    }
    return sum / (1024 * 1024);
  }

  private static void print(Row r) {
    System.out.printf(Locale.ROOT, "rung %6d: build %7.1f s (embed %.1f, kNN %.1f, clustering %.1f, summaries %.1f),"
            + " db %6.1f MB, peak heap %5d MB, depth %d, arity %.1f (root %d), retrieve P50 %.2f ms P99 %.2f ms,"
            + " flat P50 %.2f ms%n         %s path; prompt embedding P50 %.2f ms P99 %.2f ms; exact path P50 %.2f ms"
            + " P99 %.2f ms; exact agreement %.4f%n", r.leaves(), r.buildS(), r.embedS(), r.knnS(), r.clusterS(),
        r.summaryS(), r.dbBytes() / 1e6, r.peakHeapMb(), r.depth(), r.arity(), r.rootArity(), r.p50(), r.p99(),
        r.flatP50(), r.paths().approximate() ? "candidate" : "exact", r.paths().embedP50(), r.paths().embedP99(),
        r.paths().exactP50(), r.paths().exactP99(), r.paths().agreement());
  }

  private void writeCsv(List<Row> rows) throws java.io.IOException {
    StringBuilder sb = new StringBuilder("leaves,build_s,embed_s,knn_s,clustering_s,summaries_s,db_bytes,"
        + "peak_heap_mb,depth,mean_arity,root_arity,retrieve_p50_ms,retrieve_p99_ms,flat_p50_ms,"
        + "embed_p50_ms,retrieve_path,exact_p50_ms,exact_p99_ms,exact_agreement,java,simd,embed_p99_ms,"
        + "warmup_prompts\n");
    for (Row r : rows) {
      sb.append(String.format(Locale.ROOT, "%d,%.2f,%.2f,%.2f,%.2f,%.2f,%d,%d,%d,%.2f,%d,%.3f,%.3f,%.3f,"
              + "%.3f,%s,%.3f,%.3f,%.4f,%d,%b,%.3f,%d%n",
          r.leaves(), r.buildS(), r.embedS(), r.knnS(), r.clusterS(), r.summaryS(), r.dbBytes(), r.peakHeapMb(),
          r.depth(), r.arity(), r.rootArity(), r.p50(), r.p99(), r.flatP50(), r.paths().embedP50(),
          r.paths().approximate() ? "approximate" : "exact", r.paths().exactP50(), r.paths().exactP99(),
          r.paths().agreement(), Runtime.version().feature(), SimdDot.vectorized(), r.paths().embedP99(),
          r.warmup()));
    }
    Files.writeString(out.resolve("results.csv"), sb.toString());
    System.out.println("wrote " + out.resolve("results.csv"));
  }
}

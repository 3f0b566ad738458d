package dev.setree.cli;

import dev.setree.BuildReport;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.MaintenanceReport;
import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.internal.core.RowDots;
import dev.setree.spi.Embedder;
import dev.setree.spi.Fact;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code setree bench insert}: per-insert maintenance time against a full rebuild of the same tree, and
 * insert-to-visible latency, on real sentences with the real model and store. With {@code --embedder hash}, on
 * rungs a model would take hours to embed: a rung larger than the corpus gets the synthetic leaves
 * {@code bench ladder --prompts 50} makes ({@link BenchLadder#synthetic}), and its inserts are the next ones.
 */
@Command(name = "insert", mixinStandardHelpOptions = true,
    description = "Per-insert maintenance time vs a full rebuild, and insert-to-visible latency.")
final class BenchInsert implements Callable<Integer> {
  @Option(names = "--leaves", required = true, description = "Leaves of the initial knowledge base.")
  int leaves;

  @Option(names = "--inserts", required = true, description = "Single inserts to measure.")
  int inserts;

  @Option(names = "--corpus", defaultValue = "corpus/sotu-sentences.txt",
      description = "Sentences, one per line (default: scripts/fetch_benchmark_corpus.sh's output). When --leaves"
          + " plus --inserts is more than it holds, the leaves are those `bench ladder --prompts 50` makes for a"
          + " rung larger than the corpus, and the inserts the next of them.")
  Path corpus;

  @Mixin
  BenchEmbedderOptions embedderOptions = new BenchEmbedderOptions();

  @Option(names = "--quiet-ms", defaultValue = "500", description = "Maintenance quiet window.")
  long quietMs;

  @Option(names = "--json", description = "Write the results as JSON to this file.")
  Path jsonOut;

  @Option(names = "--db", description = "Start from a copy of this knowledge base (built with the default"
      + " embedder from the corpus's first --leaves sentences, e.g. by `setree build`) instead of building one;"
      + " a version-1 file is migrated on the copy.")
  Path startFrom;

  @Option(names = "--pause-before-inserts", defaultValue = "0", description = "Milliseconds to wait between"
      + " opening the knowledge base and the first insert, as a long-running process (an MCP server) does before"
      + " its user's first fact (default: ${DEFAULT-VALUE}, insert at once).")
  long pauseMs;

  @Option(names = "--warm-up-runs", description = "The writer's warm-up runs on open (config key"
      + " maintenance.warm_up_runs; default: the config's, none). They are made only while no mutation waits, so"
      + " they show with --pause-before-inserts.")
  Integer warmUpRuns;

  @Option(names = "--skip-full-rebuild", description = "Do not time a full rebuild of the final knowledge base"
      + " (its JSON fields are then null).")
  boolean skipFullRebuild;

  @Override
  public Integer call() throws Exception {
    if (pauseMs < 0) {
      throw new IllegalArgumentException("--pause-before-inserts must be at least 0 ms, got " + pauseMs);
    }
    BenchJvm jvm = BenchJvm.current();
    System.out.println(jvm.line());
    List<String> sentences = BenchCommand.corpus(corpus);
    int sentenceCount = sentences.size();
    List<Fact> facts = facts(sentences, leaves, inserts);
    List<Fact> base = facts.subList(0, leaves);
    List<Fact> added = facts.subList(leaves, leaves + inserts);
    Path dir = Files.createTempDirectory("setree-bench-insert-");
    ProgressBar bar = ProgressBar.onStderr();
    double[] runMs = new double[inserts];
    double[] visibleMs = new double[inserts];
    int[] summarized = new int[inserts];
    int[] dirtyLevels = new int[inserts];
    int[] reclustered = new int[inserts];
    long[] bytes = new long[inserts];
    double[] runRebuildMs = new double[inserts];
    double[] runSaveMs = new double[inserts];
    List<Map<String, Long>> runSteps = new ArrayList<>();
    double[] openMs = new double[3];
    BuildReport initial = null;
    BuildReport rebuild = null;
    String finalDigest = null;
    double initialMs = Double.NaN;
    double rebuildMs = Double.NaN;
    double migrateMs = Double.NaN;
    Path kbFile = dir.resolve("kb.db");
    SETreeConfig.Builder config = SETreeConfig.builder().quietWindowMillis(quietMs);
    if (warmUpRuns != null) {
      config.warmUpRuns(warmUpRuns);
    }
    SETreeConfig cfg = embedderOptions.configure(config); // MiniLM unless --embedder says otherwise
    try (Embedder embedder = cfg.embedder()) {
      if (startFrom != null) {
        Files.copy(startFrom, kbFile);
        long t0 = System.nanoTime();
        try (SETree kb = SETree.open(kbFile, cfg)) {
          migrateMs = (System.nanoTime() - t0) / 1e6; // includes a version-1 migration, if any
          if (kb.stats().leaves() != leaves) {
            throw new IllegalArgumentException(startFrom + " holds " + kb.stats().leaves() + " leaves, not --leaves "
                + leaves);
          }
        }
      }
      try (SETree kb = SETree.open(kbFile, cfg)) {
        if (startFrom == null) {
          long t0 = System.nanoTime();
          initial = kb.build(base, bar);
          initialMs = (System.nanoTime() - t0) / 1e6;
          bar.finish();
        }
        Thread.sleep(pauseMs);
        for (int i = 0; i < inserts; i++) {
          long s = System.nanoTime();
          if (kb.insert(added.get(i)).duplicate()) {
            String where = leaves + inserts <= sentenceCount ? "corpus line " + (leaves + i + 1)
                : "synthetic leaf " + (leaves + i);
            throw new IllegalArgumentException("insert " + (i + 1) + " (" + where + ") is"
                + " already a leaf of the knowledge base, so no run would be measured: --db must be built from"
                + " the corpus's first --leaves sentences (a `bench ladder` file is so only for its largest rung)");
          }
          kb.awaitMaintenance().get(10, TimeUnit.MINUTES);
          visibleMs[i] = (System.nanoTime() - s) / 1e6;
          MaintenanceReport r = kb.lastMaintenanceRun();
          runMs[i] = r.totalNanos() / 1e6;
          summarized[i] = r.summarized();
          dirtyLevels[i] = r.dirtyLevels();
          reclustered[i] = r.reclusteredMembers();
          bytes[i] = r.bytesWritten();
          runRebuildMs[i] = r.rebuildNanos() / 1e6;
          runSaveMs[i] = r.saveNanos() / 1e6;
          runSteps.add(r.stepNanos());
          bar.update("inserts", i + 1, inserts);
        }
        bar.finish();
        finalDigest = TreeDigest.of(kb.tree()); // after the timed runs
      }
      // Open to first retrieve, the model already loaded: what a new process pays per knowledge base.
      for (int i = 0; i < openMs.length; i++) {
        long t0 = System.nanoTime();
        try (SETree kb = SETree.open(kbFile, cfg)) {
          kb.retrieve("the state of the union", 512);
          openMs[i] = (System.nanoTime() - t0) / 1e6;
        }
      }
      if (!skipFullRebuild) {
        // A full rebuild of the same tree: every leaf of the final knowledge base, built from scratch.
        try (SETree kb = SETree.open(dir.resolve("full.db"), cfg)) {
          long t0 = System.nanoTime();
          rebuild = kb.build(facts, bar);
          rebuildMs = (System.nanoTime() - t0) / 1e6;
          bar.finish();
        }
      }
    } finally {
      EvalCommand.deleteTree(dir);
    }
    double[] sortedRun = runMs.clone();
    Arrays.sort(sortedRun);
    double[] sortedVisible = visibleMs.clone();
    Arrays.sort(sortedVisible);
    double runP50 = Evaluation.percentile(sortedRun, 0.5);
    double runP99 = Evaluation.percentile(sortedRun, 0.99);
    double structureMs = rebuild == null ? Double.NaN
        : (rebuild.knnNanos() + rebuild.clusterNanos() + rebuild.summaryNanos()) / 1e6;
    long[] sortedBytes = bytes.clone();
    Arrays.sort(sortedBytes);
    long bytesP50 = sortedBytes.length == 0 ? 0 : sortedBytes[sortedBytes.length / 2];
    double meanBytes = Arrays.stream(bytes).average().orElse(0);
    double[] sortedOpen = openMs.clone();
    Arrays.sort(sortedOpen);
    double openP50 = sortedOpen[sortedOpen.length / 2];
    System.out.printf(Locale.ROOT, "leaves %d, inserts %d, quiet window %d ms%n", leaves, inserts, quietMs);
    if (initial != null) {
      System.out.printf(Locale.ROOT, "initial build: %.0f ms (embedding %.0f ms)%n", initialMs,
          initial.embedNanos() / 1e6);
    } else {
      System.out.printf(Locale.ROOT, "started from %s (first open, with any migration: %.0f ms)%n", startFrom,
          migrateMs);
    }
    if (rebuild != null) {
      System.out.printf(Locale.ROOT, "full rebuild of the final %d leaves: %.0f ms (without embedding: %.0f ms)%n",
          leaves + inserts, rebuildMs, structureMs);
    }
    System.out.printf(Locale.ROOT, "per-insert maintenance run (read state + rebuild + save + snapshot): P50 %.1f ms,"
        + " P99 %.1f ms (summaries written: median %d)%n", runP50, runP99, median(summarized));
    System.out.printf(Locale.ROOT, "of which rebuild + summaries P50 %.1f ms, save P50 %.1f ms%n",
        median(runRebuildMs), median(runSaveMs));
    Map<String, Double> stepP50 = stepMedians(runSteps);
    StringBuilder stepLine = new StringBuilder();
    stepP50.forEach((k, v) -> stepLine.append(stepLine.length() == 0 ? "" : ", ")
        .append(String.format(Locale.ROOT, "%s %.1f", k, v)));
    System.out.printf(Locale.ROOT, "steps of a run (P50 ms): %s%n", stepLine);
    System.out.printf(Locale.ROOT, "bytes written per run: median %d, mean %.0f%n", bytesP50, meanBytes);
    System.out.printf(Locale.ROOT, "insert-to-visible: P50 %.1f ms, P99 %.1f ms%n",
        Evaluation.percentile(sortedVisible, 0.5), Evaluation.percentile(sortedVisible, 0.99));
    System.out.printf(Locale.ROOT, "open to first retrieve (model loaded): median of 3 %.0f ms%n", openP50);
    System.out.printf(Locale.ROOT, "final tree: SHA-256 %s; leaf-row products on vector lanes at the end: %s%n",
        finalDigest, RowDots.lanes() ? "yes" : "no");
    if (rebuild != null) {
      System.out.printf(Locale.ROOT, "full rebuild / incremental P50: %.1fx (without embedding: %.1fx)%n",
          rebuildMs / runP50, structureMs / runP50);
    }
    if (jsonOut != null) {
      ObjectMapper m = new ObjectMapper();
      ObjectNode o = m.createObjectNode();
      o.put("leaves", leaves);
      o.put("inserts", inserts);
      o.put("quiet_ms", quietMs);
      o.put("pause_before_inserts_ms", pauseMs);
      o.put("warm_up_runs", cfg.warmUpRuns());
      putOrNull(o, "initial_build_ms", initialMs);
      putOrNull(o, "full_rebuild_ms", rebuildMs);
      putOrNull(o, "full_rebuild_without_embedding_ms", structureMs);
      o.put("maintenance_p50_ms", runP50);
      o.put("maintenance_p99_ms", runP99);
      o.put("run_p50_ms", runP50);
      o.put("run_p99_ms", runP99);
      o.put("visible_p50_ms", Evaluation.percentile(sortedVisible, 0.5));
      o.put("visible_p99_ms", Evaluation.percentile(sortedVisible, 0.99));
      o.put("bytes_written_per_run", bytesP50);
      o.put("bytes_written_per_run_mean", meanBytes);
      o.put("open_ms", openP50);
      o.put("rebuild_p50_ms", median(runRebuildMs));
      o.put("save_p50_ms", median(runSaveMs));
      ObjectNode steps = o.putObject("step_p50_ms");
      stepP50.forEach(steps::put);
      putOrNull(o, "ratio_full_over_incremental", rebuildMs / runP50);
      putOrNull(o, "ratio_full_without_embedding_over_incremental", structureMs / runP50);
      // Per run, in insert order: where the tail comes from (the first run after open, or a run that re-clusters).
      putArray(o.putArray("run_ms"), runMs);
      putArray(o.putArray("visible_ms"), visibleMs);
      putArray(o.putArray("rebuild_ms"), runRebuildMs);
      putArray(o.putArray("save_ms"), runSaveMs);
      ArrayNode stepsMs = o.putArray("steps_ms");
      for (Map<String, Long> run : runSteps) {
        ObjectNode one = stepsMs.addObject();
        run.forEach((k, v) -> one.put(k, v / 1e6));
      }
      putArray(o.putArray("summarized"), summarized);
      putArray(o.putArray("dirty_levels"), dirtyLevels);
      putArray(o.putArray("reclustered_members"), reclustered);
      jvm.putInto(o);
      o.put("row_dot_lanes", RowDots.lanes()); // whether the runs' leaf-row products ended on lanes (ADR 0046)
      o.put("final_tree_sha256", finalDigest); // the same knowledge base, or not, whatever the jar or the JVM
      Files.writeString(jsonOut, m.writerWithDefaultPrettyPrinter().writeValueAsString(o));
    }
    return 0;
  }

  /**
   * The initial knowledge base's {@code leaves} facts, then the {@code inserts} facts inserted one by one: the
   * corpus's first sentences (ids {@code s<i>}, then {@code ins<i>}), or, when it holds too few, the synthetic
   * leaves of a {@code bench ladder --prompts 50} rung of {@code leaves + inserts} (made from the sentences after
   * its 50 prompts; the first {@code leaves} are the rung of {@code leaves}'s, as the generation is a prefix).
   */
  static List<Fact> facts(List<String> sentences, int leaves, int inserts) {
    List<Fact> out = new ArrayList<>(leaves + inserts);
    if (leaves + inserts <= sentences.size()) {
      for (int i = 0; i < leaves + inserts; i++) {
        out.add(Fact.of((i < leaves ? "s" + i : "ins" + (i - leaves)), sentences.get(i)));
      }
      return out;
    }
    int prompts = 50;
    if (sentences.size() <= prompts) {
      throw new IllegalArgumentException("the corpus has " + sentences.size() + " sentences; a synthetic rung needs"
          + " more than " + prompts);
    }
    List<Fact> synthetic = BenchLadder.synthetic(sentences.subList(prompts, sentences.size()), leaves + inserts);
    out.addAll(synthetic.subList(0, leaves));
    for (int i = 0; i < inserts; i++) {
      out.add(Fact.of("ins" + i, synthetic.get(leaves + i).text()));
    }
    return out;
  }

  /**
   * Each step's median over the runs that had it, in milliseconds, the steps in the order they first ran (a run
   * that skipped a step, such as a level its rebuild did not reach, does not count as 0 for it).
   */
  static Map<String, Double> stepMedians(List<Map<String, Long>> runs) {
    Map<String, List<Double>> byStep = new LinkedHashMap<>();
    for (Map<String, Long> run : runs) {
      run.forEach((k, v) -> byStep.computeIfAbsent(k, x -> new ArrayList<>()).add(v / 1e6));
    }
    Map<String, Double> out = new LinkedHashMap<>();
    byStep.forEach((k, v) -> out.put(k, median(v.stream().mapToDouble(Double::doubleValue).toArray())));
    return out;
  }

  private static void putOrNull(ObjectNode o, String key, double value) {
    if (Double.isNaN(value)) {
      o.putNull(key);
    } else {
      o.put(key, value);
    }
  }

  private static void putArray(ArrayNode a, double[] values) {
    for (double v : values) {
      a.add(Math.round(v * 10) / 10.0);
    }
  }

  private static void putArray(ArrayNode a, int[] values) {
    for (int v : values) {
      a.add(v);
    }
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length == 0 ? Double.NaN : s[s.length / 2];
  }

  private static int median(int[] v) {
    int[] s = v.clone();
    Arrays.sort(s);
    return s.length == 0 ? 0 : s[s.length / 2];
  }
}

package dev.setree.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.Context;
import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.internal.eval.Research;
import dev.setree.spi.Embedder;
import dev.setree.spi.Fact;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code setree eval}: measures retrieval quality of SETree and its baselines on evaluation data (see
 * docs/evaluation.md). Each facts/queries pair is its own knowledge base, built fresh in a temporary
 * folder; every system sees the same leaves, embedder, token counter and budget.
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
    description = "Evaluate retrieval on facts/queries JSONL pairs (each pair its own knowledge base).")
final class EvalCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(names = "--facts", required = true, description = "Facts JSONL (repeat, paired with --queries).")
  List<Path> facts;

  @Option(names = "--queries", required = true, description = "Queries JSONL (repeat, paired with --facts).")
  List<Path> queries;

  @Option(names = "--broad", description = "Overview (broad) queries JSONL with \"events\", e.g."
      + " locomo-26.obs.broad.jsonl (repeat, paired with --facts in order; optional).")
  List<Path> broad;

  @Option(names = "--budgets", split = ",", defaultValue = "256,512,1024,2048", description = "Token budgets.")
  List<Integer> budgets;

  @Option(names = "--systems", split = ",", defaultValue = "setree,flat",
      description = "Systems: setree, flat, bm25, hybrid, collapsed, recency.")
  List<String> systems;

  @Option(names = "--sweep", description = "Tree-cover variants to add, e.g. 'beta=0,0.1;overview_share=0.05,0.1'"
      + " (keys: beta, tau, epsilon, overview_share, overview_temperature, period_boost, substance,"
      + " period_substance, second_hop, clustering).")
  String sweep;

  @Option(names = "--json", description = "Write the results as JSON to this file.")
  Path jsonOut;

  @Option(names = "--markdown", description = "Write Markdown tables of the results to this file.")
  Path markdownOut;

  @Option(names = "--per-kb", description = "Also print the headline recall of every knowledge base.")
  boolean perKbTable;

  @Option(names = "--baseline", description = "Quality guard: fail (exit 3) when setree's headline recall per"
      + " variant falls more than the file's tolerance below the recall it records.")
  Path baseline;

  @Option(names = "--target-arity", description = "Override target_arity (the build's mean community size).")
  Integer targetArity;

  @Option(names = "--overview-share", description = "Override overview_share.")
  Double overviewShare;

  @Option(names = "--tau", description = "Override calibration.tau (lexical weight).")
  Double tau;

  @Option(names = "--beta", description = "Override calibration.beta.")
  Double beta;

  @Option(names = "--top-summary-tokens", description = "Override top_summary_tokens.")
  Integer topSummaryTokens;

  @Option(names = "--summary-tokens", description = "Override summary_tokens.")
  Integer summaryTokens;

  @Option(names = "--insert-share", defaultValue = "0", description = "The quality of maintained trees: build each"
      + " knowledge base from the first facts of its file and insert this share of them, the last ones (at least 0,"
      + " below 1), one at a time, each made visible by its own maintenance run before the next (default:"
      + " ${DEFAULT-VALUE}, build from every fact).")
  double insertShare;

  @Option(names = "--summary-design", hidden = true, description = "Experiment: the extractive summary design"
      + " (SENTENCE, TERMS, CLAUSES, TOPICS); ignored with an LLM summariser.")
  Research.SummaryDesign summaryDesign;

  @Mixin
  ConfigOptions options = new ConfigOptions();

  @Override
  public Integer call() throws Exception {
    if (facts.size() != queries.size()) {
      throw new IllegalArgumentException("give as many --queries as --facts (" + facts.size() + " vs "
          + queries.size() + ")");
    }
    if (broad != null && broad.size() != facts.size()) {
      throw new IllegalArgumentException("give as many --broad as --facts (" + facts.size() + " vs "
          + broad.size() + ")");
    }
    if (!(insertShare >= 0 && insertShare < 1)) {
      throw new IllegalArgumentException("--insert-share must be at least 0 and below 1, got " + insertShare);
    }
    List<Evaluation.SystemSpec> specs = new ArrayList<>();
    for (String s : systems) {
      specs.add(Evaluation.system(s));
    }
    if (sweep != null) {
      specs.addAll(Evaluation.sweep(sweep));
    }
    Map<String, List<Evaluation.Outcome>> outcomes = new LinkedHashMap<>();
    ProgressBar bar = ProgressBar.onStderr();
    long buildNanos = 0;
    long insertNanos = 0;
    int inserted = 0;
    int duplicates = 0;
    SETreeConfig.Builder cb = options.builder();
    SETree.checkLlmReachable(cb.build());
    // One embedder for every knowledge base of the run (each makes its LLM summariser, if any).
    SETreeConfig withEmbedder = SETree.withEmbedder(cb.build());
    try (Embedder embedder = withEmbedder.embedder()) {
      SETreeConfig config = config(cb, withEmbedder);
      for (int k = 0; k < facts.size(); k++) {
        List<Fact> fs = FactsFile.read(facts.get(k));
        List<Evaluation.Query> qs = new ArrayList<>(readQueries(queries.get(k)));
        if (broad != null) {
          qs.addAll(readQueries(broad.get(k)));
        }
        String kbName = facts.get(k).getFileName().toString().replace(".facts.jsonl", "");
        Path dir = Files.createTempDirectory("setree-eval-");
        try (SETree kb = SETree.open(dir.resolve("kb.db"), config)) {
          int built = insertShare == 0 ? fs.size()
              : Math.max(2, fs.size() - (int) Math.round(insertShare * fs.size()));
          long t0 = System.nanoTime();
          kb.build(fs.subList(0, built), (stage, done, total) -> bar.update(kbName + " " + stage, done, total));
          buildNanos += System.nanoTime() - t0;
          long i0 = System.nanoTime();
          for (int i = built; i < fs.size(); i++) {
            bar.update(kbName + " inserts", i - built + 1, fs.size() - built);
            if (kb.insert(fs.get(i)).duplicate()) {
              duplicates++; // a text the knowledge base holds already: nothing is queued
            } else {
              inserted++;
            }
            kb.awaitMaintenance().get(10, TimeUnit.MINUTES);
          }
          insertNanos += System.nanoTime() - i0;
          Map<String, String> textById = new LinkedHashMap<>();
          for (Fact f : fs) {
            textById.put(f.id(), f.text());
          }
          kb.retrieve("warm up the walk and the embedder", 256); // first-call JIT cost is not a latency
          int done = 0;
          for (Evaluation.Query q : qs) {
            bar.update(kbName + " queries", ++done, qs.size());
            for (Evaluation.SystemSpec spec : specs) {
              for (int budget : budgets) {
                long s0 = System.nanoTime();
                Context ctx = kb.retrieve(q.prompt(), budget, spec.options());
                double ms = (System.nanoTime() - s0) / 1e6;
                outcomes.computeIfAbsent(spec.name() + "@" + budget, x -> new ArrayList<>())
                    .add(Evaluation.score(kbName, q, ctx, textById, kb.tree(), ms));
              }
            }
          }
        } finally {
          deleteTree(dir);
        }
      }
    }
    bar.finish();
    ArrayNode rows = JSON.createArrayNode();
    ArrayNode perKb = JSON.createArrayNode();
    ArrayNode perVariant = JSON.createArrayNode();
    System.out.printf("%-34s %6s %5s %7s %7s %7s %7s %7s %7s %7s %7s %8s %7s %7s%n", "system", "budget", "cat",
        "queries", "recall", "all_hit", "any_hit", "ans_hit", "cover", "ev_rou1", "ev_cov", "tokens", "p50_ms",
        "p99_ms");
    for (Evaluation.SystemSpec spec : specs) {
      for (int budget : budgets) {
        List<Evaluation.Outcome> all = outcomes.getOrDefault(spec.name() + "@" + budget, List.of());
        for (String group : Evaluation.GROUPS) {
          List<Evaluation.Outcome> sel = all.stream().filter(o -> Evaluation.inGroup(o.category(), group)).toList();
          if (sel.isEmpty()) {
            continue;
          }
          ObjectNode row = Evaluation.aggregate(spec.name(), budget, group, sel);
          rows.add(row);
          System.out.printf(Locale.ROOT, "%-34s %6d %5s %7d %7.3f %7.3f %7.3f %7.3f %7s %7s %7s %8.1f %7.2f %7.2f%n",
              spec.name(), budget, group, sel.size(), row.get("recall").asDouble(), row.get("all_hit").asDouble(),
              row.get("any_hit").asDouble(), row.get("answer_hit").asDouble(),
              row.has("cluster_coverage") ? String.format(Locale.ROOT, "%.3f", row.get("cluster_coverage").asDouble())
                  : "", optional(row, "event_rouge1"), optional(row, "event_coverage"),
              row.get("tokens_used").asDouble(), row.get("p50_ms").asDouble(), row.get("p99_ms").asDouble());
        }
        group(all, Evaluation.Outcome::kb, spec.name(), budget, "kb", perKb);
        group(all, o -> variant(o.kb()), spec.name(), budget, "variant", perVariant);
      }
    }
    if (perKbTable) {
      System.out.println();
      printBreakdown(perKb, "kb");
    }
    System.out.println();
    printBreakdown(perVariant, "variant");
    System.out.printf(Locale.ROOT, "build time: %.1f s over %d knowledge bases%n", buildNanos / 1e9, facts.size());
    if (insertShare > 0) {
      System.out.printf(Locale.ROOT, "then %d facts inserted one at a time, one maintenance run each (%d duplicate"
          + " texts not inserted): %.1f s%n", inserted, duplicates, insertNanos / 1e9);
    }
    if (jsonOut != null) {
      ObjectNode root = JSON.createObjectNode();
      root.set("results", rows);
      root.set("per_kb", perKb);
      root.set("per_variant", perVariant);
      root.put("build_seconds", Evaluation.round(buildNanos / 1e9));
      root.put("insert_share", insertShare);
      root.put("inserted", inserted);
      root.put("insert_duplicates", duplicates);
      root.put("insert_seconds", Evaluation.round(insertNanos / 1e9));
      Files.writeString(jsonOut, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
    }
    if (markdownOut != null) {
      Files.writeString(markdownOut, EvalMarkdown.render(rows, perVariant, perKb, specs, budgets));
    }
    return baseline == null ? 0 : QualityGuard.check(baseline, perVariant, System.out);
  }

  private SETreeConfig config(SETreeConfig.Builder cb, SETreeConfig withEmbedder) {
    cb.embedder(withEmbedder.embedder()).tokenCounter(withEmbedder.tokenCounter());
    if (insertShare > 0) {
      cb.quietWindowMillis(0); // each insert's run at once: the eval waits for it before the next insert
    }
    if (withEmbedder.llm() == null && summaryDesign != null) {
      cb.summarizer(Research.extractive(summaryDesign)); // with an LLM, SETree summarises with it
    }
    if (targetArity != null) {
      cb.targetArity(targetArity);
    }
    if (overviewShare != null) {
      cb.overviewShare(overviewShare);
    }
    if (tau != null) {
      cb.tau(tau);
    }
    if (beta != null) {
      cb.beta(beta);
    }
    if (topSummaryTokens != null) {
      cb.topSummaryTokens(topSummaryTokens);
    }
    if (summaryTokens != null) {
      cb.summaryTokens(summaryTokens);
    }
    return cb.build();
  }

  /** The variant of a knowledge base named {@code NAME.VARIANT} (e.g. locomo-26.turns -> turns). */
  static String variant(String kb) {
    int dot = kb.lastIndexOf('.');
    return dot < 0 ? kb : kb.substring(dot + 1);
  }

  private static String optional(JsonNode row, String field) {
    JsonNode v = row.get(field);
    return v == null || v.isNull() ? "" : String.format(Locale.ROOT, "%.3f", v.asDouble());
  }

  /** Per-group rows (headline 1-4 with multi-hop recall, and overview 6) for each value of {@code key}. */
  private static void group(List<Evaluation.Outcome> all, java.util.function.Function<Evaluation.Outcome, String> key,
      String system, int budget, String field, ArrayNode out) {
    all.stream().map(key).distinct().forEach(name -> {
      for (String g : List.of("1-4", "6")) {
        groupRow(all, key, name, g, system, budget, field, out);
      }
    });
  }

  private static void groupRow(List<Evaluation.Outcome> all, java.util.function.Function<Evaluation.Outcome, String> key,
      String name, String g, String system, int budget, String field, ArrayNode out) {
    {
      List<Evaluation.Outcome> sel = all.stream()
          .filter(o -> key.apply(o).equals(name) && Evaluation.inGroup(o.category(), g)).toList();
      if (!sel.isEmpty()) {
        ObjectNode row = Evaluation.aggregate(system, budget, g, sel);
        row.put(field, name);
        List<Evaluation.Outcome> multi = all.stream()
            .filter(o -> key.apply(o).equals(name) && o.category() == 1).toList();
        if (g.equals("1-4") && !multi.isEmpty()) {
          row.put("multi_hop_recall", Evaluation.round(
              multi.stream().mapToDouble(Evaluation.Outcome::recall).average().orElse(0)));
        }
        out.add(row);
      }
    }
  }

  private static void printBreakdown(ArrayNode rows, String field) {
    System.out.printf("%-34s %6s %-18s %5s %7s %7s %8s %7s %7s%n", "system", "budget", field, "cat", "recall",
        "ans_hit", "multihop", "ev_rou1", "ev_cov");
    for (JsonNode r : rows) {
      System.out.printf(Locale.ROOT, "%-34s %6d %-18s %5s %7.3f %7.3f %8s %7s %7s%n", r.get("system").asText(),
          r.get("budget").asInt(), r.get(field).asText(), r.get("categories").asText(), r.get("recall").asDouble(),
          r.get("answer_hit").asDouble(),
          r.has("multi_hop_recall") ? String.format(Locale.ROOT, "%.3f", r.get("multi_hop_recall").asDouble()) : "",
          optional(r, "event_rouge1"), optional(r, "event_coverage"));
    }
  }

  static List<Evaluation.Query> readQueries(Path file) throws IOException {
    List<Evaluation.Query> out = new ArrayList<>();
    List<String> lines = FactsFile.readLines(file);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      JsonNode n;
      try {
        n = JSON.readTree(lines.get(i));
      } catch (IOException e) {
        throw new IllegalArgumentException(file + ":" + (i + 1) + ": not valid JSON");
      }
      if (n.get("prompt") == null || n.get("gold") == null) {
        throw new IllegalArgumentException(file + ":" + (i + 1) + ": a query needs \"prompt\" and \"gold\"");
      }
      List<String> gold = new ArrayList<>();
      n.get("gold").forEach(g -> gold.add(g.asText()));
      List<String> events = new ArrayList<>();
      n.path("events").forEach(e -> events.add(e.asText()));
      JsonNode ans = n.get("answer");
      out.add(new Evaluation.Query(n.path("id").asText("q" + i), n.get("prompt").asText(), gold,
          n.path("category").asInt(0), ans == null || ans.isNull() ? "" : ans.asText(), List.copyOf(events)));
    }
    return out;
  }

  static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}

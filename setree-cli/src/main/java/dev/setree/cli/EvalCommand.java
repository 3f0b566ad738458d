package dev.setree.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.Context;
import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.Strategy;
import dev.setree.core.Fact;
import dev.setree.embed.MiniLmEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code setree eval}: measures retrieval quality of SETree and its baselines on evaluation data (see
 * docs/evaluation.md). Each facts/queries pair is its own knowledge base, built fresh in a temporary
 * folder; every system sees the same leaves, embedder, token counter and budget.
 */
@Command(name = "eval", mixinStandardHelpOptions = true,
    description = "Evaluate retrieval on facts/queries JSONL pairs (each pair its own knowledge base).")
final class EvalCommand implements Callable<Integer> {
  static final List<String> GROUPS = List.of("1-4", "1", "2", "3", "4", "5");
  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(names = "--facts", required = true, description = "Facts JSONL (repeat, paired with --queries).")
  List<Path> facts;

  @Option(names = "--queries", required = true, description = "Queries JSONL (repeat, paired with --facts).")
  List<Path> queries;

  @Option(names = "--budgets", split = ",", defaultValue = "256,512,1024,2048", description = "Token budgets.")
  List<Integer> budgets;

  @Option(names = "--systems", split = ",", defaultValue = "setree,flat",
      description = "Systems: setree, flat, bm25, hybrid.")
  List<String> systems;

  @Option(names = "--json", description = "Write the results as JSON to this file.")
  Path jsonOut;

  @Option(names = "--target-arity", description = "Override the build's target arity.")
  Integer targetArity;

  @Option(names = "--overview-share", description = "Override the overview share.")
  Double overviewShare;

  @Option(names = "--tau", description = "Override tau (lexical weight).")
  Double tau;

  @Option(names = "--beta", description = "Override beta.")
  Double beta;

  @Option(names = "--top-summary-tokens", description = "Override the top summary cap.")
  Integer topSummaryTokens;

  @Option(names = "--summary-tokens", description = "Override the lower summary cap.")
  Integer summaryTokens;

  /** One evaluation query. */
  record Query(String id, String prompt, List<String> gold, int category, String answer) {}

  /** Per-query outcome. */
  record Outcome(String kb, int category, double recall, boolean all, boolean any, boolean answer,
      int tokens, double ms, boolean complete) {}

  @Override
  public Integer call() throws Exception {
    if (facts.size() != queries.size()) {
      throw new IllegalArgumentException("give as many --queries as --facts (" + facts.size() + " vs "
          + queries.size() + ")");
    }
    for (String s : systems) {
      strategy(s);
    }
    Map<String, List<Outcome>> bySystemBudget = new LinkedHashMap<>();
    ProgressBar bar = new ProgressBar(System.err, true);
    long buildNanos = 0;
    try (MiniLmEmbedder embedder = MiniLmEmbedder.load()) {
      SETreeConfig.Builder cb = SETreeConfig.builder().embedder(embedder).tokenCounter(embedder.tokenizer());
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
      SETreeConfig config = cb.build();
      for (int k = 0; k < facts.size(); k++) {
        List<Fact> fs = FactsFile.read(facts.get(k));
        List<Query> qs = readQueries(queries.get(k));
        String kbName = facts.get(k).getFileName().toString().replace(".facts.jsonl", "");
        Path dir = Files.createTempDirectory("setree-eval-");
        try (SETree kb = SETree.open(dir.resolve("kb.db"), config)) {
          long t0 = System.nanoTime();
          kb.build(fs, (stage, done, total) -> bar.update(kbName + " " + stage, done, total));
          buildNanos += System.nanoTime() - t0;
          Map<String, String> textById = new LinkedHashMap<>();
          for (Fact f : fs) {
            textById.put(f.id(), f.text());
          }
          int done = 0;
          for (Query q : qs) {
            bar.update(kbName + " queries", ++done, qs.size());
            for (String system : systems) {
              for (int budget : budgets) {
                long s0 = System.nanoTime();
                Context ctx = kb.retrieve(q.prompt(), budget, strategy(system));
                double ms = (System.nanoTime() - s0) / 1e6;
                bySystemBudget.computeIfAbsent(system + "@" + budget, x -> new ArrayList<>())
                    .add(score(kbName, q, ctx, textById, ms));
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
    System.out.printf("%-8s %6s %5s %7s %7s %7s %7s %7s %8s %7s %7s%n", "system", "budget", "cat", "queries",
        "recall", "all_hit", "any_hit", "ans_hit", "tokens", "p50_ms", "p99_ms");
    for (String system : systems) {
      for (int budget : budgets) {
        List<Outcome> all = bySystemBudget.getOrDefault(system + "@" + budget, List.of());
        for (String group : GROUPS) {
          List<Outcome> sel = all.stream().filter(o -> inGroup(o.category(), group)).toList();
          if (sel.isEmpty()) {
            continue;
          }
          ObjectNode row = aggregate(system, budget, group, sel);
          rows.add(row);
          System.out.printf(Locale.ROOT, "%-8s %6d %5s %7d %7.3f %7.3f %7.3f %7.3f %8.1f %7.2f %7.2f%n", system,
              budget, group, sel.size(), row.get("recall").asDouble(), row.get("all_hit").asDouble(),
              row.get("any_hit").asDouble(), row.get("answer_hit").asDouble(), row.get("tokens_used").asDouble(),
              row.get("p50_ms").asDouble(), row.get("p99_ms").asDouble());
        }
      }
    }
    // Per knowledge base, headline group: guards against tuning on one conversation.
    ArrayNode perKb = JSON.createArrayNode();
    for (String system : systems) {
      for (int budget : budgets) {
        List<Outcome> all = bySystemBudget.getOrDefault(system + "@" + budget, List.of());
        all.stream().map(Outcome::kb).distinct().forEach(kb -> {
          List<Outcome> sel = all.stream().filter(o -> o.kb().equals(kb) && inGroup(o.category(), "1-4")).toList();
          if (!sel.isEmpty()) {
            ObjectNode row = aggregate(system, budget, "1-4", sel);
            row.put("kb", kb);
            perKb.add(row);
          }
        });
      }
    }
    System.out.printf(Locale.ROOT, "build time: %.1f s over %d knowledge bases%n", buildNanos / 1e9, facts.size());
    if (jsonOut != null) {
      ObjectNode root = JSON.createObjectNode();
      root.set("results", rows);
      root.set("per_kb", perKb);
      root.put("build_seconds", buildNanos / 1e9);
      Files.writeString(jsonOut, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
    }
    return 0;
  }

  static Strategy strategy(String system) {
    return switch (system) {
      case "setree" -> Strategy.TREE_COVER;
      case "flat" -> Strategy.FLAT;
      case "bm25" -> Strategy.BM25;
      case "hybrid" -> Strategy.HYBRID;
      default -> throw new IllegalArgumentException("unknown system '" + system
          + "' (known: setree, flat, bm25, hybrid)");
    };
  }

  static boolean inGroup(int category, String group) {
    return group.equals("1-4") ? category >= 1 && category <= 4 : group.equals(String.valueOf(category));
  }

  private static ObjectNode aggregate(String system, int budget, String group, List<Outcome> sel) {
    ObjectNode row = JSON.createObjectNode();
    row.put("system", system);
    row.put("budget", budget);
    row.put("categories", group);
    row.put("queries", sel.size());
    row.put("recall", round(sel.stream().mapToDouble(Outcome::recall).average().orElse(0)));
    row.put("all_hit", round(sel.stream().mapToDouble(o -> o.all() ? 1 : 0).average().orElse(0)));
    row.put("any_hit", round(sel.stream().mapToDouble(o -> o.any() ? 1 : 0).average().orElse(0)));
    row.put("answer_hit", round(sel.stream().mapToDouble(o -> o.answer() ? 1 : 0).average().orElse(0)));
    row.put("complete", round(sel.stream().mapToDouble(o -> o.complete() ? 1 : 0).average().orElse(0)));
    row.put("tokens_used", round(sel.stream().mapToDouble(Outcome::tokens).average().orElse(0)));
    double[] ms = sel.stream().mapToDouble(Outcome::ms).sorted().toArray();
    row.put("p50_ms", round(percentile(ms, 0.50)));
    row.put("p99_ms", round(percentile(ms, 0.99)));
    return row;
  }

  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int i = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
  }

  private static double round(double v) {
    return Math.round(v * 10000) / 10000.0;
  }

  static Outcome score(String kb, Query q, Context ctx, Map<String, String> textById, double ms) {
    String text = ctx.text();
    int hit = 0;
    for (String g : q.gold()) {
      String t = textById.get(g);
      if (t != null && text.contains(t)) {
        hit++;
      }
    }
    int n = q.gold().size();
    boolean answer = answerHit(q.answer(), text);
    return new Outcome(kb, q.category(), n == 0 ? 0 : hit / (double) n, n > 0 && hit == n, hit > 0, answer,
        ctx.tokensUsed(), ms, ctx.complete());
  }

  /** True when every content word of the answer appears among the context's words. */
  static boolean answerHit(String answer, String context) {
    List<String> want = AnswerWords.contentWords(answer);
    if (want.isEmpty()) {
      return false;
    }
    java.util.Set<String> have = new java.util.HashSet<>(AnswerWords.words(context));
    return have.containsAll(want);
  }

  static List<Query> readQueries(Path file) throws IOException {
    List<Query> out = new ArrayList<>();
    List<String> lines = FactsFile.readLines(file);
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      JsonNode n = JSON.readTree(lines.get(i));
      if (n.get("prompt") == null || n.get("gold") == null) {
        throw new IllegalArgumentException(file + ":" + (i + 1) + ": a query needs \"prompt\" and \"gold\"");
      }
      List<String> gold = new ArrayList<>();
      n.get("gold").forEach(g -> gold.add(g.asText()));
      JsonNode ans = n.get("answer");
      out.add(new Query(n.path("id").asText("q" + i), n.get("prompt").asText(), gold,
          n.path("category").asInt(0), ans == null || ans.isNull() ? "" : ans.asText()));
    }
    return out;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  static String describe(List<Integer> list) {
    return Arrays.toString(list.toArray());
  }
}

package dev.setree.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.Context;
import dev.setree.RetrieveOptions;
import dev.setree.RetrievePath;
import dev.setree.Strategy;
import dev.setree.TreeView;
import dev.setree.internal.eval.Research;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The evaluation's systems and metrics (docs/evaluation.md): how a system name maps to retrieve options,
 * how one context is scored against a query's gold leaves and answer, and how outcomes aggregate.
 */
final class Evaluation {
  /** Category groups of the result rows; 6 = overview (broad) prompts. */
  static final List<String> GROUPS = List.of("1-4", "1", "2", "3", "4", "5", "6");
  static final List<String> BASE_SYSTEMS = List.of("setree", "flat", "bm25", "hybrid", "collapsed", "recency");
  private static final ObjectMapper JSON = new ObjectMapper();

  private Evaluation() {}

  /**
   * One evaluation query.
   *
   * @param events reference event texts of an overview (broad) prompt; empty for other queries
   */
  record Query(String id, String prompt, List<String> gold, int category, String answer, List<String> events) {
    Query(String id, String prompt, List<String> gold, int category, String answer) {
      this(id, prompt, gold, category, answer, List.of());
    }
  }

  /**
   * Per-query outcome.
   *
   * @param coverage share of the gold leaves' distinct top-level subtrees with an item in the context
   * @param eventRouge1 ROUGE-1 recall against the query's events; NaN when it has none
   * @param eventCoverage share of the query's events covered; NaN when it has none
   */
  record Outcome(String kb, int category, double recall, boolean all, boolean any, boolean answer, int tokens,
      double ms, boolean complete, double coverage, double eventRouge1, double eventCoverage) {}

  /** A named system: a base strategy, possibly with calibration overrides ({@code setree[beta=0.1]}). */
  record SystemSpec(String name, RetrieveOptions options) {}

  /**
   * Parses a system name: a base system, optionally with levers ({@code hybrid+clustering},
   * {@code setree+hop2}, {@code flat+hop1+clustering}, {@code setree+approximate}: the candidate path forced).
   */
  static SystemSpec system(String name) {
    String[] parts = name.split("\\+");
    RetrieveOptions.Builder b = Research.BASELINES.contains(parts[0])
        ? Research.baseline(RetrieveOptions.builder(), parts[0]) : RetrieveOptions.builder().strategy(base(parts[0]));
    for (int i = 1; i < parts.length; i++) {
      switch (parts[i]) {
        case "clustering" -> b.intentionalClustering(true);
        case "noclustering" -> b.intentionalClustering(false);
        case "hop0" -> b.secondHop(0);
        case "hop1" -> b.secondHop(1);
        case "hop2" -> b.secondHop(2);
        case "approximate" -> b.path(RetrievePath.APPROXIMATE);
        case "exact" -> b.path(RetrievePath.EXACT);
        default -> throw new IllegalArgumentException("unknown lever '" + parts[i] + "' in system '" + name
            + "' (known: clustering, noclustering, hop0, hop1, hop2, approximate, exact)");
      }
    }
    return new SystemSpec(name, b.build());
  }

  private static Strategy base(String name) {
    return switch (name) {
      case "setree" -> Strategy.TREE_COVER;
      case "flat" -> Strategy.FLAT;
      case "bm25" -> Strategy.BM25;
      case "hybrid" -> Strategy.HYBRID;
      default -> throw new IllegalArgumentException("unknown system '" + name + "' (known: "
          + String.join(", ", BASE_SYSTEMS) + ")");
    };
  }

  /**
   * Tree-cover variants for a sweep such as {@code beta=0,0.1;overview_share=0.05,0.1}: the cartesian
   * product, each named {@code setree[beta=0,overview_share=0.05]}.
   */
  static List<SystemSpec> sweep(String spec) {
    List<Map<String, Double>> combos = new ArrayList<>();
    combos.add(new LinkedHashMap<>());
    for (String part : spec.split(";")) {
      String[] kv = part.split("=", 2);
      if (kv.length != 2) {
        throw new IllegalArgumentException("a sweep is KEY=V1,V2[;KEY=...], got '" + part + "'");
      }
      String key = kv[0].strip();
      List<Map<String, Double>> next = new ArrayList<>();
      for (Map<String, Double> c : combos) {
        for (String v : kv[1].split(",")) {
          Map<String, Double> m = new LinkedHashMap<>(c);
          m.put(key, Double.parseDouble(v.strip()));
          next.add(m);
        }
      }
      combos = next;
    }
    List<SystemSpec> out = new ArrayList<>();
    for (Map<String, Double> c : combos) {
      RetrieveOptions.Builder b = RetrieveOptions.builder();
      StringBuilder name = new StringBuilder("setree[");
      for (Map.Entry<String, Double> e : c.entrySet()) {
        switch (e.getKey()) {
          case "beta" -> b.beta(e.getValue());
          case "tau" -> b.tau(e.getValue());
          case "epsilon" -> b.epsilon(e.getValue());
          case "overview_share" -> b.overviewShare(e.getValue());
          case "second_hop" -> b.secondHop(e.getValue().intValue());
          case "overview_temperature" -> b.overviewTemperature(e.getValue());
          case "period_boost" -> b.periodBoost(e.getValue());
          case "substance" -> b.substance(e.getValue());
          case "period_substance" -> b.periodSubstance(e.getValue());
          case "clustering" -> b.intentionalClustering(e.getValue() != 0);
          default -> throw new IllegalArgumentException("cannot sweep '" + e.getKey()
              + "' (known: beta, tau, epsilon, overview_share, overview_temperature, period_boost, substance,"
              + " period_substance, second_hop, clustering)");
        }
        if (name.length() > 7) {
          name.append(',');
        }
        name.append(e.getKey()).append('=').append(fmt(e.getValue()));
      }
      out.add(new SystemSpec(name.append(']').toString(), b.build()));
    }
    return out;
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
  }

  static boolean inGroup(int category, String group) {
    return group.equals("1-4") ? category >= 1 && category <= 4 : group.equals(String.valueOf(category));
  }

  /** Scores one context against a query. */
  static Outcome score(String kb, Query q, Context ctx, Map<String, String> textById, TreeView tree, double ms) {
    String text = ctx.text();
    int hit = 0;
    for (String g : q.gold()) {
      String t = textById.get(g);
      if (t != null && text.contains(t)) {
        hit++;
      }
    }
    int n = q.gold().size();
    boolean events = !q.events().isEmpty();
    return new Outcome(kb, q.category(), n == 0 ? 0 : hit / (double) n, n > 0 && hit == n, hit > 0,
        answerHit(q.answer(), text), ctx.tokensUsed(), ms, ctx.complete(), coverage(q, ctx, tree),
        events ? EventWords.rouge1(q.events(), text) : Double.NaN,
        events ? EventWords.coverage(q.events(), text) : Double.NaN);
  }

  /** Share of the gold leaves' distinct top-level subtrees that hold an item of the context (root excluded). */
  static double coverage(Query q, Context ctx, TreeView tree) {
    Set<Integer> wanted = new HashSet<>();
    for (String g : q.gold()) {
      int v = tree.indexOf(g);
      if (v >= 0) {
        wanted.add(topLevel(tree, v));
      }
    }
    if (wanted.isEmpty()) {
      return 0;
    }
    Set<Integer> present = new HashSet<>();
    for (Context.Item it : ctx.items()) {
      int v = tree.indexOf(it.nodeId());
      if (v >= 0 && v != tree.root()) {
        present.add(topLevel(tree, v));
      }
    }
    int n = 0;
    for (int t : wanted) {
      if (present.contains(t)) {
        n++;
      }
    }
    return n / (double) wanted.size();
  }

  private static int topLevel(TreeView tree, int v) {
    while (tree.parent(v) >= 0 && tree.parent(v) != tree.root()) {
      v = tree.parent(v);
    }
    return v;
  }

  /** True when every content word of the answer appears among the context's words. */
  static boolean answerHit(String answer, String context) {
    List<String> want = AnswerWords.contentWords(answer);
    if (want.isEmpty()) {
      return false;
    }
    return new HashSet<>(AnswerWords.words(context)).containsAll(want);
  }

  /**
   * One result row: the JSON shape of issue #3 plus {@code answer_hit}, {@code complete}, coverage, and the
   * overview metrics {@code event_rouge1} / {@code event_coverage} (null on rows without events).
   */
  static ObjectNode aggregate(String system, int budget, String group, List<Outcome> sel) {
    ObjectNode row = JSON.createObjectNode();
    row.put("system", system);
    row.put("budget", budget);
    row.put("categories", group);
    row.put("queries", sel.size());
    row.put("recall", round(sel.stream().mapToDouble(Outcome::recall).average().orElse(0)));
    row.put("all_hit", round(sel.stream().mapToDouble(o -> o.all() ? 1 : 0).average().orElse(0)));
    row.put("any_hit", round(sel.stream().mapToDouble(o -> o.any() ? 1 : 0).average().orElse(0)));
    row.put("answer_hit", round(sel.stream().mapToDouble(o -> o.answer() ? 1 : 0).average().orElse(0)));
    if (group.equals("1")) {
      row.put("cluster_coverage", round(sel.stream().mapToDouble(Outcome::coverage).average().orElse(0)));
    }
    double[] rouge = sel.stream().mapToDouble(Outcome::eventRouge1).filter(v -> !Double.isNaN(v)).toArray();
    double[] evCov = sel.stream().mapToDouble(Outcome::eventCoverage).filter(v -> !Double.isNaN(v)).toArray();
    if (rouge.length > 0) {
      row.put("event_rouge1", round(java.util.Arrays.stream(rouge).average().orElse(0)));
      row.put("event_coverage", round(java.util.Arrays.stream(evCov).average().orElse(0)));
    } else {
      row.putNull("event_rouge1");
      row.putNull("event_coverage");
    }
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

  static double round(double v) {
    return Math.round(v * 10000) / 10000.0;
  }
}

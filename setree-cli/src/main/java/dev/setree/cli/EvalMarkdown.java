package dev.setree.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Renders evaluation results as Markdown tables for docs/benchmarks.md. */
final class EvalMarkdown {
  private EvalMarkdown() {}

  static String render(ArrayNode rows, ArrayNode perVariant, ArrayNode perKb, List<Evaluation.SystemSpec> specs,
      List<Integer> budgets) {
    StringBuilder sb = new StringBuilder();
    Set<String> variants = new LinkedHashSet<>();
    perVariant.forEach(r -> variants.add(r.get("variant").asText()));
    for (String v : variants) {
      sb.append("\n#### ").append(v).append(": headline recall (categories 1-4) / answer_hit / multi-hop recall\n\n");
      header(sb, budgets);
      for (Evaluation.SystemSpec s : specs) {
        sb.append("| ").append(s.name());
        for (int b : budgets) {
          JsonNode r = find(perVariant, s.name(), b, "variant", v, "1-4");
          sb.append(r == null ? " | " : String.format(Locale.ROOT, " | %.3f / %.3f / %.3f", r.get("recall").asDouble(),
              r.get("answer_hit").asDouble(), r.path("multi_hop_recall").asDouble()));
        }
        sb.append(" |\n");
      }
    }
    sb.append("\n#### Both variants pooled: recall by category group, cluster coverage (multi-hop), latency\n\n");
    sb.append("| system | budget | 1-4 | 1 | 2 | 3 | 4 | 5 | 6 | coverage (1) | tokens | p50 ms | p99 ms |\n");
    sb.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Evaluation.SystemSpec s : specs) {
      for (int b : budgets) {
        List<String> cells = new ArrayList<>();
        JsonNode head = null;
        JsonNode multi = null;
        for (String g : Evaluation.GROUPS) {
          JsonNode r = find(rows, s.name(), b, "categories", g, g);
          cells.add(r == null ? "" : String.format(Locale.ROOT, "%.3f", r.get("recall").asDouble()));
          if (g.equals("1-4")) {
            head = r;
          }
          if (g.equals("1")) {
            multi = r;
          }
        }
        sb.append("| ").append(s.name()).append(" | ").append(b).append(" | ").append(String.join(" | ", cells));
        sb.append(String.format(Locale.ROOT, " | %s | %.0f | %.2f | %.2f |%n",
            multi == null ? "" : String.format(Locale.ROOT, "%.3f", multi.path("cluster_coverage").asDouble()),
            head == null ? 0 : head.get("tokens_used").asDouble(), head == null ? 0 : head.get("p50_ms").asDouble(),
            head == null ? 0 : head.get("p99_ms").asDouble()));
      }
    }
    overview(sb, perVariant, variants, specs, budgets);
    Set<String> kbs = new LinkedHashSet<>();
    perKb.forEach(r -> kbs.add(r.get("kb").asText()));
    sb.append("\n#### Per knowledge base: headline recall at each budget\n\n| system | budget");
    for (String kb : kbs) {
      sb.append(" | ").append(kb);
    }
    sb.append(" |\n|---|---").append("|---".repeat(kbs.size())).append("|\n");
    for (Evaluation.SystemSpec s : specs) {
      for (int b : budgets) {
        sb.append("| ").append(s.name()).append(" | ").append(b);
        for (String kb : kbs) {
          JsonNode r = find(perKb, s.name(), b, "kb", kb, "1-4");
          sb.append(r == null ? " | " : String.format(Locale.ROOT, " | %.3f", r.get("recall").asDouble()));
        }
        sb.append(" |\n");
      }
    }
    return sb.toString();
  }

  /** The overview section: broad prompts (category 6) per variant, when the run had any. */
  private static void overview(StringBuilder sb, ArrayNode perVariant, Set<String> variants,
      List<Evaluation.SystemSpec> specs, List<Integer> budgets) {
    for (String v : variants) {
      boolean any = false;
      for (JsonNode r : perVariant) {
        any |= r.path("variant").asText().equals(v) && r.path("categories").asText().equals("6");
      }
      if (!any) {
        continue;
      }
      sb.append("\n#### ").append(v)
          .append(": overview prompts (category 6): event_rouge1 / event_coverage / recall\n\n");
      header(sb, budgets);
      for (Evaluation.SystemSpec s : specs) {
        sb.append("| ").append(s.name());
        for (int b : budgets) {
          JsonNode r = find(perVariant, s.name(), b, "variant", v, "6");
          sb.append(r == null ? " | " : String.format(Locale.ROOT, " | %.3f / %.3f / %.3f",
              r.path("event_rouge1").asDouble(), r.path("event_coverage").asDouble(), r.get("recall").asDouble()));
        }
        sb.append(" |\n");
      }
    }
  }

  private static void header(StringBuilder sb, List<Integer> budgets) {
    sb.append("| system");
    for (int b : budgets) {
      sb.append(" | ").append(b);
    }
    sb.append(" |\n|---").append("|---".repeat(budgets.size())).append("|\n");
  }

  private static JsonNode find(ArrayNode rows, String system, int budget, String field, String value,
      String group) {
    for (JsonNode r : rows) {
      if (r.get("system").asText().equals(system) && r.get("budget").asInt() == budget
          && r.path(field).asText().equals(value) && r.path("categories").asText().equals(group)) {
        return r;
      }
    }
    return null;
  }
}

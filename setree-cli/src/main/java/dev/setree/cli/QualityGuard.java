package dev.setree.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;

/**
 * The retrieval quality guard of CI: compares setree's headline recall (categories 1-4) and, when the file
 * records it, its overview {@code event_rouge1} (category 6, broad prompts) per variant and budget with the
 * figures recorded on purpose in a baseline file, and fails when one falls more than the tolerance below.
 *
 * <pre>{"tolerance": 0.01, "recall": {"turns": {"1024": 0.739}, "obs": {"1024": 0.893}},
 *  "event_rouge1": {"turns": {"512": 0.41}, "obs": {"512": 0.52}}}</pre>
 */
final class QualityGuard {
  /** Exit code of a failed guard. */
  static final int FAILED = 3;

  private QualityGuard() {}

  static int check(Path file, ArrayNode perVariant, PrintStream out) throws IOException {
    JsonNode base = new ObjectMapper().readTree(file.toFile());
    double tolerance = base.path("tolerance").asDouble(0.01);
    boolean ok = true;
    int checked = 0;
    for (String[] section : new String[][] {{"recall", "1-4"}, {"event_rouge1", "6"}}) {
    String metric = section[0];
    String group = section[1];
    for (Iterator<Map.Entry<String, JsonNode>> vs = base.path(metric).fields(); vs.hasNext(); ) {
      Map.Entry<String, JsonNode> v = vs.next();
      for (Iterator<Map.Entry<String, JsonNode>> bs = v.getValue().fields(); bs.hasNext(); ) {
        Map.Entry<String, JsonNode> b = bs.next();
        double recorded = b.getValue().asDouble();
        Double measured = null;
        for (JsonNode r : perVariant) {
          if (r.get("system").asText().equals("setree") && r.get("variant").asText().equals(v.getKey())
              && r.get("budget").asText().equals(b.getKey()) && r.path("categories").asText().equals(group)
              && r.hasNonNull(metric)) {
            measured = r.get(metric).asDouble();
          }
        }
        if (measured == null) {
          out.printf("quality guard: no setree %s for %s at budget %s%n", metric, v.getKey(), b.getKey());
          ok = false;
          continue;
        }
        checked++;
        boolean pass = measured >= recorded - tolerance;
        ok &= pass;
        out.printf(Locale.ROOT, "quality guard: %s @%s: %s %.4f vs recorded %.4f (tolerance %.3f): %s%n",
            v.getKey(), b.getKey(), metric, measured, recorded, tolerance, pass ? "ok" : "FAILED");
      }
    }
    }
    if (checked == 0) {
      out.println("quality guard: the baseline file checks nothing");
      ok = false;
    }
    return ok ? 0 : FAILED;
  }
}

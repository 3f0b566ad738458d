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
 * The retrieval quality guard of CI: compares setree's headline recall per variant and budget with the
 * figures recorded on purpose in a baseline file, and fails when one falls more than the tolerance below.
 *
 * <pre>{"tolerance": 0.01, "recall": {"turns": {"1024": 0.739}, "obs": {"1024": 0.893}}}</pre>
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
    for (Iterator<Map.Entry<String, JsonNode>> vs = base.path("recall").fields(); vs.hasNext(); ) {
      Map.Entry<String, JsonNode> v = vs.next();
      for (Iterator<Map.Entry<String, JsonNode>> bs = v.getValue().fields(); bs.hasNext(); ) {
        Map.Entry<String, JsonNode> b = bs.next();
        double recorded = b.getValue().asDouble();
        Double measured = null;
        for (JsonNode r : perVariant) {
          if (r.get("system").asText().equals("setree") && r.get("variant").asText().equals(v.getKey())
              && r.get("budget").asText().equals(b.getKey())) {
            measured = r.get("recall").asDouble();
          }
        }
        if (measured == null) {
          out.printf("quality guard: no setree result for %s at budget %s%n", v.getKey(), b.getKey());
          ok = false;
          continue;
        }
        checked++;
        boolean pass = measured >= recorded - tolerance;
        ok &= pass;
        out.printf(Locale.ROOT, "quality guard: %s @%s: recall %.4f vs recorded %.4f (tolerance %.3f): %s%n",
            v.getKey(), b.getKey(), measured, recorded, tolerance, pass ? "ok" : "FAILED");
      }
    }
    if (checked == 0) {
      out.println("quality guard: the baseline file checks nothing");
      ok = false;
    }
    return ok ? 0 : FAILED;
  }
}

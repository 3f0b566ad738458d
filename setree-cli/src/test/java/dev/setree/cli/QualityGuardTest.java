package dev.setree.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CI quality guard: passes within the tolerance, fails (exit 3) below it or when it checks nothing. */
class QualityGuardTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static ArrayNode rows(double turns, double obs) {
    ArrayNode a = JSON.createArrayNode();
    a.addObject().put("system", "setree").put("budget", 1024).put("variant", "turns").put("categories", "1-4")
        .put("recall", turns);
    a.addObject().put("system", "setree").put("budget", 1024).put("variant", "obs").put("categories", "1-4")
        .put("recall", obs);
    a.addObject().put("system", "flat").put("budget", 1024).put("variant", "turns").put("categories", "1-4")
        .put("recall", 0.99);
    // overview rows: a different recall that the headline guard must not read
    a.addObject().put("system", "setree").put("budget", 1024).put("variant", "turns").put("categories", "6")
        .put("recall", 0.1).put("event_rouge1", 0.40);
    a.addObject().put("system", "setree").put("budget", 512).put("variant", "obs").put("categories", "6")
        .put("recall", 0.1).put("event_rouge1", obs / 2);
    return a;
  }

  @Test
  void guardsEachVariantWithinTheTolerance(@TempDir Path dir) throws Exception {
    Path base = dir.resolve("b.json");
    Files.writeString(base, "{\"tolerance\": 0.01, \"recall\": {\"turns\": {\"1024\": 0.76}, \"obs\": {\"1024\": 0.91}}}");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream ps = new PrintStream(out, true, StandardCharsets.UTF_8);
    assertEquals(0, QualityGuard.check(base, rows(0.751, 0.95), ps));
    assertEquals(QualityGuard.FAILED, QualityGuard.check(base, rows(0.749, 0.95), ps), "0.011 below fails");
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("turns @1024: recall 0.7490 vs recorded 0.7600"));
    Files.writeString(base, "{\"recall\": {\"turns\": {\"512\": 0.5}}}");
    assertEquals(QualityGuard.FAILED, QualityGuard.check(base, rows(0.9, 0.9), ps), "no result for 512 fails");
    Files.writeString(base, "{\"recall\": {\"turns\": {\"1024\": 0.76}}, \"event_rouge1\": {\"obs\": {\"512\": 0.45}}}");
    assertEquals(0, QualityGuard.check(base, rows(0.76, 0.9), ps), "overview at 0.45 passes");
    assertEquals(QualityGuard.FAILED, QualityGuard.check(base, rows(0.76, 0.8), ps), "overview at 0.40 fails");
    assertTrue(out.toString(StandardCharsets.UTF_8).contains("obs @512: event_rouge1 0.4000 vs recorded 0.4500"));
    Files.writeString(base, "{\"recall\": {}}");
    assertEquals(QualityGuard.FAILED, QualityGuard.check(base, rows(0.9, 0.9), ps), "a guard that checks nothing fails");
  }
}

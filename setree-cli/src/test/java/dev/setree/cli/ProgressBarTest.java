package dev.setree.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Progress: a line per 10% for a log, a redrawn bar only for a terminal. */
class ProgressBarTest {
  @Test
  void aLogGetsOneLinePerTenPercentPerStage() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar p = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), ProgressBar.Mode.LINES);
    for (int i = 0; i <= 1000; i++) {
      p.update("query", i, 1000);
    }
    for (int i = 0; i <= 7; i++) {
      p.update("embed", i, 7);
    }
    p.finish();
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertFalse(out.contains("\r"), out);
    List<String> lines = out.lines().toList();
    assertEquals("query 0% (0/1000)", lines.get(0));
    assertEquals("query 100% (1000/1000)", lines.get(10));
    assertEquals(11, lines.stream().filter(l -> l.startsWith("query")).count(), out);
    assertTrue(lines.contains("embed 100% (7/7)"), out);
    assertTrue(out.length() < 600, "a thousand updates stay a few hundred bytes: " + out.length());
  }

  @Test
  void aTerminalGetsARedrawnBarAndOffIsSilent() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    ProgressBar bar = new ProgressBar(new PrintStream(bytes, true, StandardCharsets.UTF_8), ProgressBar.Mode.BAR);
    bar.update("embed", 5, 10);
    bar.finish();
    assertTrue(bytes.toString(StandardCharsets.UTF_8).contains("\rembed      [###############...............] 5/10"));
    ByteArrayOutputStream none = new ByteArrayOutputStream();
    ProgressBar off = new ProgressBar(new PrintStream(none, true, StandardCharsets.UTF_8), ProgressBar.Mode.OFF);
    off.update("embed", 5, 10);
    off.finish();
    assertEquals(0, none.size());
  }

  @Test
  void stderrUnderTheTestRunnerIsNotATerminal() {
    assertFalse(ProgressBar.stderrIsTerminal(), "surefire pipes standard error");
  }
}

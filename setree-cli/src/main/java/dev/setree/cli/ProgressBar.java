package dev.setree.cli;

import dev.setree.BuildProgress;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Build and eval progress on standard error: on a terminal a one-line bar redrawn at most every 100 ms
 * ({@code embed [#####.....] 50/100}); otherwise (a log file, a pipe, CI) one plain line per 10% of each
 * stage ({@code embed 50% (50/100)}), so a log never fills with carriage returns.
 */
final class ProgressBar implements BuildProgress {
  /** How progress is shown. */
  enum Mode {
    /** A redrawn bar, for a terminal. */
    BAR,
    /** A line per 10% of each stage, for a log. */
    LINES,
    /** Nothing. */
    OFF
  }

  private static final int WIDTH = 30;
  private final PrintStream out;
  private final Mode mode;
  private String stage = "";
  private long lastDraw;
  private int lastDecile = -1;

  ProgressBar(PrintStream out, Mode mode) {
    this.out = out;
    this.mode = mode;
  }

  /** A bar when standard error is a terminal, else a line per 10%. */
  static ProgressBar onStderr() {
    return new ProgressBar(System.err, stderrIsTerminal() ? Mode.BAR : Mode.LINES);
  }

  /**
   * Whether standard error is a terminal. On Linux, by where file descriptor 2 points ({@code /dev/pts/N} or
   * {@code /dev/ttyN}); elsewhere {@code System.console()}, which needs standard input and output to be a
   * terminal too, so a redirected stdout falls back to lines.
   */
  static boolean stderrIsTerminal() {
    Path fd2 = Path.of("/proc/self/fd/2");
    try {
      if (Files.exists(Path.of("/proc/self/fd"))) {
        String target = Files.readSymbolicLink(fd2).toString();
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
      }
    } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
      // fall through
    }
    return System.console() != null;
  }

  @Override
  public synchronized void update(String newStage, long done, long total) {
    switch (mode) {
      case OFF -> {
        return;
      }
      case LINES -> lines(newStage, done, total);
      case BAR -> bar(newStage, done, total);
      default -> throw new IllegalStateException(mode.toString());
    }
  }

  private void lines(String newStage, long done, long total) {
    if (!newStage.equals(stage)) {
      stage = newStage;
      lastDecile = -1;
    }
    int decile = total <= 0 ? 10 : (int) Math.min(10, done * 10 / total);
    if (decile <= lastDecile) {
      return;
    }
    lastDecile = decile;
    out.println(newStage + " " + (decile * 10) + "% (" + done + "/" + total + ")");
    out.flush();
  }

  private void bar(String newStage, long done, long total) {
    long now = System.nanoTime();
    boolean stageChanged = !newStage.equals(stage);
    if (stageChanged && !stage.isEmpty()) {
      out.println();
    }
    if (!stageChanged && done < total && now - lastDraw < 100_000_000L) {
      return;
    }
    lastDraw = now;
    stage = newStage;
    int filled = total <= 0 ? WIDTH : (int) Math.min(WIDTH, done * WIDTH / total);
    out.print("\r" + String.format("%-10s", newStage) + " [" + "#".repeat(filled) + ".".repeat(WIDTH - filled)
        + "] " + done + "/" + total);
    out.flush();
  }

  /** Ends the current line (bar mode). */
  synchronized void finish() {
    if (mode == Mode.BAR && !stage.isEmpty()) {
      out.println();
    }
    stage = "";
    lastDecile = -1;
  }
}

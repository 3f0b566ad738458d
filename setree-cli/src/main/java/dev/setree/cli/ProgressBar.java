package dev.setree.cli;

import dev.setree.maintain.BuildProgress;
import java.io.PrintStream;

/**
 * A one-line progress bar on standard error, redrawn at most every 100 ms: {@code embed [#####.....] 50/100}.
 * Silent when {@code enabled} is false (for example with {@code --json} on standard output and no terminal).
 */
final class ProgressBar implements BuildProgress {
  private static final int WIDTH = 30;
  private final PrintStream out;
  private final boolean enabled;
  private String stage = "";
  private long lastDraw;

  ProgressBar(PrintStream out, boolean enabled) {
    this.out = out;
    this.enabled = enabled;
  }

  @Override
  public synchronized void update(String newStage, long done, long total) {
    if (!enabled) {
      return;
    }
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

  /** Ends the current line. */
  synchronized void finish() {
    if (enabled && !stage.isEmpty()) {
      out.println();
      stage = "";
    }
  }
}

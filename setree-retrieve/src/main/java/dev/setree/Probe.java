package dev.setree;

import java.util.Arrays;

/** TEMPORARY (issue 13 diagnosis): per-stage nanoTime samples of the candidate path, printed at exit. */
final class Probe {
  static final boolean ON = Boolean.getBoolean("setree.probe");
  static final String[] NAMES = {"t0->PromptRetrieval", "submit", "words(BM25)", "queue->task start",
      "embed on thread", "task end->get returns", "wait in finish", "setup(walk,prior)", "candidates",
      "walk", "context+render", "total (stats)", "embed-alone(bench)"};
  private static final int MAX = 100_000;
  private static final long[][] S = new long[NAMES.length][MAX];
  private static final int[] N = new int[NAMES.length];
  static volatile long taskStart;
  static volatile long taskEnd;
  static volatile boolean armed;

  static {
    if (ON) {
      Runtime.getRuntime().addShutdownHook(new Thread(Probe::dump));
    }
  }

  private Probe() {}

  static synchronized void add(int stage, long nanos) {
    if (ON && armed && N[stage] < MAX) {
      S[stage][N[stage]++] = nanos;
    }
  }

  static synchronized void dump() {
    StringBuilder b = new StringBuilder("PROBE stage n p50_ms mean_ms p90_ms\n");
    for (int i = 0; i < NAMES.length; i++) {
      if (N[i] == 0) {
        continue;
      }
      long[] a = Arrays.copyOf(S[i], N[i]);
      Arrays.sort(a);
      double mean = Arrays.stream(a).average().orElse(0) / 1e6;
      b.append(String.format("PROBE %-24s %6d %8.3f %8.3f %8.3f%n", NAMES[i], a.length, a[a.length / 2] / 1e6,
          mean, a[(int) (a.length * 0.9)] / 1e6));
    }
    System.err.print(b);
  }
}

package dev.setree.internal.core;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The loops that a maintenance run's passes over every node or level member share, so that HotSpot compiles them
 * once for all passes, before the first run, instead of once per pass after several runs
 * (docs/adr/0045-passes-share-a-loop-compiled-on-open.md).
 *
 * <p>A run makes each of its passes once, over about 7,000 internal nodes or 6,000 level members at 50,000 leaves.
 * HotSpot compiles a method by its calls and a loop by its back-edges (about 60,000 before a compile on stack), so a
 * pass written as a loop of its own runs interpreted for about nine runs. A pass whose body is called per node
 * through these loops has its body compiled by its calls within the first run, and the loops themselves are compiled
 * on open ({@link #compileAhead}). The bodies are classes of their own rather than lambdas, so that a writer loads
 * them on open with the run's other classes (ADR 0044) and the first run links no call site for them.
 */
public final class Passes {
  private Passes() {}

  /** Calls {@code body} with every index from {@code from} (inclusive) to {@code to} (exclusive), in order. */
  public static void range(int from, int to, IntConsumer body) {
    for (int i = from; i < to; i++) {
      body.accept(i);
    }
  }

  /** Calls {@code body} with every item of {@code items}, in order. */
  public static <T> void each(T[] items, Consumer<? super T> body) {
    for (T item : items) {
      body.accept(item);
    }
  }

  /**
   * Makes both loops count enough calls and back-edges to be compiled (asynchronously, by the JIT's threads) before a
   * run needs them: 150 calls of each, over 500 indexes, with three bodies each so that the loops' call of the body
   * is compiled as a call to any body rather than inlined for one (which the first real pass would undo). Took 13-20
   * ms of the calling thread in a fresh JVM; a writer calls it on open, with the run's classes (ADR 0044, ADR 0045).
   */
  public static void compileAhead() {
    int[] counts = new int[3];
    Integer[] items = new Integer[500];
    java.util.Arrays.fill(items, 1);
    List<IntConsumer> ranges = List.of(i -> counts[0]++, i -> counts[1] += i, i -> counts[2] ^= i);
    List<Consumer<Integer>> eaches = List.of(x -> counts[0] += x, x -> counts[1] -= x, x -> counts[2] |= x);
    for (int round = 0; round < 150; round++) {
      range(0, items.length, ranges.get(round % 3));
      each(items, eaches.get(round % 3));
    }
  }
}

package dev.setree.internal.maintain;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The time each step of a maintenance run took, in the order the steps first ran: a clock that a run stops at
 * the end of each step. What {@code setree bench insert} reports step by step (issue #12). One run's thread only.
 */
final class RunSteps {
  private final Map<String, Long> nanos = new LinkedHashMap<>();
  private long last = System.nanoTime();

  /** Ends step {@code name} now: the time since the previous step ended (or since this clock began) is its. */
  void end(String name) {
    long now = System.nanoTime();
    nanos.merge(name, now - last, Long::sum);
    last = now;
  }

  /** The steps so far and their nanoseconds, in the order they first ran (a copy: the clock may go on). */
  Map<String, Long> nanos() {
    return Collections.unmodifiableMap(new LinkedHashMap<>(nanos));
  }

  /** {@code first}'s steps, then {@code later}'s, a step of both names counted once with both times added. */
  static Map<String, Long> then(Map<String, Long> first, Map<String, Long> later) {
    Map<String, Long> all = new LinkedHashMap<>(first);
    later.forEach((k, v) -> all.merge(k, v, Long::sum));
    return Collections.unmodifiableMap(all);
  }
}

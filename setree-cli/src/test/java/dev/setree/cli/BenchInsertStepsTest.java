package dev.setree.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** `bench insert`'s step medians ({@code step_p50_ms}): per step, over the runs that had it, in first-run order. */
class BenchInsertStepsTest {

  @Test
  void aStepsMedianCountsOnlyTheRunsThatHadIt() {
    Map<String, Long> first = new LinkedHashMap<>();
    first.put("embed", 30_000_000L);
    first.put("level 0", 8_000_000L);
    first.put("level 1", 4_000_000L);
    Map<String, Long> second = new LinkedHashMap<>();
    second.put("embed", 10_000_000L);
    second.put("level 0", 2_000_000L);
    Map<String, Long> third = new LinkedHashMap<>();
    third.put("embed", 20_000_000L);
    third.put("level 0", 6_000_000L);
    third.put("clustering", 1_000_000L);
    Map<String, Double> p50 = BenchInsert.stepMedians(List.of(first, second, third));
    assertEquals(List.of("embed", "level 0", "level 1", "clustering"), List.copyOf(p50.keySet()));
    assertEquals(20.0, p50.get("embed"));
    assertEquals(6.0, p50.get("level 0"));
    assertEquals(4.0, p50.get("level 1"), "one run had it: not a median with zeros");
    assertEquals(1.0, p50.get("clustering"));
  }
}

package dev.setree.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.internal.core.SimdDot;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;

/**
 * The JVM a benchmark ran on, recorded with its results: the same jar's maintenance runs differ by 1.6x between
 * the default heap and a fixed, pre-touched one (docs/benchmarks.md, "A process's first runs touch fresh heap"),
 * so a result without its flags cannot be compared.
 *
 * @param version the runtime's full version ({@link Runtime#version()})
 * @param vendor the VM's vendor
 * @param flags the arguments the JVM was started with (heap, collector, AOT cache, modules), in order
 * @param maxHeapMb the most heap the JVM will use, in MiB
 * @param vectorLanes whether a retrieve's dot products run on vector lanes ({@link SimdDot#vectorized()})
 */
record BenchJvm(String version, String vendor, List<String> flags, long maxHeapMb, boolean vectorLanes) {

  /** The running JVM. */
  static BenchJvm current() {
    return new BenchJvm(Runtime.version().toString(), System.getProperty("java.vm.vendor", "unknown"),
        List.copyOf(ManagementFactory.getRuntimeMXBean().getInputArguments()),
        Runtime.getRuntime().maxMemory() >> 20, SimdDot.vectorized());
  }

  /** One line for a benchmark's output. */
  String line() {
    return String.format(Locale.ROOT, "JVM: Java %s (%s), max heap %d MB, flags: %s", version, vendor, maxHeapMb,
        flags.isEmpty() ? "none" : String.join(" ", flags));
  }

  /** Adds this description to a benchmark's JSON result as object {@code jvm}. */
  void putInto(ObjectNode result) {
    ObjectNode jvm = result.putObject("jvm");
    jvm.put("version", version);
    jvm.put("vendor", vendor);
    flags.forEach(jvm.putArray("flags")::add);
    jvm.put("max_heap_mb", maxHeapMb);
    jvm.put("vector_lanes", vectorLanes);
  }
}

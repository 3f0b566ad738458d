package dev.setree.internal.core;

/**
 * The dot products of a retrieve (a prompt against leaf embeddings, summaries and centroids), on the
 * machine's vector units where the running JVM offers the JDK Vector API, else {@link Vectors#dot}.
 *
 * <p>This is the Java 17 version: always {@link Vectors#dot}. The library's jar is multi-release; on Java 21
 * or later, started with {@code --add-modules jdk.incubator.vector}, its {@code META-INF/versions/21}
 * version of this class computes with vector lanes (docs/adr/0024-simd-query-dots.md). Lanes sum in
 * another order than {@link Vectors#dot}, so a prompt's values may differ in their last bits between JVMs;
 * nothing that is stored (trees, kNN graphs, summaries) is computed here, so a knowledge base is the same
 * whichever JVM built it. Every dot product of one retrieve goes through this class, so the exact and the
 * candidate path agree on any JVM.
 */
public final class SimdDot {
  private SimdDot() {}

  /** Dot product of {@code a[aOff..aOff+dim)} and {@code b[bOff..bOff+dim)}. */
  public static float dot(float[] a, int aOff, float[] b, int bOff, int dim) {
    return Vectors.dot(a, aOff, b, bOff, dim);
  }

  /** True when {@link #dot} runs on vector lanes (never, in this version). */
  public static boolean vectorized() {
    return false;
  }
}

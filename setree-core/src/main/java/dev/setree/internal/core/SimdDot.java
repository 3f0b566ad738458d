package dev.setree.internal.core;

/**
 * The dot products of a retrieve (a prompt against leaf embeddings, summaries and centroids), on the
 * machine's vector units where the running JVM offers the JDK Vector API, else {@link Vectors#dot}.
 *
 * <p>When the incubator module {@code jdk.incubator.vector} is in the boot layer ({@code --add-modules
 * jdk.incubator.vector}, on Java 17 or later) and {@code -Dsetree.simd=false} is not set, {@link PanamaDot}
 * computes with the JVM's preferred vector species; otherwise {@link Vectors#dot}
 * (docs/adr/0024-simd-query-dots.md). The module is probed before {@link PanamaDot} is first loaded, so a JVM
 * without it never resolves a Vector API class. Lanes sum in another order than {@link Vectors#dot}, so a
 * prompt's values may differ in their last bits between the two; nothing that is stored (trees, kNN graphs,
 * summaries) is computed here, so a knowledge base is the same whichever JVM built it. Every dot product of one
 * retrieve goes through this class, so the exact and the candidate path agree in either case.
 */
public final class SimdDot {
  private SimdDot() {}

  private static final boolean VECTORIZED = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
      && !"false".equals(System.getProperty("setree.simd")) && PanamaDot.usable();

  /** Dot product of {@code a[aOff..aOff+dim)} and {@code b[bOff..bOff+dim)}. */
  public static float dot(float[] a, int aOff, float[] b, int bOff, int dim) {
    return VECTORIZED ? PanamaDot.dot(a, aOff, b, bOff, dim) : Vectors.dot(a, aOff, b, bOff, dim);
  }

  /** True when {@link #dot} runs on vector lanes. */
  public static boolean vectorized() {
    return VECTORIZED;
  }
}

package dev.setree.internal.core;

/**
 * The dot products of a retrieve (a prompt against leaf embeddings, summaries and centroids), on the
 * machine's vector units where the running JVM offers the JDK Vector API, else {@link Vectors#dot}.
 *
 * <p>This is the Java 21+ version of the multi-release jar (docs/adr/0024-simd-query-dots.md): when the
 * incubator module {@code jdk.incubator.vector} is in the boot layer ({@code --add-modules
 * jdk.incubator.vector}) and {@code -Dsetree.simd=false} is not set, {@link PanamaDot} computes with the
 * JVM's preferred vector species; otherwise {@link Vectors#dot}. The module is probed before
 * {@link PanamaDot} is first loaded, so a JVM without it never resolves a Vector API class.
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

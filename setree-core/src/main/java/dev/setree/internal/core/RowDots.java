package dev.setree.internal.core;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The dot products of one vector with many rows of a matrix, bit for bit those of {@link Vectors#dot}, on the
 * machine's vector units once they are ready: what a maintenance run or a build computes from them is stored (an
 * extractive summary's pick, a kNN row), so it must not depend on the JVM (ADR 0024), and a summary of a node near
 * the root of a large tree reads every leaf's row for one such product each (ADR 0046).
 *
 * <p>{@link Vectors#dot} keeps four partial sums, each over every fourth component in order, and adds them as
 * {@code (s0 + s1) + (s2 + s3)}. Four lanes of 128 bits are those four sums: a multiply and then an add per lane
 * (not a fused multiply-add) rounds as the scalar code does, so {@link ExactLaneDots} gives the same floats, NaN
 * and infinities included. One row is no faster on lanes (its four sums are one chain of adds, as in the scalar
 * code), so four rows are computed at once: about twice as fast as the scalar loop for rows of 384 components on Java
 * 17, once compiled.
 *
 * <p>Lanes are used when the JVM was started with {@code --add-modules jdk.incubator.vector} (Java 17 or later),
 * {@code -Dsetree.simd=false} is not set, and the lane code is compiled: before HotSpot compiles it, the Vector
 * API's code is far slower than the scalar loop (a first pass over 50,000 rows took about a second). So
 * {@link #compileAhead} compiles it, once per JVM, on a thread that has nothing else to do (a writer's maintenance
 * thread while no mutation waits), and until that is done every call runs the scalar loop, which gives the same
 * floats. Compiled code that meets a call unlike those it was compiled on may be dropped, and the calls after it run
 * slowly until it is compiled again ({@link ExactLaneDots#compile}): callers pass arrays of the shapes the warm-up
 * does. A JVM without the module never loads a Vector API class.
 */
public final class RowDots {
  private RowDots() {}

  /** Whether this JVM can compute on lanes at all (the module, the switch, hardware lanes). */
  private static final boolean POSSIBLE = ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()
      && !"false".equals(System.getProperty("setree.simd")) && ExactLaneDots.usable();

  /** Set once the lane code is compiled ({@link #compileAhead}). */
  private static volatile boolean ready;
  /** Held by the thread compiling the lane code: one at a time, the others go on with their own work. */
  private static final ReentrantLock COMPILING = new ReentrantLock();

  /**
   * Fewer rows than this are computed by the scalar loop even once lanes are ready: a call's few products cost
   * less than the lane code's set-up.
   */
  static final int LANES_FROM = 16;

  /**
   * Puts in {@code out[j]} the dot product of {@code rows[offsets[j] .. offsets[j] + q.length)} with {@code q}, for
   * {@code j < count}: {@code Vectors.dot(rows, offsets[j], q, 0, q.length)}, bit for bit.
   */
  public static void dots(float[] rows, int[] offsets, int count, float[] q, float[] out) {
    if (ready && count >= LANES_FROM) {
      ExactLaneDots.dots(rows, offsets, count, q, out);
    } else {
      scalar(rows, offsets, 0, count, q, out);
    }
  }

  /** {@link #dots} for {@code j} in {@code [from, to)}, on the scalar loop. */
  static void scalar(float[] rows, int[] offsets, int from, int to, float[] q, float[] out) {
    int dim = q.length;
    for (int j = from; j < to; j++) {
      out[j] = Vectors.dot(rows, offsets[j], q, 0, dim);
    }
  }

  /**
   * Compiles the lane code on the calling thread, in calls of about a hundred made-up rows, until it runs faster than
   * the scalar loop, when this JVM can compute on lanes; from then on {@link #dots} uses them. Gives up between two
   * calls when {@code stop} says so, or at once when another thread is compiling it: a later call goes on where it
   * stopped (HotSpot keeps its counts). In a micro-benchmark on this project's machines it took 0.33-0.37 s.
   *
   * @return whether {@link #dots} now computes on lanes
   */
  public static boolean compileAhead(BooleanSupplier stop) {
    if (!POSSIBLE || ready || !COMPILING.tryLock()) {
      return ready;
    }
    try {
      if (!ready && ExactLaneDots.compile(stop)) {
        ready = true;
      }
      return ready;
    } finally {
      COMPILING.unlock();
    }
  }

  /** Whether {@link #dots} now computes on lanes (for calls of at least {@value #LANES_FROM} rows). */
  public static boolean lanes() {
    return ready;
  }
}

package dev.setree.internal.core;

/**
 * Fills arrays with their own indexes ({@code a[i] = i}) by a bulk copy from one ascending array shared by every
 * caller, not a loop: a maintenance run does this over 50,000 members or nodes several times, and a process's
 * first run does it in the interpreter, where a copy costs a small fraction of a loop.
 */
public final class Indexes {
  /** 0, 1, 2, ...: never written after it is published; replaced by a longer one when a caller needs more. */
  private static volatile int[] ascending = new int[0];

  private Indexes() {}

  /** Sets {@code a[i] = i} for {@code from <= i < to}. */
  public static void identity(int[] a, int from, int to) {
    if (from < 0 || to > a.length || from > to) {
      throw new IndexOutOfBoundsException("from " + from + ", to " + to + ", length " + a.length);
    }
    int[] source = ascending;
    if (source.length < to) {
      source = grow(to);
    }
    System.arraycopy(source, from, a, from, to - from);
  }

  private static synchronized int[] grow(int length) {
    int[] source = ascending;
    if (source.length >= length) {
      return source;
    }
    int[] longer = new int[Math.max(length, source.length + source.length / 2)];
    for (int i = 0; i < longer.length; i++) {
      longer[i] = i;
    }
    ascending = longer;
    return longer;
  }
}

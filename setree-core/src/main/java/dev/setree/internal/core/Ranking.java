package dev.setree.internal.core;

import java.util.Arrays;

/**
 * Orders indexes by descending score, ties to the smaller index, with a primitive sort: each (score, index)
 * pair is packed into one {@code long} whose natural order is the wanted order, so no boxing and no
 * comparator calls (a retrieve ranks every leaf up to three times).
 */
public final class Ranking {
  private Ranking() {}

  /** Indexes {@code 0..score.length-1} by descending score, ties by ascending index. */
  public static int[] descending(float[] score) {
    int n = score.length;
    long[] keys = new long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = key(score[i], i);
    }
    Arrays.sort(keys);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = (int) keys[i];
    }
    return out;
  }

  /**
   * The packed pair {@link #descending} sorts: a {@code long} whose natural order is {@code score} descending, then
   * {@code index} (at least 0) ascending. 0.0 comes before -0.0, and every NaN is one value above all numbers.
   */
  public static long key(float score, int index) {
    return ((long) ~orderedBits(score) << 32) | index;
  }

  /** The index of a {@link #key}. */
  public static int index(long key) {
    return (int) key;
  }

  /** The score of a {@link #key} (a NaN as the canonical one). */
  public static float score(long key) {
    int ordered = ~(int) (key >>> 32);
    return Float.intBitsToFloat(ordered >= 0 ? ordered : ordered ^ 0x7fffffff);
  }

  /** The float's bits as an int whose signed order is the float's order (-0.0 before 0.0, every NaN last). */
  private static int orderedBits(float f) {
    int bits = Float.floatToIntBits(f);
    return bits >= 0 ? bits : bits ^ 0x7fffffff;
  }
}

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
      keys[i] = ((long) ~orderedBits(score[i]) << 32) | i;
    }
    Arrays.sort(keys);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = (int) keys[i];
    }
    return out;
  }

  /** The float's bits as an int whose signed order is the float's order (-0.0 before 0.0). */
  static int orderedBits(float f) {
    int bits = Float.floatToRawIntBits(f);
    return bits ^ ((bits >> 31) & 0x7fffffff);
  }
}

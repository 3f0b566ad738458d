package dev.setree.internal.core;

import java.util.Arrays;

/**
 * A small open-addressing map from non-negative int keys to float values, sized once for an expected
 * number of keys (it grows if exceeded). Used per query, so its size follows the query's candidates, not
 * the knowledge base. Not thread-safe.
 */
final class IntFloatMap {
  private int[] keys;
  private float[] vals;
  private int size;

  IntFloatMap(int expected) {
    int cap = Integer.highestOneBit(Math.max(4, expected * 2 - 1)) << 1;
    keys = new int[cap];
    vals = new float[cap];
    Arrays.fill(keys, -1);
  }

  /** The value of {@code key}, or {@code missing}. */
  float get(int key, float missing) {
    int mask = keys.length - 1;
    for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
      int k = keys[i];
      if (k == key) {
        return vals[i];
      }
      if (k < 0) {
        return missing;
      }
    }
  }

  /** Sets the value of {@code key}. */
  void put(int key, float value) {
    int slot = slot(key);
    vals[slot] = value;
  }

  /** Raises the value of {@code key} to at least {@code value} (inserting it if absent). */
  void max(int key, float value) {
    int slot = slot(key);
    if (keys[slot] == key && vals[slot] >= value) {
      return;
    }
    vals[slot] = value;
  }

  private int slot(int key) {
    if (key < 0) {
      throw new IllegalArgumentException("negative key " + key);
    }
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    int mask = keys.length - 1;
    for (int i = mix(key) & mask; ; i = (i + 1) & mask) {
      if (keys[i] == key) {
        return i;
      }
      if (keys[i] < 0) {
        keys[i] = key;
        vals[i] = Float.NEGATIVE_INFINITY;
        size++;
        return i;
      }
    }
  }

  private void grow() {
    int[] oldKeys = keys;
    float[] oldVals = vals;
    keys = new int[oldKeys.length * 2];
    vals = new float[keys.length];
    Arrays.fill(keys, -1);
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] >= 0) {
        vals[slot(oldKeys[i])] = oldVals[i];
      }
    }
  }

  private static int mix(int key) {
    return key * 0x9E3779B9 >>> 7 ^ key;
  }
}

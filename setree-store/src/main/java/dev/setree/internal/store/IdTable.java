package dev.setree.internal.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The members of one oracle level by the UTF-8 bytes of their ids: finds a member's position from the bytes a
 * row or a string-list blob holds, without decoding them into a {@link String} (an open-addressing table over
 * the ids' encodings). A load looks up every kNN neighbour of every member this way: about ten per member.
 * Ids decoded from valid UTF-8 encode back to the same bytes, so equal bytes mean equal ids.
 */
final class IdTable {
  private final byte[] bytes;
  private final int[] start;
  /** Slot -> position + 1 (0: empty). */
  private final int[] slots;
  private final int mask;
  /** The position of the first id listed twice, or -1. */
  private final int duplicate;
  /** Whether every id is a string (a null id is only found the slow way). */
  private final boolean complete;

  IdTable(String[] ids) {
    int n = ids.length;
    boolean all = true;
    byte[][] enc = new byte[n][];
    start = new int[n + 1];
    for (int i = 0; i < n; i++) {
      all &= ids[i] != null;
      enc[i] = ids[i] == null ? new byte[0] : ids[i].getBytes(StandardCharsets.UTF_8);
      start[i + 1] = start[i] + enc[i].length;
    }
    bytes = new byte[start[n]];
    for (int i = 0; i < n; i++) {
      System.arraycopy(enc[i], 0, bytes, start[i], enc[i].length);
    }
    int size = Integer.highestOneBit(Math.max(4, n * 2 + 1)) << 1;
    slots = new int[size];
    mask = size - 1;
    int dup = -1;
    for (int i = 0; i < n && dup < 0; i++) {
      int s = hash(bytes, start[i], start[i + 1] - start[i]) & mask;
      while (slots[s] != 0) {
        int j = slots[s] - 1;
        if (Arrays.equals(bytes, start[j], start[j + 1], bytes, start[i], start[i + 1])) {
          dup = i;
          break;
        }
        s = (s + 1) & mask;
      }
      if (dup < 0) {
        slots[s] = i + 1;
      }
    }
    duplicate = dup;
    complete = all;
  }

  /** Whether lookups here are exact: false when some id is null (the caller then looks up the slow way). */
  boolean complete() {
    return complete;
  }

  /** The position of the first id that is listed a second time, or -1 when every id is listed once. */
  int duplicate() {
    return duplicate;
  }

  /** The position of the id whose UTF-8 encoding is {@code b[off, off + len)}, or -1. */
  int indexOf(byte[] b, int off, int len) {
    int s = hash(b, off, len) & mask;
    while (slots[s] != 0) {
      int j = slots[s] - 1;
      if (Arrays.equals(bytes, start[j], start[j + 1], b, off, off + len)) {
        return j;
      }
      s = (s + 1) & mask;
    }
    return -1;
  }

  /**
   * The positions of the {@code count} ids of a string-list blob ({@link Blobs#strings}), or null when the
   * blob is not exactly {@code count} ids of this table (the caller then decodes it the slow way, which
   * says what is wrong).
   */
  int[] positions(byte[] blob, int count) {
    if (blob == null) {
      return null;
    }
    int[] out = new int[count];
    int p = 0;
    for (int i = 0; i < count; i++) {
      if (blob.length - p < Integer.BYTES) {
        return null;
      }
      int len = (blob[p] & 0xFF) | (blob[p + 1] & 0xFF) << 8 | (blob[p + 2] & 0xFF) << 16 | (blob[p + 3] & 0xFF) << 24;
      p += Integer.BYTES;
      if (len < 0 || len > blob.length - p) {
        return null;
      }
      int j = indexOf(blob, p, len);
      if (j < 0) {
        return null;
      }
      out[i] = j;
      p += len;
    }
    return p == blob.length ? out : null;
  }

  private static int hash(byte[] b, int off, int len) {
    int h = 0x811c9dc5;
    for (int i = off; i < off + len; i++) {
      h = (h ^ b[i]) * 0x01000193;
    }
    return h ^ (h >>> 16);
  }
}

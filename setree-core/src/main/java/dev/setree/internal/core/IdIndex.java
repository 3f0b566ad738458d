package dev.setree.internal.core;

import java.util.Objects;

/**
 * The position of each id in an array of distinct ids, found by open addressing with linear probing: the
 * lookup a maintenance run makes for the members of a level or the nodes of a tree, tens of thousands per
 * run, without the boxing and entries of a {@code HashMap<String, Integer>}. Immutable and safe to share
 * between threads; it keeps (does not copy) the id array, which must not change afterwards.
 */
public final class IdIndex {
  private final String[] ids;
  /** Index + 1 by slot (0: empty); the length is a power of two at least twice the id count. */
  private final int[] slots;

  private IdIndex(String[] ids, int[] slots) {
    this.ids = ids;
    this.slots = slots;
  }

  /**
   * Indexes {@code ids}.
   *
   * @param what what an id names, for the messages ("node id": "duplicate node id n7")
   * @throws NullPointerException for a null id
   * @throws IllegalArgumentException for an id listed twice
   */
  public static IdIndex of(String[] ids, String what) {
    int n = ids.length;
    int[] slots = new int[Math.max(2, Integer.highestOneBit(Math.max(1, 2 * n - 1)) << 1)];
    int mask = slots.length - 1;
    for (int v = 0; v < n; v++) {
      String id = Objects.requireNonNull(ids[v], what);
      int slot = spread(id.hashCode()) & mask;
      while (slots[slot] != 0) {
        if (ids[slots[slot] - 1].equals(id)) {
          throw new IllegalArgumentException("duplicate " + what + " " + id);
        }
        slot = (slot + 1) & mask;
      }
      slots[slot] = v + 1;
    }
    return new IdIndex(ids, slots);
  }

  /** The position of {@code id}, or -1 (also for null). */
  public int indexOf(String id) {
    if (id == null) {
      return -1;
    }
    int mask = slots.length - 1;
    for (int slot = spread(id.hashCode()) & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
      int v = slots[slot] - 1;
      if (ids[v].equals(id)) {
        return v;
      }
    }
    return -1;
  }

  /**
   * The position of {@code id}, looked for at {@code hint} first: for a caller that walks two versions of one
   * sequence in order, where ids keep their relative order and the hint (one past the last match) is usually
   * right, so no lookup is needed.
   */
  public int indexOf(String id, int hint) {
    return hint >= 0 && hint < ids.length && ids[hint].equals(id) ? hint : indexOf(id);
  }

  /** Mixes a hash's high bits into its low ones (the table is indexed by the low bits). */
  private static int spread(int h) {
    int x = (h ^ (h >>> 16)) * 0x85EBCA6B;
    return x ^ (x >>> 13);
  }
}

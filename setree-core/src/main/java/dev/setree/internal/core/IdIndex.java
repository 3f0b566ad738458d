package dev.setree.internal.core;

import java.util.Objects;

/**
 * The position of each id in a range of an array of distinct ids, found by open addressing with linear probing:
 * the lookup a maintenance run makes for the members of a level or the nodes of a tree, tens of thousands per
 * run, without the boxing and entries of a {@code HashMap<String, Integer>}. Each slot keeps the id's hash beside
 * its position, so a probe reads an id only when the hashes match. Its answers never change, and it is safe to share
 * between threads; it keeps (does not copy) the id array, whose indexed range must not change afterwards.
 *
 * <p>An index extended by ids appended after its range ({@link #extendedTo}) shares its table with the new index
 * when no other index was extended from it before: the new ids fill empty slots only, and an index takes no slot
 * whose position is past its range for a match, so it answers as before while later ones are added (ADR 0034,
 * like the leaf rows of ADR 0029). A maintenance run's tree at 50,000 leaves had copied a table of 1 MB per run.
 */
public final class IdIndex {
  private final String[] ids;
  /** The indexed range of {@link #ids}. */
  private final int from;
  private final int to;
  /** Position + 1 by slot (0: empty); the length is a power of two at least twice the id count. */
  private final int[] slots;
  /** The spread hash of the id in each used slot. */
  private final int[] hashes;
  /** The table's owner record, shared by the indexes extended from one another in place. */
  private final Table table;

  /**
   * Where the indexes sharing a table end: {@code end} is the range end of the last one, the only one that may
   * extend the table in place ({@link Integer#MAX_VALUE} while an extension is under way or after one failed).
   */
  private static final class Table {
    int end;

    Table(int end) {
      this.end = end;
    }
  }

  private IdIndex(String[] ids, int from, int to, int[] slots, int[] hashes, Table table) {
    this.ids = ids;
    this.from = from;
    this.to = to;
    this.slots = slots;
    this.hashes = hashes;
    this.table = table;
  }

  /**
   * Indexes {@code ids}.
   *
   * @param what what an id names, for the messages ("node id": "duplicate node id n7")
   * @throws NullPointerException for a null id
   * @throws IllegalArgumentException for an id listed twice
   */
  public static IdIndex of(String[] ids, String what) {
    return of(ids, 0, ids.length, what);
  }

  /**
   * Indexes {@code ids[from, to)}: {@link #indexOf} gives positions in {@code ids}. See {@link #of(String[], String)}.
   */
  public static IdIndex of(String[] ids, int from, int to, String what) {
    int size = tableSize(to - from);
    IdIndex index = new IdIndex(ids, from, to, new int[size], new int[size], new Table(to));
    index.insert(from, to, what);
    return index;
  }

  /**
   * The index of {@code ids[from, to)} for an array whose first ids, up to this index's end, are this index's ids
   * at the same positions (this index must start where the new one does): the ids after this index's range inserted
   * into its table, without reading the ids it had. The table is shared (see the class comment) when this index is
   * the last one extended in place from it; else, or when the table would be more than half full, every id is
   * indexed afresh. This index answers as before.
   */
  public IdIndex extendedTo(String[] ids, int to, String what) {
    if (to >= this.to && 2 * (to - from) <= slots.length) {
      synchronized (table) {
        if (table.end == this.to) {
          table.end = Integer.MAX_VALUE; // until the insert succeeds: a failed one leaves entries past this index
          IdIndex index = new IdIndex(ids, from, to, slots, hashes, table);
          index.insert(this.to, to, what);
          table.end = to;
          return index;
        }
      }
    }
    return of(ids, from, to, what);
  }

  /** Whether this index and {@code other} share one table (one was extended from the other in place). */
  boolean sharesTableWith(IdIndex other) {
    return slots == other.slots;
  }

  private static int tableSize(int n) {
    return Math.max(2, Integer.highestOneBit(Math.max(1, 2 * n - 1)) << 1);
  }

  private void insert(int start, int end, String what) {
    int mask = slots.length - 1;
    for (int v = start; v < end; v++) {
      String id = Objects.requireNonNull(ids[v], what);
      int h = spread(id.hashCode());
      int slot = h & mask;
      while (slots[slot] != 0) {
        if (hashes[slot] == h && ids[slots[slot] - 1].equals(id)) {
          throw new IllegalArgumentException("duplicate " + what + " " + id);
        }
        slot = (slot + 1) & mask;
      }
      slots[slot] = v + 1;
      hashes[slot] = h;
    }
  }

  /** The position of {@code id}, or -1 (also for null). */
  public int indexOf(String id) {
    if (id == null) {
      return -1;
    }
    int h = spread(id.hashCode());
    int mask = slots.length - 1;
    for (int slot = h & mask; slots[slot] != 0; slot = (slot + 1) & mask) {
      if (hashes[slot] == h) {
        int v = slots[slot] - 1;
        if (v < to && ids[v].equals(id)) { // a position past the range is a later index's
          return v;
        }
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
    return hint >= from && hint < to && (ids[hint] == id || ids[hint].equals(id)) ? hint : indexOf(id);
  }

  /** Mixes a hash's high bits into its low ones (the table is indexed by the low bits). */
  private static int spread(int h) {
    int x = (h ^ (h >>> 16)) * 0x85EBCA6B;
    return x ^ (x >>> 13);
  }
}

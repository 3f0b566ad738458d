package dev.setree.internal.core;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The rows of a {@link LeafGraph}: each row a range of one array ({@code start}, {@code end}), the room after the
 * rows that the graphs derived one from another share, and the end of the entries this one wrote ({@code used}). A
 * derived graph writes its new rows into the room after the rows written before, which the graphs before never
 * read, when it can claim that room ({@link Room}); else it copies every row into a new array with room to spare.
 */
record RangeRows(int[] start, int[] end, int[] entries, RangeRows.Room room, int used) {
  /** The room kept after the rows of new arrays: this share of the rows' entries, and at least 1,024 entries. */
  static final int ROOM_SHARE = 4;

  /**
   * How much of an array shared by derived graphs is written: a graph extends the array only from the end it saw,
   * and only if no other graph extended it since.
   */
  static final class Room {
    private final AtomicInteger used;

    Room(int used) {
      this.used = new AtomicInteger(used);
    }

    /** Claims {@code [from, from + count)} of an array of {@code capacity} entries, if {@code from} is its end. */
    boolean claim(int from, int count, int capacity) {
      return from + (long) count <= capacity && used.compareAndSet(from, from + count);
    }
  }

  /** Rows given as compressed sparse rows, copied into an array with room after them. */
  static RangeRows of(int[] offsets, int[] entries) {
    int n = offsets.length - 1;
    int m = offsets[n];
    return new RangeRows(Arrays.copyOf(offsets, n), Arrays.copyOfRange(offsets, 1, n + 1),
        Arrays.copyOf(entries, m + Math.max(1024, m / ROOM_SHARE)), new Room(m), m);
  }

  /**
   * These rows for {@code n} leaves, the rows of {@code changed} leaves replaced by {@code rows} (null: an empty
   * row): written after this graph's entries when it can claim the room there, else all rows copied into a new
   * array with room.
   */
  RangeRows with(int n, int[] changed, int[][] rows, int changedCount) {
    int[] s = Arrays.copyOf(start, n);
    int[] e = Arrays.copyOf(end, n);
    int need = 0;
    for (int x = 0; x < changedCount; x++) {
      need += rows[x] == null ? 0 : rows[x].length;
    }
    int[] into = entries;
    int at = used;
    Room r = room;
    if (!room.claim(used, need, entries.length)) {
      int live = 0;
      for (int v = 0; v < Math.min(n, start.length); v++) {
        live += end[v] - start[v];
      }
      into = new int[live + need + Math.max(1024, (live + need) / ROOM_SHARE)];
      at = 0;
      for (int v = 0; v < Math.min(n, start.length); v++) { // every row, changed ones too: overwritten below
        int len = end[v] - start[v];
        System.arraycopy(entries, start[v], into, at, len);
        s[v] = at;
        e[v] = at + len;
        at += len;
      }
      r = new Room(at + need);
    }
    for (int x = 0; x < changedCount; x++) {
      int v = changed[x];
      int len = rows[x] == null ? 0 : rows[x].length;
      if (len > 0) {
        System.arraycopy(rows[x], 0, into, at, len);
      }
      s[v] = at;
      e[v] = at + len;
      at += len;
    }
    return new RangeRows(s, e, into, r, at);
  }
}

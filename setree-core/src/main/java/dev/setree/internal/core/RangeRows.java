package dev.setree.internal.core;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The rows of a {@link LeafGraph}: each row a range of one array of entries, the room after the rows that the graphs
 * derived one from another share, and the end of the entries this one wrote ({@link #used}). A derived graph writes
 * its new rows into the room after the rows written before, which the graphs before never read, when it can claim
 * that room ({@link Room}); else it copies every row into a new array with room to spare.
 *
 * <p>The ranges are kept in pages of {@value #PAGE_ROWS} rows (row {@code v}'s start at {@link #at}{@code (v)} of
 * {@link #page}{@code (v)}, its end just after), shared between a graph and the graphs derived from it: a derived
 * graph copies the table of pages and the pages of the rows it writes (ADR 0034, step 4, for the nearest-leaf graph;
 * the kNN rows' pages, ADR 0048, are the same idea). Copying the two arrays of ranges, for the rows and for the
 * reverse edges, had been the largest part of deriving the graph at a million leaves. A page is never written once a
 * graph holds it.
 */
final class RangeRows {
  /** Rows to a page: a page holds 2,048 ints (8 KB), a start and an end per row. */
  static final int PAGE_ROWS = 1024;

  static final int SHIFT = Integer.numberOfTrailingZeros(PAGE_ROWS);
  static final int MASK = PAGE_ROWS - 1;
  /** The room kept after the rows of new arrays: this share of the rows' entries, and at least 1,024 entries. */
  static final int ROOM_SHARE = 4;
  /** How many pages derived rows copied or made in this JVM (tests: a derivation copies only the pages it writes). */
  static final AtomicLong PAGES_WRITTEN = new AtomicLong();

  private final int size;
  private final int[][] pages;
  private final int[] entries;
  private final Room room;
  private final int used;

  private RangeRows(int size, int[][] pages, int[] entries, Room room, int used) {
    this.size = size;
    this.pages = pages;
    this.entries = entries;
    this.room = room;
    this.used = used;
  }

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
    int[][] pages = new int[pageCount(n)][];
    for (int p = 0; p < pages.length; p++) {
      int[] page = new int[2 * PAGE_ROWS];
      for (int v = p << SHIFT, end = Math.min(n, v + PAGE_ROWS); v < end; v++) {
        page[at(v)] = offsets[v];
        page[at(v) + 1] = offsets[v + 1];
      }
      pages[p] = page;
    }
    return new RangeRows(n, pages, Arrays.copyOf(entries, m + Math.max(1024, m / ROOM_SHARE)), new Room(m), m);
  }

  /** Number of rows. */
  int size() {
    return size;
  }

  /** Where row {@code v} starts in {@link #entries}. */
  int start(int v) {
    return pages[v >>> SHIFT][at(v)];
  }

  /** Where row {@code v} ends (exclusive). */
  int end(int v) {
    return pages[v >>> SHIFT][at(v) + 1];
  }

  /** The entries: rows of this graph, of others and room; read only the ranges of rows. */
  int[] entries() {
    return entries;
  }

  /** The pages of ranges, for a search: row {@code v}'s at {@link #at}{@code (v)} of page {@code v >>> SHIFT}. */
  int[][] pages() {
    return pages;
  }

  /** The page that holds row {@code v}'s range: read only. */
  int[] page(int v) {
    return pages[v >>> SHIFT];
  }

  /** Where row {@code v}'s start is in its page (its end just after). */
  static int at(int v) {
    return (v & MASK) << 1;
  }

  private static int pageCount(int n) {
    return (n + MASK) >>> SHIFT;
  }

  /**
   * These rows for {@code n >= size()} leaves, the rows of {@code changed} leaves replaced by {@code rows} (null: an
   * empty row; a row past the old ones that is not listed is empty too): written after this graph's entries when it
   * can claim the room there, else all rows copied into a new array with room. Only the pages of the rows written are
   * copied, unless every row is.
   */
  RangeRows with(int n, int[] changed, int[][] rows, int changedCount) {
    if (n < size) {
      throw new IllegalArgumentException("rows for " + n + " leaves derived from " + size);
    }
    int need = 0;
    for (int x = 0; x < changedCount; x++) {
      need += rows[x] == null ? 0 : rows[x].length;
    }
    Pages out = new Pages(Arrays.copyOf(pages, pageCount(n)));
    int[] into = entries;
    int at = used;
    Room r = room;
    if (!room.claim(used, need, entries.length)) {
      int live = 0;
      for (int v = 0; v < size; v++) {
        live += end(v) - start(v);
      }
      into = new int[live + need + Math.max(1024, (live + need) / ROOM_SHARE)];
      at = 0;
      for (int v = 0; v < size; v++) { // every row, changed ones too: overwritten below
        int from = start(v);
        int len = end(v) - from;
        System.arraycopy(entries, from, into, at, len);
        out.set(v, at, at + len);
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
      out.set(v, at, at + len);
      at += len;
    }
    out.fill();
    return new RangeRows(n, out.pages, into, r, at);
  }

  /** The next version's pages: the old ones shared until a range on one is set. */
  private static final class Pages {
    final int[][] pages;
    /** Per page, whether this version made it (a copy or a new page), so that it may be written. */
    final boolean[] own;

    Pages(int[][] pages) {
      this.pages = pages;
      this.own = new boolean[pages.length];
    }

    void set(int v, int start, int end) {
      int p = v >>> SHIFT;
      if (!own[p]) {
        pages[p] = pages[p] == null ? new int[2 * PAGE_ROWS] : pages[p].clone();
        own[p] = true;
        PAGES_WRITTEN.incrementAndGet();
      }
      pages[p][at(v)] = start;
      pages[p][at(v) + 1] = end;
    }

    /** Makes the pages of new rows none was set on: empty ranges. */
    void fill() {
      for (int p = 0; p < pages.length; p++) {
        if (pages[p] == null) {
          pages[p] = new int[2 * PAGE_ROWS];
          own[p] = true;
          PAGES_WRITTEN.incrementAndGet();
        }
      }
    }
  }
}

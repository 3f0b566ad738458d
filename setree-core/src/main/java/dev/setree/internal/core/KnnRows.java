package dev.setree.internal.core;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The kNN rows of a hierarchy level, held so that a maintenance run copies only the rows it writes (ADR 0034, step 4,
 * for the kNN rows; ADR 0048). Either <em>flat</em>, one CSR array of each kind (a built or loaded level, rows of any
 * length), or <em>paged</em>: rows of {@code k} entries each, {@value #PAGE_ROWS} rows to a page, pages shared
 * between the versions of a level and never written once a version is made. A run makes the next version with a
 * {@link Writer}, which copies the table of pages and copies a page only when it writes to it: at level 0 of a
 * million leaves and ten neighbours, one new fact touched a few tens of rows, and copying every row (80 MB) took
 * about a tenth of the run.
 *
 * <p>Row {@code i} is {@code neighbourPage(i)[start(i) .. end(i))} with its weights at the same places of
 * {@code weightPage(i)}, nearest first. The flat arrays ({@link #offsets()} and its siblings) of a paged version are
 * made on first use, and kept: a caller on a run's path reads rows instead.
 */
public final class KnnRows {
  /** Rows to a page: a page of ten-neighbour rows holds 10 KB of member indexes and 10 KB of weights. */
  public static final int PAGE_ROWS = 256;

  private static final int SHIFT = Integer.numberOfTrailingZeros(PAGE_ROWS);
  private static final int MASK = PAGE_ROWS - 1;
  /** How many times a paged version's flat arrays were made (tests: a run must not make them). */
  static final AtomicInteger FLATTENED = new AtomicInteger();

  private final int size;
  /** Paged: the entries of each row; flat: -1. */
  private final int k;
  /** Flat: the CSR offsets, {@code size + 1} of them; paged: null (the rows start at multiples of {@code k}). */
  private final int[] csr;
  private final int[][] neighbourPages;
  private final float[][] weightPages;
  /** A paged version's flat arrays, once made ({@link #offsets()} and its siblings). */
  private volatile Flat flat;

  private record Flat(int[] offsets, int[] neighbours, float[] weights) {}

  private KnnRows(int size, int k, int[] csr, int[][] neighbourPages, float[][] weightPages) {
    this.size = size;
    this.k = k;
    this.csr = csr;
    this.neighbourPages = neighbourPages;
    this.weightPages = weightPages;
  }

  /**
   * Flat rows of these arrays (taken over, not copied): row {@code i} is {@code neighbours[offsets[i] ..
   * offsets[i + 1])}. Null arrays give null (a level without kNN rows, which a store reports as corrupt).
   */
  public static KnnRows flat(int[] offsets, int[] neighbours, float[] weights) {
    if (offsets == null || neighbours == null || weights == null) {
      return null;
    }
    return new KnnRows(Math.max(0, offsets.length - 1), -1, offsets, new int[][] {neighbours},
        new float[][] {weights});
  }

  /** How many times a paged version's flat arrays were made in this JVM (tests: a run and its save make none). */
  public static int flattened() {
    return FLATTENED.get();
  }

  /** Number of rows. */
  public int size() {
    return size;
  }

  /** The entries of each row when the rows are paged; -1 when they are flat. */
  public int rowLength() {
    return k;
  }

  /** Whether the rows are in pages (else flat). */
  public boolean paged() {
    return k >= 0;
  }

  /** Where row {@code i} starts in {@link #neighbourPage}{@code (i)} and {@link #weightPage}{@code (i)}. */
  public int start(int i) {
    return k >= 0 ? (i & MASK) * k : csr[i];
  }

  /** Where row {@code i} ends (exclusive). */
  public int end(int i) {
    return k >= 0 ? ((i & MASK) + 1) * k : csr[i + 1];
  }

  /** The array that holds row {@code i}'s member indexes: read only. */
  public int[] neighbourPage(int i) {
    return neighbourPages[k >= 0 ? i >>> SHIFT : 0];
  }

  /** The array that holds row {@code i}'s weights (cosine similarities): read only. */
  public float[] weightPage(int i) {
    return weightPages[k >= 0 ? i >>> SHIFT : 0];
  }

  /**
   * Whether every row holds exactly {@code k} entries. Paged rows tell at once; flat ones are looked at (a built or
   * loaded level, once).
   */
  public boolean uniform(int k) {
    if (this.k >= 0) {
      return this.k == k;
    }
    for (int i = 0; i <= size; i++) {
      if (csr[i] != i * k) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the first {@code m} rows of this and of {@code other} start and end at the same places (flat rows'
   * offsets; paged rows' length), neither's flat arrays made.
   */
  public boolean sameOffsets(KnnRows other, int m) {
    if (k >= 0 && other.k >= 0) {
      return k == other.k;
    }
    if (k < 0 && other.k < 0) {
      return Arrays.equals(csr, 0, m + 1, other.csr, 0, m + 1);
    }
    int[] flat = k < 0 ? csr : other.csr;
    int length = k < 0 ? other.k : k;
    for (int i = 0; i <= m; i++) {
      if (flat[i] != i * length) {
        return false;
      }
    }
    return true;
  }

  /** Whether row {@code i} of this and row {@code j} of {@code other} hold the same members and weights (bits). */
  public boolean sameRow(int i, KnnRows other, int j) {
    int a = start(i);
    int an = end(i) - a;
    int b = other.start(j);
    if (other.end(j) - b != an) {
      return false;
    }
    int[] na = neighbourPage(i);
    int[] nb = other.neighbourPage(j);
    float[] wa = weightPage(i);
    float[] wb = other.weightPage(j);
    for (int e = 0; e < an; e++) {
      if (na[a + e] != nb[b + e] || Float.floatToRawIntBits(wa[a + e]) != Float.floatToRawIntBits(wb[b + e])) {
        return false;
      }
    }
    return true;
  }

  /** The CSR offsets, {@code size + 1} of them; made on first use for paged rows. */
  public int[] offsets() {
    return k >= 0 ? flatArrays().offsets : csr;
  }

  /** Every row's member indexes, row after row; made on first use for paged rows. */
  public int[] neighbours() {
    return k >= 0 ? flatArrays().neighbours : neighbourPages[0];
  }

  /** Every row's weights, parallel to {@link #neighbours()}; made on first use for paged rows. */
  public float[] weights() {
    return k >= 0 ? flatArrays().weights : weightPages[0];
  }

  private Flat flatArrays() {
    Flat f = flat;
    if (f == null) { // two threads may both make it: equal arrays
      FLATTENED.incrementAndGet();
      int[] offsets = new int[size + 1];
      int[] nb = new int[size * k];
      float[] w = new float[size * k];
      for (int i = 0; i <= size; i++) {
        offsets[i] = i * k;
      }
      for (int p = 0, from = 0; from < size; p++, from += PAGE_ROWS) {
        int rows = Math.min(PAGE_ROWS, size - from);
        System.arraycopy(neighbourPages[p], 0, nb, from * k, rows * k);
        System.arraycopy(weightPages[p], 0, w, from * k, rows * k);
      }
      f = new Flat(offsets, nb, w);
      flat = f;
    }
    return f;
  }

  /**
   * A writer of the next version, of {@code size} rows of {@code k} entries, every row of this one kept where it
   * is until written. This version must hold {@code k} entries per row ({@link #uniform}) and at most {@code size}
   * rows; flat rows are copied into pages once, paged ones share every page until one is written.
   */
  public Writer extend(int size, int k) {
    if (size < this.size || !uniform(k)) {
      throw new IllegalArgumentException("rows of " + this.size + " members, not " + k + " each, extended to "
          + size);
    }
    Writer w = new Writer(size, k);
    if (paged()) {
      int pages = Math.min(neighbourPages.length, w.neighbourPages.length);
      System.arraycopy(neighbourPages, 0, w.neighbourPages, 0, pages);
      System.arraycopy(weightPages, 0, w.weightPages, 0, pages);
      for (int p = pages; p < w.neighbourPages.length; p++) {
        w.own(p);
      }
    } else {
      for (int p = 0; p < w.neighbourPages.length; p++) {
        w.own(p);
        int from = p * PAGE_ROWS;
        int rows = Math.min(PAGE_ROWS, this.size - from);
        if (rows <= 0) {
          continue; // a page of new rows only
        }
        System.arraycopy(neighbourPages[0], from * k, w.neighbourPages[p], 0, rows * k);
        System.arraycopy(weightPages[0], from * k, w.weightPages[p], 0, rows * k);
      }
    }
    return w;
  }

  /** A writer of {@code size} rows of {@code k} entries, none written yet (each row must be). */
  public static Writer empty(int size, int k) {
    Writer w = new Writer(size, k);
    for (int p = 0; p < w.neighbourPages.length; p++) {
      w.own(p);
    }
    return w;
  }

  /**
   * Writes the next version of paged rows ({@link #extend}, {@link #empty}): a row is read from and written to the
   * pages it gives, a page copied the first time it is given for writing. Not thread-safe; {@link #rows} ends it.
   */
  public static final class Writer {
    private final int size;
    private final int k;
    private final int[][] neighbourPages;
    private final float[][] weightPages;
    private final boolean[] owned;
    private int copied;
    private boolean done;

    private Writer(int size, int k) {
      if (k < 0) {
        throw new IllegalArgumentException("rows of " + k + " entries");
      }
      this.size = size;
      this.k = k;
      int pages = (size + PAGE_ROWS - 1) >>> SHIFT;
      neighbourPages = new int[pages][];
      weightPages = new float[pages][];
      owned = new boolean[pages];
    }

    private void own(int p) {
      neighbourPages[p] = new int[PAGE_ROWS * k];
      weightPages[p] = new float[PAGE_ROWS * k];
      owned[p] = true;
    }

    /** Where row {@code i} starts in its pages. */
    public int start(int i) {
      return (i & MASK) * k;
    }

    /** The page of row {@code i}'s member indexes, to write (and its weights' page made writable too). */
    public int[] neighboursToWrite(int i) {
      return neighbourPages[writable(i)];
    }

    /** The page of row {@code i}'s weights, to write. */
    public float[] weightsToWrite(int i) {
      return weightPages[writable(i)];
    }

    private int writable(int i) {
      if (done) {
        throw new IllegalStateException("the rows were made already");
      }
      int p = i >>> SHIFT;
      if (!owned[p]) {
        neighbourPages[p] = neighbourPages[p].clone();
        weightPages[p] = weightPages[p].clone();
        owned[p] = true;
        copied++;
      }
      return p;
    }

    /** How many shared pages were copied to be written (tests, benchmarks). */
    public int pagesCopied() {
      return copied;
    }

    /** The rows written: a new version, which shares every page not written. The writer writes no more. */
    public KnnRows rows() {
      done = true;
      return new KnnRows(size, k, null, neighbourPages, weightPages);
    }
  }

  @Override
  public String toString() {
    return "KnnRows[" + size + (paged() ? " rows of " + k + ", paged" : " rows, flat") + "]";
  }

}

package dev.setree.internal.core;

import java.util.Arrays;

/**
 * Rows of {@code dim} floats kept in pages of {@link #PAGE_ROWS} rows, so that a new version of a tree can share
 * the pages whose rows it keeps instead of copying every row (docs/adr/0034: a maintenance run at 50,000 leaves
 * otherwise copied about 22 MB of internal nodes' rows per run, in arrays large enough for the collector to
 * allocate each outside its young generation).
 *
 * <p>Immutable once built: a page is never written after {@link Builder#build()}, so versions may share it. An
 * array handed to {@link #wrap} is one page of any length (a tree read from the store); the pages a
 * {@link Builder} makes hold {@link #PAGE_ROWS} rows each, the last one fewer.
 */
public final class RowPages {
  /** Rows per page of a built instance: 128 rows of 384 floats are 192 KiB. */
  public static final int PAGE_ROWS = 128;
  private static final int PAGE_SHIFT = 7;

  private final float[][] pages;
  private final int rows;
  private final int dim;
  /** {@code row >>> shift} is the page of a row, {@code row & mask} its place there. */
  private final int shift;
  private final int mask;

  private RowPages(float[][] pages, int rows, int dim, int shift) {
    this.pages = pages;
    this.rows = rows;
    this.dim = dim;
    this.shift = shift;
    this.mask = shift >= 31 ? -1 : (1 << shift) - 1;
  }

  /** {@code rows} rows held in {@code flat} ({@code rows * dim} floats), taken over as one page, not copied. */
  public static RowPages wrap(float[] flat, int rows, int dim) {
    if (rows < 0 || dim <= 0 && rows > 0 || (long) rows * dim != flat.length) {
      throw new IllegalArgumentException("rows of " + flat.length + " floats are not " + rows + " rows of " + dim);
    }
    return new RowPages(new float[][] {flat}, rows, dim, 31);
  }

  /** Number of rows. */
  public int rows() {
    return rows;
  }

  /** Floats per row. */
  public int dimension() {
    return dim;
  }

  /** Dot product of row {@code r} with {@code q} ({@link SimdDot}). */
  public float dot(int r, float[] q) {
    return SimdDot.dot(pages[r >>> shift], (r & mask) * dim, q, 0, dim);
  }

  /** Dot product of row {@code r} here with row {@code s} of {@code other}. */
  public float dot(int r, RowPages other, int s) {
    return Vectors.dot(pages[r >>> shift], (r & mask) * dim, other.pages[s >>> other.shift], (s & other.mask) * dim,
        dim);
  }

  /** Component {@code i} of row {@code r}. */
  public float get(int r, int i) {
    return pages[r >>> shift][(r & mask) * dim + i];
  }

  /** A copy of row {@code r}. */
  public float[] row(int r) {
    float[] out = new float[dim];
    copyRow(r, out, 0);
    return out;
  }

  /** Copies row {@code r} into {@code into} at {@code at}. */
  public void copyRow(int r, float[] into, int at) {
    System.arraycopy(pages[r >>> shift], (r & mask) * dim, into, at, dim);
  }

  /**
   * Whether row {@code r} here and row {@code s} of {@code other} are equal float for float ({@link Arrays#equals}
   * on the ranges); true at once when both are the same place of one shared page.
   */
  public boolean rowEquals(int r, RowPages other, int s) {
    float[] a = pages[r >>> shift];
    float[] b = other.pages[s >>> other.shift];
    int ao = (r & mask) * dim;
    int bo = (s & other.mask) * other.dim;
    return a == b && ao == bo || Arrays.equals(a, ao, ao + dim, b, bo, bo + other.dim);
  }

  /** Whether page {@code p} here is the very array of {@code other}'s page {@code p} (a page shared by versions). */
  public boolean sharesPage(int p, RowPages other) {
    return shift == other.shift && p < pages.length && p < other.pages.length && pages[p] == other.pages[p];
  }

  /** Every row in one new array, {@code rows * dim} floats. */
  public float[] toArray() {
    float[] out = new float[rows * dim];
    for (int r = 0; r < rows; r++) {
      copyRow(r, out, r * dim);
    }
    return out;
  }

  /** How many pages this instance holds. */
  public int pageCount() {
    return pages.length;
  }

  /**
   * Builds rows page by page: a page whose every row the caller can vouch for is taken from a base instance of
   * the same layout ({@link #keepPage}), the others are filled row by row ({@link #set}).
   */
  public static final class Builder {
    private final float[][] pages;
    private final boolean[] kept;
    private final int rows;
    private final int dim;

    /** A builder of {@code rows} rows of {@code dim} floats, in pages of {@link #PAGE_ROWS}. */
    public Builder(int rows, int dim) {
      this.rows = rows;
      this.dim = dim;
      this.pages = new float[(rows + PAGE_ROWS - 1) / PAGE_ROWS][];
      this.kept = new boolean[pages.length];
    }

    /** The page holding row {@code r}. */
    public static int pageOf(int r) {
      return r >>> PAGE_SHIFT;
    }

    /** How many pages the rows take. */
    public int pageCount() {
      return pages.length;
    }

    /**
     * Takes page {@code p} of {@code base} as it is, when {@code base} has the paged layout and that page holds
     * as many rows as this builder's page {@code p} will; returns whether it did. The caller vouches that every
     * row of the page is the row this instance would hold there.
     */
    public boolean keepPage(int p, RowPages base) {
      if (!canKeep(p, base)) {
        return false;
      }
      pages[p] = base.pages[p];
      kept[p] = true;
      return true;
    }

    /** Whether {@link #keepPage} would take page {@code p} of {@code base}. */
    public boolean canKeep(int p, RowPages base) {
      return base.shift == PAGE_SHIFT && base.dim == dim && p < base.pages.length && pages[p] == null
          && rowsIn(p, base.rows) == rowsIn(p, rows);
    }

    private static int rowsIn(int p, int rows) {
      return Math.max(0, Math.min(PAGE_ROWS, rows - p * PAGE_ROWS));
    }

    /** Writes row {@code r} from {@code src} at {@code from}; its page must not be one kept from a base. */
    public void set(int r, float[] src, int from) {
      int p = r >>> PAGE_SHIFT;
      if (kept[p]) {
        throw new IllegalStateException("row " + r + " is on page " + p + ", kept from the base: not writable");
      }
      float[] page = pages[p];
      if (page == null) {
        page = new float[rowsIn(p, rows) * dim];
        pages[p] = page;
      }
      System.arraycopy(src, from, page, (r & (PAGE_ROWS - 1)) * dim, dim);
    }

    /** The rows; a page neither kept nor written to holds zeros. */
    public RowPages build() {
      for (int p = 0; p < pages.length; p++) {
        if (pages[p] == null) {
          pages[p] = new float[rowsIn(p, rows) * dim];
        }
      }
      return new RowPages(pages, rows, dim, PAGE_SHIFT);
    }
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Passes;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * The centroid rows of a level above the leaves as a run recorded them, with the members and the sums they were
 * taken from, so that the next run over the same draft matches that level to its record without reading every
 * member's centroid (ADR 0034). A member whose sum array is the one its row was taken from has that row still
 * (sums are replaced, never changed in place, and a centroid is computed from its sum alone), so only the members
 * whose sum was replaced since are read and compared. At level 1 of 50,000 leaves, a run had copied about 6,000
 * scattered centroids and compared each with the record's row to find the few that changed.
 *
 * <p>A record made by a run ({@link #match}) also keeps the rows array of the record before it, when that one was made
 * by a run too, as a spare: once the writer says that the hierarchy holding this record's rows is installed
 * ({@link LevelRecords#freeSpares}), no hierarchy that any part of the writer still reads holds the spare, and the
 * next run writes its rows into it instead of a new array. It then copies only the rows this record's run wrote,
 * which are listed: at level 1 of a million leaves a run changes one or a few of about 125,000 rows, and a new array
 * of them was 32 MB copied and zeroed per run (ADR 0051).
 *
 * @param rows the level record's centroid rows (row i is member i's)
 * @param members the level's members, in the record's order
 * @param sums each member's sum when its row was taken; null for a leaf (a leaf's centroid never changes)
 * @param made whether {@code rows} is an array a run made, which no loaded or copied hierarchy holds
 * @param written the rows that may differ from those of the record before this one, which {@link #match} read
 *     ({@code spare}'s, when there is one), in increasing order; null when not known or too many
 * @param spare null, or the rows array of the record before this one, made by a run: the next run's, once free
 * @param spareFree whether no hierarchy read any more holds {@code spare} ({@link LevelRecords#freeSpares})
 */
record RecordedRows(float[] rows, DraftNode[] members, float[][] sums, boolean made, int[] written, float[] spare,
    boolean spareFree) {
  /** How many matches wrote into a spare instead of a new array (for tests). */
  static final AtomicInteger SPARES_USED = new AtomicInteger();

  /** A record made without a run ({@link #of}): no spare, nothing known of what changed. */
  RecordedRows(float[] rows, DraftNode[] members, float[][] sums) {
    this(rows, members, sums, false, null, null, false);
  }

  /**
   * This record, with {@code before}'s rows as its spare when both were made by runs and this one was matched
   * against {@code before}'s rows (its {@link #written} rows are listed), else as it is.
   */
  RecordedRows after(RecordedRows before) {
    return before != null && before.made && written != null // a record with its rows listed is a match's
        ? new RecordedRows(rows, members, sums, true, written, before.rows, false) : this;
  }

  /** This record with its spare free for the next run ({@link LevelRecords#freeSpares}). */
  RecordedRows withSpareFree() {
    return spare == null || spareFree ? this : new RecordedRows(rows, members, sums, made, written, spare, true);
  }

  /**
   * A level's members matched to the oracle's level {@code old}, and their rows.
   *
   * @param rows the members' centroid rows: a new array, or the spare of the record the match read, when it was free
   * @param match each member's index in {@code old} and back, and which moved
   * @param same whether the members and their rows are {@code old}'s, in its order
   * @param record what to keep for the next run, once {@code rows} is the level's record
   * @param reread per member, whether its centroid was read again: it is new, or its sum array is not the one
   *     the record took its row from (false: its sum is the one it had when the oracle's level was recorded)
   */
  record Matched(float[] rows, LevelMatch match, boolean same, RecordedRows record, boolean[] reread) {}

  /**
   * Matches {@code members} to {@code old}, a usable level of the oracle. Rows are {@code old}'s where {@code last},
   * the draft's record of this level, is {@code old}'s own record and says the member's row is unchanged; other
   * members' centroids are read and compared, as {@link LevelMatch#of} does. With {@code listed}, how the level
   * below listed the members, each member's old index is taken from there instead of looked up by id, and a member
   * placed by index is not read at all: it is the node {@code last} names there, with the sum its row was taken
   * from. At level 1 of a million leaves, reading each of about 125,000 members (a class check of each counts) took
   * a run about 10 ms (docs/benchmarks.md).
   *
   * @param last the record the draft kept for this level, or null
   * @param listed null, or the members as the level below listed them, with their indexes in {@code old}
   */
  static Matched match(HierarchyState.Level old, List<DraftNode> members, int dim, RecordedRows last,
      NextMembers.Listed listed) {
    assert listed == null || listed.members() == members && listed.of() == old;
    Matcher mt = new Matcher(old, members, dim, last, listed);
    Passes.range(0, mt.at.length, mt);
    return new Matched(mt.rows, new LevelMatch(mt.newToOld, mt.oldToNew, mt.moved), mt.same,
        new RecordedRows(mt.rows, mt.at, mt.sums, true, mt.written(), null, false), mt.reread);
  }

  /**
   * The rows array a match of {@code m} members against {@code oldRows} starts from, holding {@code oldRows}'s rows:
   * {@code last}'s free spare with the rows {@code last}'s run wrote copied in, when {@code last} is the record of
   * {@code oldRows} and the spare holds {@code m} rows (a level's array holds exactly its members' rows); else a copy.
   */
  private static float[] startRows(float[] oldRows, int m, int dim, RecordedRows last, boolean known) {
    float[] spare = known && last.spareFree ? last.spare : null; // a record with a spare lists its rows
    if (spare == null || spare == oldRows || spare.length != m * dim) {
      return Arrays.copyOf(oldRows, m * dim);
    }
    for (int i : last.written) { // the spare is the rows before last's run: those it wrote are brought up to date
      if (i < m) {
        System.arraycopy(oldRows, i * dim, spare, i * dim, dim);
      }
    }
    SPARES_USED.incrementAndGet();
    return spare;
  }

  /**
   * One {@link #match}: its arrays, filled member by member, a call per member in the loop {@link Passes} shares
   * (ADR 0045). A class of its own, not a lambda, so that a writer loads it on open.
   */
  private static final class Matcher implements IntConsumer {
    /** The members as plain references: taking one as a {@code DraftNode} checks its class, a read of the node. */
    final Object[] members;
    final DraftNode[] at;
    final float[] rows;
    final int[] newToOld;
    final int[] oldToNew;
    final boolean[] moved;
    final boolean[] reread;
    final float[][] sums;
    private final HierarchyState.Level old;
    private final float[] oldRows;
    private final int dim;
    private final RecordedRows last;
    private final boolean known;
    private final int[] fromOld;
    private final boolean[] placed;
    boolean same;
    /** The rows written so far that may differ from {@code oldRows}'s, in order; null once too many to list. */
    private int[] written = new int[16];
    private int writtenCount;
    /** Members keep their old relative order: each is first looked for where the previous one was found, plus 1. */
    private int next;

    Matcher(HierarchyState.Level old, List<DraftNode> members, int dim, RecordedRows last,
        NextMembers.Listed listed) {
      int m = members.size();
      this.old = old;
      this.members = members.toArray();
      this.at = new DraftNode[m]; // filled member by member: a copy of the list would check every member's class
      this.dim = dim;
      this.last = last;
      oldRows = old.centroids();
      known = last != null && last.rows == oldRows && last.members.length == old.size();
      fromOld = listed == null ? null : listed.fromOld();
      placed = listed == null || !known ? null : listed.placed();
      rows = startRows(oldRows, m, dim, last, known); // a member in place and unchanged keeps the row there
      newToOld = new int[m];
      oldToNew = new int[old.size()];
      Arrays.fill(oldToNew, -1);
      moved = new boolean[m];
      reread = new boolean[m];
      sums = new float[m][];
      same = m == old.size();
    }

    /** Matches member {@code i}. */
    @Override
    public void accept(int i) {
      if (placed != null && placed[i] && last.members[fromOld[i]] == members[i]) { // the member is not read
        int o = fromOld[i];
        at[i] = last.members[o];
        assert last.sums[o] == (at[i].leaf ? null : at[i].sum) : at[i].id + " placed by index with another sum";
        sums[i] = last.sums[o];
        newToOld[i] = o;
        oldToNew[o] = i;
        next = o + 1;
        if (o != i) {
          System.arraycopy(oldRows, o * dim, rows, i * dim, dim);
          wrote(i);
        }
        same &= o == i;
        return;
      }
      DraftNode n = (DraftNode) members[i];
      at[i] = n;
      sums[i] = n.leaf ? null : n.sum;
      int o = fromOld != null ? fromOld[i] : old.indexOf(n.id, next);
      assert fromOld == null || o == old.indexOf(n.id, -1) : n.id + " listed at " + o;
      newToOld[i] = o;
      if (o >= 0) {
        oldToNew[o] = i;
        next = o + 1;
      }
      if (known && o >= 0 && last.members[o] == n && last.sums[o] == sums[i]) {
        if (o != i) {
          System.arraycopy(oldRows, o * dim, rows, i * dim, dim);
          wrote(i);
        }
        assert isCentroid(n, rows, i, dim, new float[dim]) : n.id + " has a row other than its centroid";
      } else {
        reread[i] = true;
        n.copyCentroidInto(rows, i * dim, dim);
        wrote(i);
        moved[i] = o < 0 || !Arrays.equals(rows, i * dim, (i + 1) * dim, oldRows, o * dim, (o + 1) * dim);
      }
      same &= o == i && !moved[i];
    }

    /** Lists row {@code i} as written; past an eighth of the rows, none are listed (a copy costs about as much). */
    private void wrote(int i) {
      if (written == null) {
        return;
      }
      if (writtenCount == written.length) {
        if (writtenCount >= at.length / 8) {
          written = null;
          return;
        }
        written = Arrays.copyOf(written, 2 * writtenCount);
      }
      written[writtenCount++] = i;
    }

    /** The rows written, when {@code last} was the record of {@code oldRows} and they are few enough; else null. */
    int[] written() {
      return known && written != null ? Arrays.copyOf(written, writtenCount) : null;
    }
  }

  /**
   * The record a run would have kept of level {@code old} of a hierarchy whose tree {@code draft} is a copy of
   * ({@link DraftTree#of}), made without a run: each member's centroid is compared with its row of {@code old}, and
   * the record vouches for the rows that are the centroid bit for bit. The first run over the draft then matches the
   * level as later runs do, reading only the members whose sum it replaced. A writer makes it ahead of that run, on
   * open: at level 1 of 50,000 leaves, reading about 6,000 centroids had taken the first run about 20 ms before it
   * was compiled. Null when a member of {@code old} is not in the draft or {@code old} has no rows.
   */
  static RecordedRows of(HierarchyState.Level old, DraftTree draft) {
    int m = old.size();
    int dim = draft.dim;
    float[] rows = old.centroids();
    if (rows == null || rows.length < (long) m * dim) {
      return null;
    }
    DraftNode[] members = new DraftNode[m];
    float[][] sums = new float[m][];
    String[] ids = old.memberIds();
    float[] scratch = new float[dim];
    for (int o = 0; o < m; o++) {
      DraftNode n = draft.byId.get(ids[o]);
      if (n == null) {
        return null;
      }
      if (isCentroid(n, rows, o, dim, scratch)) {
        members[o] = n; // a member the record does not name is read by the run
        sums[o] = n.leaf ? null : n.sum;
      }
    }
    return new RecordedRows(rows, members, sums);
  }

  /** Whether row {@code i} of {@code rows} is {@code n}'s centroid, read into {@code c} (of length {@code dim}). */
  private static boolean isCentroid(DraftNode n, float[] rows, int i, int dim, float[] c) {
    n.copyCentroidInto(c, 0, dim);
    return Arrays.equals(c, 0, dim, rows, i * dim, (i + 1) * dim);
  }
}

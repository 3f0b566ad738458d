package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What a draft keeps of each level from the run before, for the next run over it: the rows of each level above the
 * leaves as recorded ({@link RecordedRows}), their integer mirrors ({@link IntegerRows}) and the parents each level's
 * communities got ({@link CommunityParents}). Each is tied to the very arrays of the level it was made for, and
 * forgotten when the hierarchy a run made holds other arrays ({@link #keepOnlyOf}).
 */
final class LevelRecords {
  /** Per level above the leaves, its rows as the last run recorded them, or null. */
  private final List<RecordedRows> recordedRows = new ArrayList<>();
  /** Per level, the integer mirror of its rows, or null. */
  private final List<IntegerRows> integerRows = new ArrayList<>();
  /** Per level, its last kNN graph known to have its rows in order ({@link NearestMemberPatch.SortedRows}). */
  private final List<NearestMemberPatch.SortedRows> sortedRows = new ArrayList<>();
  /** Per level, the parents its communities got in the last run, or null. */
  private final List<CommunityParents> communityParents = new ArrayList<>();

  /**
   * Keeps the record of each of {@code oracle}'s levels above the leaves ({@link RecordedRows#of}), and of the parents
   * of every level's communities ({@link CommunityParents#ofOracle}), for {@code d}, whose records these are: for a
   * copy made ahead of its first run ({@link Maintainer#prepare}). Given up between two levels once {@code cancelled}
   * says so, with a {@link java.util.concurrent.CancellationException}.
   */
  void recordOracle(DraftTree d, HierarchyState oracle, BooleanSupplier cancelled) {
    List<HierarchyState.Level> levels = oracle.levels();
    for (int lvl = 0; lvl < levels.size(); lvl++) {
      Maintainer.stopIf(cancelled);
      if (lvl > 0) {
        keepRows(lvl, RecordedRows.of(levels.get(lvl), d));
      }
      if (lvl + 1 < levels.size() && parents(lvl) == null) {
        keepParents(lvl, CommunityParents.ofOracle(d, levels.get(lvl), levels.get(lvl + 1)));
      }
    }
  }

  /** The rows of level {@code level} as the last run over the draft recorded them, or null. */
  RecordedRows rows(int level) {
    return at(recordedRows, level);
  }

  /**
   * Keeps {@code rows} as level {@code level}'s record (null forgets it), with the rows of the record it replaces as
   * its spare when both were made by runs ({@link RecordedRows#after}).
   */
  void keepRows(int level, RecordedRows rows) {
    put(recordedRows, level, rows == null ? null : rows.after(rows(level)));
  }

  /**
   * Frees the spare of each record whose rows are those of {@code levels}, a hierarchy the writer installed: no
   * hierarchy that the writer still reads holds a spare then (each is the rows of a hierarchy made before it by a
   * run over this draft), so the next run may write its rows into it ({@link RecordedRows}).
   */
  void freeSpares(List<HierarchyState.Level> levels) {
    for (int l = 1; l < recordedRows.size() && l < levels.size(); l++) {
      RecordedRows r = recordedRows.get(l);
      if (r != null && r.rows() == levels.get(l).centroids()) {
        recordedRows.set(l, r.withSpareFree());
      }
    }
  }

  /** The integer mirror of level {@code level}'s rows as the last run over the draft kept it, or null. */
  IntegerRows integers(int level) {
    return at(integerRows, level);
  }

  /** Keeps {@code rows} as the integer mirror of level {@code level}'s rows (null forgets it). */
  void keepIntegers(int level, IntegerRows rows) {
    put(integerRows, level, rows);
  }

  /**
   * What remembers level {@code level}'s last kNN graph known to have its rows in order ({@link NearestMemberPatch}),
   * made empty on first use: the patch checks the rows of a graph it does not remember, and remembers the graph it
   * patched by copying. Level 0's is checked when the draft is prepared ({@link Maintainer}).
   */
  NearestMemberPatch.SortedRows sortedRows(int level) {
    NearestMemberPatch.SortedRows r = at(sortedRows, level);
    if (r == null) {
      r = new NearestMemberPatch.SortedRows();
      put(sortedRows, level, r);
    }
    return r;
  }

  /** The parents level {@code level}'s communities got in the last run over the draft, or null. */
  CommunityParents parents(int level) {
    return at(communityParents, level);
  }

  /** Keeps {@code parents} as the record of level {@code level}'s parents (null forgets it). */
  void keepParents(int level, CommunityParents parents) {
    put(communityParents, level, parents);
  }

  private static <T> T at(List<T> perLevel, int level) {
    return level < perLevel.size() ? perLevel.get(level) : null;
  }

  private static <T> void put(List<T> perLevel, int level, T value) {
    while (perLevel.size() <= level) {
      perLevel.add(null);
    }
    perLevel.set(level, value);
  }

  /**
   * Forgets the records ({@link #keepRows}, {@link #keepParents}) and integer mirrors
   * ({@link #keepIntegers}) that are not of the rows of {@code levels}, the hierarchy a run made.
   */
  void keepOnlyOf(List<HierarchyState.Level> levels) {
    for (int l = 0; l < communityParents.size(); l++) {
      CommunityParents r = communityParents.get(l);
      if (r != null && (l >= levels.size() || r.assignment() != levels.get(l).assignment())) {
        communityParents.set(l, null);
      }
    }
    for (int l = 0; l < recordedRows.size(); l++) {
      RecordedRows r = recordedRows.get(l);
      if (r != null && (l >= levels.size() || r.rows() != levels.get(l).centroids())) {
        recordedRows.set(l, null); // else it would keep an old level's rows alive
      }
    }
    for (int l = 0; l < integerRows.size(); l++) {
      IntegerRows r = integerRows.get(l);
      if (r != null && (l >= levels.size() || !r.mirrors(levels.get(l).centroids()))) {
        integerRows.set(l, null);
      }
    }
  }
}

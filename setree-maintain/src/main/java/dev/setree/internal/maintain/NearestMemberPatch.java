package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.KnnRows;
import dev.setree.internal.core.Vectors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * The {@link KnnPatch} of a level whose graph is approximate (NN-descent's, above
 * {@link BuildOptions#exactKnnLimit()}), from each moved member's nearest members instead of scans of the level
 * (docs/adr/0029): a moved member's row is the best of its near members, its old neighbours and theirs, and the
 * other moved members; a moved member enters only the rows of its near members; a row that lost a neighbour is
 * the best of its near members, its old neighbours and theirs, and the moved members. Every similarity is
 * computed exactly. NN-descent finds its rows the same way, from neighbours' neighbours (Dong, Charikar and Li,
 * "Efficient k-nearest neighbor graph construction for generic similarity measures", WWW 2011).
 */
final class NearestMemberPatch {
  private NearestMemberPatch() {}

  /**
   * Patches the oracle level {@code old}'s graph for the {@code m} members with {@code centroids} (the parameters
   * of {@link KnnPatch#patch}). With {@code appendedFirst}, when the level only gained members after its old ones
   * ({@link #onlyAppended}), every old row is copied at once and only the rows that can change are looked at:
   * what the row-by-row patch writes, without a pass over every row (tested against it); the patch then says which
   * rows those are ({@link KnnPatch#touched}). When old members also moved in place ({@link #keptInPlace}), the old
   * rows are copied too, and one pass over their neighbour entries finds the rows that list a moved member, which are
   * found again with the moved members' own: what the row-by-row patch writes, without its work per row.
   */
  static KnnPatch patch(HierarchyState.Level old, int m, float[] centroids, int dim, boolean[] moved,
      int[] newToOld, int[] oldToNew, int maxK, IntFunction<int[]> near, boolean appendedFirst) {
    return patch(old, m, centroids, dim, moved, newToOld, oldToNew, maxK, near, appendedFirst, 0, null);
  }

  /**
   * {@link #patch(HierarchyState.Level, int, float[], int, boolean[], int[], int[], int, IntFunction, boolean)},
   * knowing that the first {@code inPlace} members are old members at their indexes, none moved
   * ({@link LevelMatch#inPlace}), and with {@code sorted}, which remembers a graph whose rows were found in the order
   * {@link #onlyAppended} needs: a graph it remembers is not looked at again, and the patched graph is remembered
   * when its rows are so (only the rows the patch wrote are looked at).
   */
  static KnnPatch patch(HierarchyState.Level old, int m, float[] centroids, int dim, boolean[] moved,
      int[] newToOld, int[] oldToNew, int maxK, IntFunction<int[]> near, boolean appendedFirst, int inPlace,
      SortedRows sorted) {
    int k = KnnPatch.Rows.k(m, maxK);
    boolean sortedRows = sorted != null && sorted.holds(old, k);
    boolean inPlaceRows = appendedFirst && k > 0 && keptInPlace(old, m, k, oldToNew, inPlace, sortedRows);
    boolean appended = inPlaceRows && onlyNewMoved(moved, old.size(), m, inPlace);
    boolean keptInPlace = inPlaceRows && !appended;
    // Kept in place, the next version of the old rows: every page shared until the patch writes to it (KnnRows). At
    // level 0 of a million leaves, copying every row took 323 of the patches' 702 samples in a profile of 30 runs.
    KnnRows.Writer rows = inPlaceRows ? old.knn().extend(m, k) : KnnRows.empty(m, k);
    List<Integer> movedIdx = KnnPatch.Rows.movedIdx(moved, Math.min(inPlace, m), m);
    // Each moved member's near members, and the moved members that may enter each unmoved member's row.
    Map<Integer, int[]> nearOf = new HashMap<>();
    Map<Integer, List<Integer>> entering = new HashMap<>();
    for (int j : movedIdx) {
      int[] cand = near.apply(j);
      nearOf.put(j, cand);
      for (int i : cand) {
        if (i >= 0 && i < m && i != j && !moved[i]) {
          entering.computeIfAbsent(i, x -> new ArrayList<>()).add(j);
        }
      }
    }
    boolean[] enters = new boolean[m]; // whether a moved member may enter the row: told without a boxed lookup
    for (int i : entering.keySet()) {
      enters[i] = true;
    }
    NearRows patch = new NearRows(old.knn(), m, centroids, dim, k, oldToNew, rows, inPlaceRows, movedIdx,
        nearOf, entering, enters, near);
    if (appended) {
      // Every old row stays, translated to itself (where it is), unless a moved (new) member enters it.
      int[] touched = new int[entering.size() + movedIdx.size()];
      int t = 0;
      for (Map.Entry<Integer, List<Integer>> e : entering.entrySet()) {
        patch.keptRow(e.getKey(), e.getKey());
        touched[t++] = e.getKey();
      }
      for (int i : movedIdx) {
        patch.fullRow(i, -1, true);
        touched[t++] = i;
      }
      KnnRows patched = rows.rows();
      if (sorted != null) { // the old rows are sorted (onlyAppended): the patched ones are when the written ones are
        sorted.rowsWritten(patched, touched);
      }
      return new KnnPatch(patched, movedIdx.size(), touched);
    }
    if (keptInPlace) {
      return rowsInPlace(old, m, k, moved, rows, patch, sorted);
    }
    if (sorted != null) { // the rows one by one: the old graph is let go (a later patch of it checks its rows again)
      sorted.forget();
    }
    int recomputed = 0;
    KnnRows was = old.knn();
    for (int i = 0; i < m; i++) {
      int o = newToOld[i];
      boolean full = moved[i] || o < 0 || was.end(o) - was.start(o) < k;
      int[] page = o < 0 ? null : was.neighbourPage(o);
      for (int e = o < 0 ? 0 : was.start(o), end = o < 0 ? 0 : was.end(o); !full && e < end; e++) {
        int ni = oldToNew[page[e]];
        full = ni < 0 || moved[ni]; // a removed or moved neighbour
      }
      if (!full) {
        patch.keptRow(i, o);
        continue;
      }
      patch.fullRow(i, o, moved[i]);
      recomputed++;
    }
    return new KnnPatch(rows.rows(), recomputed, null);
  }

  /**
   * The patch when every old member kept its index ({@link #keptInPlace}) and some moved there: the old rows kept
   * where they are by {@code rows} ({@link KnnRows#extend}); a moved member's row, new or old, and an old row that
   * lists a moved member, found again ({@link NearRows#fullRow}); a row a moved member may enter and that lists none,
   * kept with those members competing ({@link NearRows#keptRow}). The row-by-row patch does the same for those rows, and
   * writes every other row as it is, sorted and its members in place. One pass over the old rows' neighbour entries
   * (at level 1 of a million leaves about 1.25 million) finds the rows listing a moved member.
   */
  private static KnnPatch rowsInPlace(HierarchyState.Level old, int m, int k, boolean[] moved, KnnRows.Writer rows,
      NearRows patch, SortedRows sorted) {
    int n = old.size();
    KnnRows was = old.knn();
    int[] touched = new int[m];
    int t = 0;
    int recomputed = 0;
    for (int i = 0; i < m; i++) {
      boolean full = moved[i] || i >= n; // a new member's row is found, as the row-by-row patch finds it
      int[] oldNeighbors = i < n ? was.neighbourPage(i) : null;
      for (int e = i < n ? was.start(i) : 0, end = i < n ? e + k : e; !full && e < end; e++) {
        full = moved[oldNeighbors[e]]; // in place: an old neighbour's index is its index now
      }
      if (full) {
        patch.fullRow(i, i < n ? i : -1, moved[i]);
        recomputed++;
        touched[t++] = i;
      } else if (patch.enters()[i]) {
        patch.keptRow(i, i);
        touched[t++] = i;
      }
    }
    touched = Arrays.copyOf(touched, t);
    KnnRows patched = rows.rows();
    if (sorted != null) { // the old rows are sorted (keptInPlace): the patched ones are when the written ones are
      sorted.rowsWritten(patched, touched);
    }
    return new KnnPatch(patched, recomputed, touched);
  }

  /**
   * Whether every old member kept its index, moved or not (so the members after them are new), each old row holding
   * {@code k} neighbours best first: {@link #onlyAppended} but for members that moved in place, as
   * a member above the leaves whose centroid changed does. One pass over the old members' places, and over their
   * rows unless {@code rowsSorted} says they are sorted.
   */
  static boolean keptInPlace(HierarchyState.Level old, int m, int k, int[] oldToNew, int inPlace,
      boolean rowsSorted) {
    int n = old.size();
    KnnRows rows = old.knn();
    if (n > m || (rows.paged() ? rows.rowLength() != k : rows.offsets()[n] != n * k)) {
      return false;
    }
    for (int o = Math.min(inPlace, n); o < n; o++) {
      if (oldToNew[o] != o) {
        return false;
      }
    }
    assert !rowsSorted || rowsSorted(old, k) : "a graph remembered as sorted is not";
    return rowsSorted || rowsSorted(old, k);
  }

  /**
   * Whether the level only gained members after its old ones, so that an unchanged row is the old row as it is:
   * the old members are the first ones, in their order, none moved; the new ones come after them; every old row
   * holds {@code k} neighbours, best first (as {@link KnnPatch#keepRow} would find it). One pass over the old rows.
   */
  static boolean onlyAppended(HierarchyState.Level old, int m, int k, boolean[] moved, int[] oldToNew) {
    return keptInPlace(old, m, k, oldToNew, 0, false) && onlyNewMoved(moved, old.size(), m, 0);
  }

  /**
   * Whether none of the {@code n} old members from {@code inPlace} on moved (the first {@code inPlace} did not) and
   * every member after them, new to the level, did ({@code n <= m}).
   */
  private static boolean onlyNewMoved(boolean[] moved, int n, int m, int inPlace) {
    for (int o = Math.min(inPlace, n); o < n; o++) {
      if (moved[o]) {
        return false;
      }
    }
    for (int i = n; i < m; i++) {
      if (!moved[i]) {
        return false;
      }
    }
    return true;
  }

  /** Whether each of {@code l}'s rows holds {@code k} neighbours, best first, at its place. One pass over the rows. */
  static boolean rowsSorted(HierarchyState.Level l, int k) {
    int n = l.size();
    KnnRows rows = l.knn();
    if (rows.size() != n || !rows.paged() && rows.offsets()[n] != n * k || rows.paged() && rows.rowLength() != k) {
      return false;
    }
    for (int o = 0, row = 0; o < n; o++, row += k) {
      if (!rows.paged() && rows.offsets()[o] != row
          || !ExactKnn.TopK.sortedRow(rows.neighbourPage(o), rows.weightPage(o), rows.start(o), k, null)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The last kNN graph of a level known to hold {@code k} neighbours per row, each row best first
   * ({@link #rowsSorted}), by the identity of its rows, which a level never changes: a draft keeps one per level
   * ({@link LevelRecords#sortedRows}), level 0's checked when the draft is prepared, each carried from a patch to the
   * next, so that {@link #keptInPlace} does not look at every row in every run.
   */
  static final class SortedRows {
    private KnnRows rows;
    private int k = -1;

    /** Whether {@code l}'s graph is the one remembered, with {@code k} neighbours per row. */
    boolean holds(HierarchyState.Level l, int k) {
      return rows != null && l.knn() == rows && this.k == k;
    }

    /** Remembers {@code l}'s graph when its rows hold {@code k} neighbours best first (looks at every row). */
    void check(HierarchyState.Level l, int k) {
      forget();
      if (l.knn() != null && l.size() > 0 && rowsSorted(l, k)) {
        remember(l.knn(), k);
      }
    }

    /**
     * After the patch wrote {@code touched} of {@code rows} and kept every other row of an old graph whose rows are
     * sorted: remembers the patched graph when each written row is sorted too; else forgets.
     */
    void rowsWritten(KnnRows rows, int[] touched) {
      forget();
      int k = rows.rowLength();
      for (int i : touched) {
        if (!ExactKnn.TopK.sortedRow(rows.neighbourPage(i), rows.weightPage(i), rows.start(i), k, null)) {
          return;
        }
      }
      remember(rows, k);
    }

    private void remember(KnnRows rows, int k) {
      this.rows = rows;
      this.k = k;
    }

    private void forget() {
      rows = null;
      k = -1;
    }
  }

  /**
   * The two kinds of row of {@link #patch}, written into {@code rows}, which keeps each old row at its index when
   * {@code inPlace} (every old member kept its index), else holds nothing yet.
   */
  private record NearRows(KnnRows was, int m, float[] centroids, int dim, int k,
      int[] oldToNew, KnnRows.Writer rows, boolean inPlace, List<Integer> movedIdx, Map<Integer, int[]> nearOf,
      Map<Integer, List<Integer>> entering, boolean[] enters, IntFunction<int[]> near) {
    /** The moved members entering a row that none enters. */
    private static final int[] NONE = new int[0];

    /** Row {@code i} (old index {@code o}), whose old neighbours all stay: the moved members near it may enter. */
    void keptRow(int i, int o) {
      int from = was.start(o);
      int[] oldNeighbors = was.neighbourPage(o);
      float[] oldWeights = was.weightPage(o);
      // A boxed lookup and a stream for each kept row, almost none of which a member enters, took about a tenth of
      // the patches' samples in a profile of 30 runs at a million leaves (about 140 of 1,474).
      int[] in = NONE;
      if (enters[i]) {
        List<Integer> entered = entering.get(i);
        in = new int[entered.size()];
        for (int x = 0; x < in.length; x++) {
          in[x] = entered.get(x);
        }
      }
      if (k > 0 && KnnPatch.keeps(oldNeighbors, oldWeights, from, k, i, oldToNew, in, null, centroids, dim)) {
        if (!inPlace || i != o) { // in place the row is there already (its members kept their indexes): no page copied
          KnnPatch.writeKept(oldNeighbors, oldWeights, from, k, oldToNew, rows.neighboursToWrite(i),
              rows.weightsToWrite(i), rows.start(i));
        }
        return;
      }
      ExactKnn.TopK top = new ExactKnn.TopK(k);
      for (int e = from; e < from + k; e++) {
        top.insert(oldWeights[e], oldToNew[oldNeighbors[e]]);
      }
      for (int j : in) {
        float s = Vectors.dot(centroids, i * dim, centroids, j * dim, dim);
        if (top.accepts(s, j)) {
          top.insert(s, j);
        }
      }
      top.writeSorted(rows.neighboursToWrite(i), rows.weightsToWrite(i), rows.start(i));
    }

    /**
     * Row {@code i} (old index {@code o}, -1 if new) found again: the best of its near members, its old
     * neighbours and theirs, the moved members and those entering it. The near members of a row that did not move
     * are looked for only when it lost a neighbour: one that only lists a moved member (a member above the leaves
     * whose centroid changed, listed by tens of rows in each run) keeps it as a candidate, at its new similarity.
     */
    void fullRow(int i, int o, boolean movedRow) {
      Set<Integer> cand = new LinkedHashSet<>();
      if (movedRow || lostNeighbour(o)) {
        for (int c : movedRow ? nearOf.get(i) : near.apply(i)) {
          cand.add(c);
        }
      }
      if (o >= 0) { // its old neighbours and theirs
        int[] page = was.neighbourPage(o);
        for (int e = was.start(o), end = was.end(o); e < end; e++) {
          int c = page[e];
          cand.add(oldToNew[c]);
          int[] theirs = was.neighbourPage(c);
          for (int f = was.start(c), to = was.end(c); f < to; f++) {
            cand.add(oldToNew[theirs[f]]);
          }
        }
      }
      cand.addAll(movedIdx);
      cand.addAll(entering.getOrDefault(i, List.of()));
      ExactKnn.TopK top = new ExactKnn.TopK(k);
      for (int c : cand) {
        if (c >= 0 && c < m && c != i) {
          float s = Vectors.dot(centroids, c * dim, centroids, i * dim, dim);
          if (top.accepts(s, c)) {
            top.insert(s, c);
          }
        }
      }
      int[] neighbors = rows.neighboursToWrite(i);
      float[] weights = rows.weightsToWrite(i);
      if (top.size < k) { // too few candidates (a tiny or disconnected neighbourhood): scan the level
        float[] scores = new float[Math.max(1, k)];
        int[] idx = ExactKnn.query(centroids, m, dim, Vectors.row(centroids, i, dim), k, i, scores);
        System.arraycopy(idx, 0, neighbors, rows.start(i), idx.length);
        System.arraycopy(scores, 0, weights, rows.start(i), idx.length);
      } else {
        top.writeSorted(neighbors, weights, rows.start(i));
      }
    }

    /** Whether old row {@code o} (-1: none) lists a member that is no longer one, or holds fewer than k. */
    private boolean lostNeighbour(int o) {
      if (o < 0 || was.end(o) - was.start(o) < k) {
        return true;
      }
      int[] page = was.neighbourPage(o);
      for (int e = was.start(o), end = was.end(o); e < end; e++) {
        if (oldToNew[page[e]] < 0) {
          return true;
        }
      }
      return false;
    }
  }
}

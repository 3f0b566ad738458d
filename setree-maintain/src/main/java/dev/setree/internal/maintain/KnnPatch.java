package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.KnnRows;
import dev.setree.internal.core.Vectors;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * G1 patching of a level's kNN graph, the second step of an {@link IncrementalRebuild} level: only rows that
 * can change are recomputed (rows of new or moved members, and rows that listed a removed or moved member);
 * every other row keeps its neighbours and only admits moved members that beat its k-th similarity. On an
 * exact graph, a row that listed a moved or removed member is recomputed from its old neighbours and the
 * moved members when that provably gives what a scan of the level gives ({@link #narrowRow}), else by the
 * scan.
 *
 * @param rows the patched graph's rows over the level's new members: flat from {@link #patch}, paged from
 *     {@link NearestMemberPatch} (which shares the old rows' pages that it does not write)
 * @param recomputed how many rows were recomputed in full
 * @param touched when known, the only rows that may list a moved member or be a moved member's: every other row
 *     is an unmoved member's old row under its old index, listing unmoved members only; null when not known
 */
record KnnPatch(KnnRows rows, int recomputed, int[] touched) {
  /** At most this many similarities to moved members are kept for reuse (64 MB). */
  static final long SHARED_SIMILARITIES = 1L << 24;

  /**
   * Patches the oracle level {@code old}'s graph for the {@code m} members with {@code centroids}.
   *
   * @param moved which members are new or moved
   * @param newToOld each member's index in {@code old} (-1: new)
   * @param oldToNew each old member's index now (-1: removed)
   * @param maxK the neighbours per row (fewer when the level is smaller)
   * @param exact whether {@code old}'s graph is exact (the level was never above
   *     {@link BuildOptions#exactKnnLimit()}), so that a row that listed a moved or removed member can be
   *     found among its old neighbours and the moved members ({@link #narrowRow})
   */
  static KnnPatch patch(HierarchyState.Level old, int m, float[] centroids, int dim, boolean[] moved,
      int[] newToOld, int[] oldToNew, int maxK, boolean exact) {
    return patch(old, m, centroids, dim, moved, newToOld, oldToNew, maxK, exact, null);
  }

  /**
   * As {@link #patch(HierarchyState.Level, int, float[], int, boolean[], int[], int[], int, boolean)}; on a level
   * whose graph is approximate ({@code !exact}) and with {@code near}, without any scan of the level, from each
   * moved member's near members ({@link NearestMemberPatch}).
   *
   * @param near for a member (new index), members near its centroid (new indexes; -1 entries are skipped); asked
   *     for each moved member and each row that lost a neighbour
   */
  static KnnPatch patch(HierarchyState.Level old, int m, float[] centroids, int dim, boolean[] moved,
      int[] newToOld, int[] oldToNew, int maxK, boolean exact, IntFunction<int[]> near) {
    return patch(old, m, centroids, dim, moved, newToOld, oldToNew, maxK, exact, near, null);
  }

  /**
   * As {@link #patch(HierarchyState.Level, int, float[], int, boolean[], int[], int[], int, boolean,
   * IntFunction)}; on an exact level with {@code integers}, the mirror of {@code centroids}, the scans of the level
   * (each moved member's similarities, each row recomputed in full) compute a float dot product only where the
   * integer one cannot decide ({@link IntegerRows}): the same graph, bit for bit.
   *
   * @param integers the mirror of {@code centroids}, or null
   */
  static KnnPatch patch(HierarchyState.Level old, int m, float[] centroids, int dim, boolean[] moved,
      int[] newToOld, int[] oldToNew, int maxK, boolean exact, IntFunction<int[]> near, IntegerRows integers) {
    if (!exact && near != null) {
      return NearestMemberPatch.patch(old, m, centroids, dim, moved, newToOld, oldToNew, maxK, near, true);
    }
    if (integers != null && !integers.mirrors(centroids)) {
      throw new IllegalArgumentException("the integer rows mirror other centroids");
    }
    Rows rows = Rows.of(m, dim, moved, maxK);
    int k = rows.k();
    int[] offsets = rows.offsets();
    int[] neighbors = rows.neighbors();
    float[] weights = rows.weights();
    List<Integer> movedIdx = rows.movedIdx();
    MovedSimilarities simToMoved = MovedSimilarities.of(centroids, m, dim, movedIdx, integers);
    // Whether the members that stayed kept their relative order (the rebuild keeps it): then an index tie-break
    // between two of them goes the same way before and after.
    boolean keptOrder = true;
    for (int i = 0, prev = -1; i < m && keptOrder; i++) {
      if (newToOld[i] >= 0) {
        keptOrder = newToOld[i] > prev;
        prev = newToOld[i];
      }
    }
    int recomputed = 0;
    List<Integer> scanned = new ArrayList<>();
    // The old graph's arrays and the moved members read in place: a call for each row and edge cost a process's
    // first run, before this loop over every member of the level is compiled.
    int[] oldOffsets = old.knnOffsets();
    int[] oldNeighbors = old.knnNeighbors();
    int[] movedMembers = movedIdx.stream().mapToInt(Integer::intValue).toArray();
    for (int i = 0; i < m; i++) {
      int o = newToOld[i];
      boolean full = moved[i] || o < 0;
      if (!full) {
        int from = oldOffsets[o];
        int to = oldOffsets[o + 1];
        if (to - from < k) {
          full = true;
        } else {
          for (int e = from; e < to && !full; e++) {
            int ni = oldToNew[oldNeighbors[e]];
            full = ni < 0 || moved[ni]; // a removed or moved neighbour
          }
        }
      }
      if (full && exact && !moved[i] && o >= 0
          && narrowRow(old, o, i, k, centroids, dim, moved, oldToNew, keptOrder, movedIdx, simToMoved, neighbors,
              weights)) {
        continue;
      }
      if (full && simToMoved.ofRow(i)) { // ExactKnn.query's scan, on the similarities computed above
        simToMoved.writeNearest(i, k, neighbors, weights);
        recomputed++;
        continue;
      }
      if (full) {
        scanned.add(i); // scanned below, all in one pass over the level
        recomputed++;
        continue;
      }
      // Keep the old row (translated to new indexes) and let moved members compete with it.
      int from = oldOffsets[o];
      if (k > 0 && keeps(oldNeighbors, old.knnWeights(), from, k, i, oldToNew, movedMembers, simToMoved, centroids,
          dim)) {
        writeKept(oldNeighbors, old.knnWeights(), from, k, oldToNew, neighbors, weights, i * k);
        continue;
      }
      ExactKnn.TopK top = new ExactKnn.TopK(k);
      for (int e = from; e < from + k; e++) {
        top.insert(old.knnWeights()[e], oldToNew[old.knnNeighbors()[e]]);
      }
      for (int j : movedIdx) {
        if (j != i) {
          float s = simToMoved.get(j, i);
          if (top.accepts(s, j)) {
            top.insert(s, j);
          }
        }
      }
      top.writeSorted(neighbors, weights, i * k);
    }
    if (integers != null) {
      float[] approx = new float[m];
      for (int i : scanned) {
        integers.approximate(i, approx);
        integers.nearest(i, approx, centroids, k, neighbors, weights);
      }
    } else {
      scanRows(scanned, centroids, m, dim, k, neighbors, weights);
    }
    return new KnnPatch(KnnRows.flat(offsets, neighbors, weights), recomputed, null);
  }

  /** The patched graph as one CSR graph (its flat arrays: tests, and callers off a run's path). */
  KnnGraph graph() {
    return new KnnGraph(rows.offsets(), rows.neighbours(), rows.weights());
  }

  /**
   * Writes each of {@code rows}' k nearest members, as {@link ExactKnn#query} finds them: when there are several,
   * their similarities to every member in one pass over the level per {@link #SHARED_SIMILARITIES} of them.
   */
  private static void scanRows(List<Integer> rows, float[] centroids, int m, int dim, int k, int[] neighbors,
      float[] weights) {
    if (rows.size() == 1) {
      int i = rows.get(0);
      float[] scores = new float[Math.max(1, k)];
      int[] idx = ExactKnn.query(centroids, m, dim, Vectors.row(centroids, i, dim), k, i, scores);
      System.arraycopy(idx, 0, neighbors, i * k, idx.length);
      System.arraycopy(scores, 0, weights, i * k, idx.length);
      return;
    }
    int batch = (int) Math.max(1, Math.min(rows.size(), SHARED_SIMILARITIES / Math.max(1, m)));
    for (int from = 0; from < rows.size(); from += batch) {
      int[] part = rows.subList(from, Math.min(rows.size(), from + batch)).stream().mapToInt(Integer::intValue)
          .toArray();
      float[][] sims = ExactKnn.similarities(centroids, m, dim, part);
      for (int x = 0; x < part.length; x++) {
        writeTop(sims[x], m, part[x], k, neighbors, weights);
      }
    }
  }

  /** Writes row {@code i}'s k best of {@code sims} (itself excluded), best first, ties to the smaller index. */
  static void writeTop(float[] sims, int m, int i, int k, int[] neighbors, float[] weights) {
    if (k == 0) {
      return;
    }
    ExactKnn.TopK top = new ExactKnn.TopK(k);
    for (int c = 0; c < m; c++) {
      if (c != i && top.accepts(sims[c], c)) {
        top.insert(sims[c], c);
      }
    }
    top.writeSorted(neighbors, weights, i * k);
  }

  /**
   * Whether kept row {@code i}, the old row at {@code from} of {@code nb} and {@code w} translated to new indexes, is
   * what letting the moved members compete with it and sorting would give: no moved member enters it and the
   * translated row is sorted best first (most rows of a level). Similarities to the moved members come from
   * {@code simToMoved} where it holds them (it may be null), else are computed.
   */
  static boolean keeps(int[] nb, float[] w, int from, int k, int i, int[] oldToNew, int[] movedIdx,
      MovedSimilarities simToMoved, float[] centroids, int dim) {
    if (!ExactKnn.TopK.sortedRow(nb, w, from, k, oldToNew)) {
      return false;
    }
    float lastW = w[from + k - 1];
    int lastI = oldToNew[nb[from + k - 1]];
    for (int j : movedIdx) {
      if (j != i) {
        boolean beats = simToMoved != null ? simToMoved.beats(j, i, lastW, lastI)
            : ExactKnn.TopK.better(Vectors.dot(centroids, i * dim, centroids, j * dim, dim), j, lastW, lastI);
        if (beats) {
          return false;
        }
      }
    }
    return true;
  }

  /** Writes the old row at {@code from} ({@code k} entries), translated to new indexes, at {@code at}. */
  static void writeKept(int[] nb, float[] w, int from, int k, int[] oldToNew, int[] neighbors, float[] weights,
      int at) {
    for (int e = 0; e < k; e++) {
      neighbors[at + e] = oldToNew[nb[from + e]];
      weights[at + e] = w[from + e];
    }
  }

  /**
   * The new row of member {@code i}, which did not move but listed a removed or moved member, found without
   * a scan of the level when that gives what the scan would: the candidates are its old neighbours that
   * are still there and did not move (their similarities computed again, as the scan computes them) and the
   * moved members. Every other member did not move, is not in the old row, and so (the old graph being
   * exact) loses to the old row's last neighbour; when the k-th best candidate is strictly more similar than
   * that neighbour, or is that neighbour (unmoved) or beats it, with the members in their old relative
   * order so that ties are broken the same way, the scan could not find anything better. Returns false, having
   * written nothing, when that does not hold, or when a recomputed similarity differs from the stored one in any
   * bit (the stored row is then not this level's exact row).
   */
  private static boolean narrowRow(HierarchyState.Level old, int o, int i, int k, float[] centroids, int dim,
      boolean[] moved, int[] oldToNew, boolean keptOrder, List<Integer> movedIdx, MovedSimilarities simToMoved,
      int[] neighbors, float[] weights) {
    int from = old.knnOffsets()[o];
    int to = old.knnOffsets()[o + 1];
    if (k == 0 || to - from < k) {
      return false;
    }
    ExactKnn.TopK top = new ExactKnn.TopK(k);
    int last = from; // the old row's last neighbour: the one every other old entry beats
    for (int e = from + 1; e < to; e++) {
      if (ExactKnn.TopK.better(old.knnWeights()[last], old.knnNeighbors()[last], old.knnWeights()[e],
          old.knnNeighbors()[e])) {
        last = e;
      }
    }
    float oldLast = old.knnWeights()[last];
    int lastNow = oldToNew[old.knnNeighbors()[last]];
    for (int e = from; e < to; e++) {
      float w = old.knnWeights()[e];
      int c = oldToNew[old.knnNeighbors()[e]];
      if (c < 0 || moved[c]) {
        continue; // removed, or moved: a moved member is scored below, at its new centroid
      }
      float s = Vectors.dot(centroids, c * dim, centroids, i * dim, dim);
      if (Float.floatToRawIntBits(s) != Float.floatToRawIntBits(w)) {
        return false;
      }
      if (top.accepts(s, c)) {
        top.insert(s, c);
      }
    }
    for (int j : movedIdx) {
      if (j != i) {
        float s = simToMoved.get(j, i);
        if (top.accepts(s, j)) {
          top.insert(s, j);
        }
      }
    }
    if (top.size < k) {
      return false;
    }
    float kth = top.scores[top.worst];
    // Strictly more similar than the old last neighbour beats every outsider; so does the old last
    // neighbour itself (or a candidate it loses to) when it stayed, since members kept their relative order.
    boolean lastStayed = lastNow >= 0 && !moved[lastNow] && keptOrder;
    if (!(kth > oldLast || lastStayed && (top.idx[top.worst] == lastNow
        || ExactKnn.TopK.better(kth, top.idx[top.worst], oldLast, lastNow)))) {
      return false;
    }
    top.writeSorted(neighbors, weights, i * k);
    return true;
  }

  /**
   * What the exact patch starts from: the dimension, k, the empty flat rows (k per member) and the moved members. The
   * near patch ({@link NearestMemberPatch}) takes its k and moved members, and writes paged rows.
   */
  record Rows(int dim, int k, int[] offsets, int[] neighbors, float[] weights, List<Integer> movedIdx) {
    static Rows of(int m, int dim, boolean[] moved, int maxK) {
      int k = k(m, maxK);
      return new Rows(dim, k, offsets(m, k), new int[m * k], new float[m * k], movedIdx(moved, 0, m));
    }

    /** The neighbours per row of a level of {@code m} members: {@code maxK}, or all the other members. */
    static int k(int m, int maxK) {
      return Math.max(0, Math.min(maxK, m - 1));
    }

    private static int[] offsets(int m, int k) {
      int[] offsets = new int[m + 1];
      for (int i = 0; i <= m; i++) { // k neighbours per row
        offsets[i] = i * k;
      }
      return offsets;
    }

    /**
     * The indexes of the moved members, in order, none of the first {@code inPlace} having moved (they are not
     * looked at: at level 0 of a million leaves, every old member).
     */
    static List<Integer> movedIdx(boolean[] moved, int inPlace, int m) {
      assert noneMoved(moved, inPlace) : "a member among the first " + inPlace + " moved";
      List<Integer> movedIdx = new ArrayList<>();
      for (int i = inPlace; i < m; i++) {
        if (moved[i]) {
          movedIdx.add(i);
        }
      }
      return movedIdx;
    }

    private static boolean noneMoved(boolean[] moved, int count) {
      for (int i = 0; i < count; i++) {
        if (moved[i]) {
          return false;
        }
      }
      return true;
    }
  }
}

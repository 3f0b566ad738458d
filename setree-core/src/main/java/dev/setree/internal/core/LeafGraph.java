package dev.setree.internal.core;

import java.util.Arrays;

/**
 * The graph {@link LeafNeighbours} searches: the level-0 kNN graph of the oracle over leaf indexes, made
 * undirected (every edge in both directions), each leaf keeping its {@link LeafNeighbours#MAX_DEGREE}
 * strongest distinct neighbours. Reverse edges make the graph navigable; the cap keeps hubs from
 * costing hundreds of dot products a step.
 *
 * <p>A maintenance run changes few rows of the kNN graph, so the graph of the next snapshot is derived from
 * this one ({@link #next}) when the leaves only grew (the oracle's level 0 and the tree list the old leaves
 * first, in the same order): only the leaves on a changed row (its member, its old and new neighbours) get
 * their neighbours computed again, from their rows and the rows that list them (the reverse edges kept
 * here); every other leaf keeps its row where it is. The result equals {@link #of} of the new snapshot, row by row.
 *
 * <p>Each leaf's row is a range of one array, and the graphs derived one from another share that array: a derived
 * graph writes its new rows into the room after the rows written before, which the graphs before never read, and
 * copies only the pages of ranges of the rows it writes ({@link RangeRows}). Copying every edge for each snapshot took
 * about 24 ms of a one-fact run at a million leaves, beside the save, and copying every range about half of what was
 * left of this derivation (ADR 0048). Only one graph derived from a given one extends the shared array (a
 * {@link RangeRows.Room} claimed by compare-and-set); another, or one whose new rows do not fit, copies the rows into
 * new arrays with room to spare ({@link RangeRows}). The reverse edges are kept the same way.
 */
final class LeafGraph {
  /**
   * Undirected adjacency over leaf indexes: leaf v's neighbours are row v of these ranges, strongest first; the array
   * of entries may hold rows of other graphs and room: read no further.
   */
  final RangeRows out;
  /** The kNN rows this graph was made from (level 0 of the oracle). */
  private final HierarchyState.Level level;
  /**
   * Per member, the members whose rows list it (row v of these ranges, in no particular order), when the members are
   * the tree's leaves in order; else null.
   */
  private final RangeRows in;
  /** Whether {@link #next} derived this graph from the previous one (for tests). */
  final boolean derived;

  private LeafGraph(RangeRows out, RangeRows in, HierarchyState.Level level, boolean derived) {
    this.out = out;
    this.in = in;
    this.level = level;
    this.derived = derived;
  }

  /** The members whose rows list leaf {@code v}, sorted (a new array; for tests), or null without reverse edges. */
  int[] sources(int v) {
    if (in == null) {
      return null;
    }
    int[] sources = Arrays.copyOfRange(in.entries(), in.start(v), in.end(v));
    Arrays.sort(sources);
    return sources;
  }


  /** The graph of {@code tree}'s leaves from level 0 of {@code hierarchy}, or null when it has none that fits. */
  static LeafGraph of(Tree tree, HierarchyState hierarchy) {
    int n = tree.leafCount();
    if (hierarchy.isEmpty() || hierarchy.levels().get(0).size() != n) {
      return null;
    }
    HierarchyState.Level l0 = hierarchy.levels().get(0);
    int[] leafOf = new int[n];
    boolean inOrder = true;
    for (int i = 0; i < n; i++) {
      int v = tree.indexOf(l0.memberIds()[i]);
      if (v < 0 || v >= n) {
        return null; // an oracle that does not match the tree: no graph
      }
      leafOf[i] = v;
      inOrder &= v == i;
    }
    KnnRows knn = l0.knn(); // read by rows: a run's are paged (KnnRows)
    int[] degree = new int[n];
    for (int i = 0; i < n; i++) {
      int[] kn = knn.neighbourPage(i);
      for (int e = knn.start(i), end = knn.end(i); e < end; e++) {
        degree[leafOf[i]]++;
        degree[leafOf[kn[e]]]++;
      }
    }
    int[] start = new int[n + 1];
    for (int v = 0; v < n; v++) {
      start[v + 1] = start[v] + degree[v];
    }
    int[] fill = Arrays.copyOf(start, n);
    long[] both = new long[start[n]]; // (weight descending, neighbour) packed to sort
    for (int i = 0; i < n; i++) {
      int[] kn = knn.neighbourPage(i);
      float[] kw = knn.weightPage(i);
      for (int e = knn.start(i), end = knn.end(i); e < end; e++) {
        int a = leafOf[i];
        int b = leafOf[kn[e]];
        long w = Ranking.key(kw[e], 0); // the weight's half of both keys; each adds its leaf
        both[fill[a]++] = w | b;
        both[fill[b]++] = w | a;
      }
    }
    int[] offsets = new int[n + 1];
    int[] adj = new int[start[n]];
    int m = 0;
    for (int v = 0; v < n; v++) {
      m = keep(both, start[v], start[v + 1], adj, m);
      offsets[v + 1] = m;
    }
    int[][] in = inOrder ? reverse(l0, n) : null;
    return new LeafGraph(RangeRows.of(offsets, adj), in == null ? null : RangeRows.of(in[0], in[1]), l0, false);
  }

  /**
   * The graph of {@code tree} with {@code hierarchy}, derived from this one (the previous snapshot's) when the
   * leaves only grew, else built by {@link #of}.
   */
  LeafGraph next(Tree tree, HierarchyState hierarchy) {
    int n = tree.leafCount();
    int n0 = level.size();
    if (in == null || hierarchy.isEmpty() || hierarchy.levels().get(0).size() != n || n < n0) {
      return of(tree, hierarchy);
    }
    HierarchyState.Level l1 = hierarchy.levels().get(0);
    // A level logged against this graph's starts with its members (a run's usual level 0): their ids are not compared.
    if (!tree.startsWithIds(l1.memberIds(), n)
        || !l1.loggedAgainst(level) && !NodeIds.samePrefix(l1.memberIds(), level.memberIds(), n0)) {
      return of(tree, hierarchy);
    }
    // Rows read through their pages: a run's rows are paged, and their flat arrays are not made (KnnRows).
    KnnRows k0 = level.knn();
    KnnRows k1 = l1.knn();
    // Changed rows, and the leaves whose edges they touch, as lists: a one-fact run changes tens of rows, and passes
    // over every leaf took about 15 ms of each run at a million leaves (ADR 0048).
    boolean[] changed = new boolean[n];
    boolean[] affected = new boolean[n];
    int[] changedRows = changedRows(l1, n0, n, changed);
    Ints affectedList = new Ints();
    for (int i : changedRows) {
      mark(i, affected, affectedList);
      if (i < n0) {
        int[] kn0 = k0.neighbourPage(i);
        for (int e = k0.start(i), end = k0.end(i); e < end; e++) {
          mark(kn0[e], affected, affectedList);
        }
      }
      int[] kn1 = k1.neighbourPage(i);
      for (int e = k1.start(i), end = k1.end(i); e < end; e++) {
        mark(kn1[e], affected, affectedList);
      }
    }
    int[] rewritten = affectedList.sorted(); // ascending, as a pass over the leaves would list them
    int affectedCount = rewritten.length;
    // Reverse edges: an affected member's sources are its old ones whose rows did not change and the changed
    // rows that list it now; every other member's are the old ones. Counted per affected member (by its place).
    int[] count = new int[affectedCount];
    for (int i : changedRows) {
      int[] kn1 = k1.neighbourPage(i);
      for (int e = k1.start(i), end = k1.end(i); e < end; e++) {
        count[Arrays.binarySearch(rewritten, kn1[e])]++;
      }
    }
    int[][] fresh = new int[affectedCount][];
    for (int a = 0; a < affectedCount; a++) {
      int v = rewritten[a];
      int from = v < n0 ? in.start(v) : 0;
      int to = v < n0 ? in.end(v) : 0;
      int[] sources = in.entries();
      int[] src = new int[count[a] + (to - from)];
      int s = 0;
      for (int x = from; x < to; x++) {
        if (!changed[sources[x]]) {
          src[s++] = sources[x];
        }
      }
      fresh[a] = src; // changed sources appended below
      count[a] = s;
    }
    for (int i : changedRows) {
      int[] kn1 = k1.neighbourPage(i);
      for (int e = k1.start(i), end = k1.end(i); e < end; e++) {
        int a = Arrays.binarySearch(rewritten, kn1[e]);
        fresh[a][count[a]++] = i;
      }
    }
    // The affected leaves' new rows; every other leaf keeps its rows where they are.
    int[][] outRows = new int[affectedCount][];
    int[][] inRows = new int[affectedCount][];
    int[] row = new int[LeafNeighbours.MAX_DEGREE];
    long[] both = new long[64];
    for (int a = 0; a < affectedCount; a++) {
      int v = rewritten[a];
      int edges = (k1.end(v) - k1.start(v)) + count[a];
      if (both.length < edges) {
        both = new long[Math.max(edges, 2 * both.length)];
      }
      int b = 0;
      int[] kn1 = k1.neighbourPage(v);
      float[] kw1 = k1.weightPage(v);
      for (int e = k1.start(v), end = k1.end(v); e < end; e++) {
        both[b++] = Ranking.key(kw1[e], kn1[e]);
      }
      for (int x = 0; x < count[a]; x++) {
        int u = fresh[a][x];
        int[] un = k1.neighbourPage(u);
        float[] uw = k1.weightPage(u);
        for (int e = k1.start(u), end = k1.end(u); e < end; e++) {
          if (un[e] == v) {
            both[b++] = Ranking.key(uw[e], u);
          }
        }
      }
      outRows[a] = Arrays.copyOf(row, keep(both, 0, b, row, 0));
      inRows[a] = Arrays.copyOf(fresh[a], count[a]);
    }
    return new LeafGraph(out.with(n, rewritten, outRows, affectedCount), in.with(n, rewritten, inRows, affectedCount),
        l1, true);
  }

  /**
   * The rows of {@code l1} that differ from this graph's level's ({@link #level}), ascending, each marked in
   * {@code changed}: the rows after the old ones, and among the old ones those that {@code l1}'s log since the level
   * names and that differ ({@link HierarchyState.Level#changesSince}), or, without a log, every row that differs.
   */
  private int[] changedRows(HierarchyState.Level l1, int n0, int n, boolean[] changed) {
    Ints rows = new Ints();
    int[] logged = KnnRowChanges.logged(level, l1);
    if (logged != null) {
      for (int i : logged) {
        changed[i] = true;
        rows.add(i);
      }
    } else {
      boolean[] inPlace = KnnRowChanges.inPlace(level, l1); // the old rows' changes, in bulk; null: row by row
      for (int i = 0; i < n0; i++) {
        if (inPlace != null ? inPlace[i] : !sameRow(level, i, l1, i)) {
          changed[i] = true;
          rows.add(i);
        }
      }
    }
    for (int i = n0; i < n; i++) {
      changed[i] = true;
      rows.add(i);
    }
    return rows.sorted();
  }

  /** Marks leaf {@code v} affected, listing it the first time. */
  private static void mark(int v, boolean[] affected, Ints list) {
    if (!affected[v]) {
      affected[v] = true;
      list.add(v);
    }
  }

  /** A growing list of ints. */
  private static final class Ints {
    private int[] values = new int[16];
    private int size;

    void add(int v) {
      if (size == values.length) {
        values = Arrays.copyOf(values, 2 * size);
      }
      values[size++] = v;
    }

    /** The values, ascending, in a new array. */
    int[] sorted() {
      int[] out = Arrays.copyOf(values, size);
      Arrays.sort(out);
      return out;
    }
  }

  /**
   * Sorts the packed edges {@code both[from, to)} (strongest first, then by neighbour) and appends the
   * {@link LeafNeighbours#MAX_DEGREE} strongest distinct neighbours to {@code adj} at {@code m}; returns the new end.
   */
  private static int keep(long[] both, int from, int to, int[] adj, int m) {
    Arrays.sort(both, from, to);
    int begin = m;
    int kept = 0;
    for (int j = from; j < to && kept < LeafNeighbours.MAX_DEGREE; j++) {
      int u = (int) both[j];
      boolean seen = false;
      for (int x = begin; x < m; x++) {
        seen |= adj[x] == u;
      }
      if (!seen) {
        adj[m++] = u;
        kept++;
      }
    }
    return m;
  }

  /** Per member, the members whose rows list it. */
  private static int[][] reverse(HierarchyState.Level l, int n) {
    KnnRows knn = l.knn();
    int[] off = new int[n + 1];
    for (int i = 0; i < n; i++) {
      int[] kn = knn.neighbourPage(i);
      for (int e = knn.start(i), end = knn.end(i); e < end; e++) {
        off[kn[e] + 1]++;
      }
    }
    for (int v = 0; v < n; v++) {
      off[v + 1] += off[v];
    }
    int[] fill = Arrays.copyOf(off, n);
    int[] src = new int[off[n]];
    for (int i = 0; i < n; i++) {
      int[] kn = knn.neighbourPage(i);
      for (int e = knn.start(i), end = knn.end(i); e < end; e++) {
        src[fill[kn[e]]++] = i;
      }
    }
    return new int[][] {off, src};
  }

  private static boolean sameRow(HierarchyState.Level a, int i, HierarchyState.Level b, int j) {
    return a.knn().sameRow(i, b.knn(), j);
  }
}

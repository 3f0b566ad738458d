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
 * <p>Each leaf's row is a range of one array ({@code start}, {@code end}), and the graphs derived one from another
 * share that array: a derived graph writes its new rows into the room after the rows written before, which the
 * graphs before never read, and copies only the two arrays of ranges. Copying every edge for each snapshot took about
 * 24 ms of a one-fact run at a million leaves, beside the save. Only one graph derived from a given one extends the
 * shared array (a {@link Room} claimed by compare-and-set); another, or one whose new rows do not fit, copies the rows
 * into new arrays with room to spare. The reverse edges are kept the same way.
 */
final class LeafGraph {
  /** The room kept after the rows of new arrays: this share of the rows' entries, and at least 1,024 entries. */
  static final int ROOM_SHARE = 4;

  /**
   * How much of an array shared by derived graphs is written: a graph extends the array only from the end it saw,
   * and only if no other graph extended it since.
   */
  static final class Room {
    private final java.util.concurrent.atomic.AtomicInteger used;

    Room(int used) {
      this.used = new java.util.concurrent.atomic.AtomicInteger(used);
    }

    /** Claims {@code [from, from + count)} of an array of {@code capacity} entries, if {@code from} is its end. */
    boolean claim(int from, int count, int capacity) {
      return from + (long) count <= capacity && used.compareAndSet(from, from + count);
    }
  }

  /**
   * Undirected adjacency over leaf indexes: leaf v's neighbours are {@code neighbours[start[v], end[v])}, strongest
   * first; the array may hold rows of other graphs and room: read no further.
   */
  final int[] start;
  final int[] end;
  final int[] neighbours;
  private final Room room;
  /** The end of the entries of {@link #neighbours} written when this graph was made. */
  private final int used;
  /** The kNN rows this graph was made from (level 0 of the oracle). */
  private final HierarchyState.Level level;
  /**
   * Per member, the members whose rows list it ({@code inSources[inStart[v], inEnd[v])}, in no particular order),
   * when the members are the tree's leaves in order; else null.
   */
  private final int[] inStart;
  private final int[] inEnd;
  private final int[] inSources;
  private final Room inRoom;
  private final int inUsed;
  /** Whether {@link #next} derived this graph from the previous one (for tests). */
  final boolean derived;

  private LeafGraph(Rows out, Rows in, HierarchyState.Level level, boolean derived) {
    this.start = out.start;
    this.end = out.end;
    this.neighbours = out.entries;
    this.room = out.room;
    this.used = out.used;
    this.level = level;
    this.inStart = in == null ? null : in.start;
    this.inEnd = in == null ? null : in.end;
    this.inSources = in == null ? null : in.entries;
    this.inRoom = in == null ? null : in.room;
    this.inUsed = in == null ? 0 : in.used;
    this.derived = derived;
  }

  /** The members whose rows list leaf {@code v}, sorted (a new array; for tests), or null without reverse edges. */
  int[] sources(int v) {
    if (inStart == null) {
      return null;
    }
    int[] out = Arrays.copyOfRange(inSources, inStart[v], inEnd[v]);
    Arrays.sort(out);
    return out;
  }

  /** Rows of a graph: each row's range in {@code entries}, the room shared with other graphs, and its end. */
  private record Rows(int[] start, int[] end, int[] entries, Room room, int used) {
    /** Rows given as compressed sparse rows, copied into an array with room after them. */
    static Rows of(int[] offsets, int[] entries) {
      int n = offsets.length - 1;
      int m = offsets[n];
      return new Rows(Arrays.copyOf(offsets, n), Arrays.copyOfRange(offsets, 1, n + 1),
          Arrays.copyOf(entries, m + Math.max(1024, m / ROOM_SHARE)), new Room(m), m);
    }

    /**
     * These rows for {@code n} leaves, the rows of {@code changed} leaves replaced by {@code rows} (null: an empty
     * row): written after this graph's entries when it can claim the room there, else all rows copied into a new
     * array with room.
     */
    Rows with(int n, int[] changed, int[][] rows, int changedCount) {
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
      return new Rows(s, e, into, r, at);
    }
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
    return new LeafGraph(Rows.of(offsets, adj), in == null ? null : Rows.of(in[0], in[1]), l0, false);
  }

  /**
   * The graph of {@code tree} with {@code hierarchy}, derived from this one (the previous snapshot's) when the
   * leaves only grew, else built by {@link #of}.
   */
  LeafGraph next(Tree tree, HierarchyState hierarchy) {
    int n = tree.leafCount();
    int n0 = level.size();
    if (inStart == null || hierarchy.isEmpty() || hierarchy.levels().get(0).size() != n || n < n0) {
      return of(tree, hierarchy);
    }
    HierarchyState.Level l1 = hierarchy.levels().get(0);
    if (!tree.startsWithIds(l1.memberIds(), n) || !NodeIds.samePrefix(l1.memberIds(), level.memberIds(), n0)) {
      return of(tree, hierarchy);
    }
    // Rows read through their pages: a run's rows are paged, and their flat arrays are not made (KnnRows).
    KnnRows k0 = level.knn();
    KnnRows k1 = l1.knn();
    // Changed rows, and the leaves whose edges they touch.
    boolean[] changed = new boolean[n];
    boolean[] affected = new boolean[n];
    int changes = 0;
    boolean[] inPlace = KnnRowChanges.inPlace(level, l1); // the old rows' changes, in bulk; null: row by row
    for (int i = 0; i < n; i++) {
      if (i >= n0 || (inPlace != null ? inPlace[i] : !sameRow(level, i, l1, i))) {
        changed[i] = true;
        changes++;
        affected[i] = true;
        if (i < n0) {
          int[] kn0 = k0.neighbourPage(i);
          for (int e = k0.start(i), end = k0.end(i); e < end; e++) {
            affected[kn0[e]] = true;
          }
        }
        int[] kn1 = k1.neighbourPage(i);
        for (int e = k1.start(i), end = k1.end(i); e < end; e++) {
          affected[kn1[e]] = true;
        }
      }
    }
    // Reverse edges: an affected member's sources are its old ones whose rows did not change and the changed
    // rows that list it now; every other member's are the old ones.
    int[] count = new int[n];
    int[][] fresh = new int[n][];
    for (int i = 0; i < n; i++) {
      if (changed[i]) {
        int[] kn1 = k1.neighbourPage(i);
        for (int e = k1.start(i), end = k1.end(i); e < end; e++) {
          count[kn1[e]]++;
        }
      }
    }
    for (int v = 0; v < n; v++) {
      if (affected[v]) {
        int[] src = new int[count[v] + (v < n0 ? inEnd[v] - inStart[v] : 0)];
        int s = 0;
        for (int x = v < n0 ? inStart[v] : 0; v < n0 && x < inEnd[v]; x++) {
          if (!changed[inSources[x]]) {
            src[s++] = inSources[x];
          }
        }
        fresh[v] = Arrays.copyOf(src, s); // changed sources appended below
        count[v] = s;
      }
    }
    for (int i = 0; i < n; i++) {
      if (changed[i]) {
        int[] kn1 = k1.neighbourPage(i);
        for (int e = k1.start(i), end = k1.end(i); e < end; e++) {
          int v = kn1[e];
          if (count[v] == fresh[v].length) {
            fresh[v] = Arrays.copyOf(fresh[v], Math.max(4, 2 * count[v]));
          }
          fresh[v][count[v]++] = i;
        }
      }
    }
    // The affected leaves' new rows; every other leaf keeps its rows where they are.
    int affectedCount = 0;
    for (int v = 0; v < n; v++) {
      affectedCount += affected[v] ? 1 : 0;
    }
    int[] rewritten = new int[affectedCount];
    int[][] outRows = new int[affectedCount][];
    int[][] inRows = new int[affectedCount][];
    int[] row = new int[LeafNeighbours.MAX_DEGREE];
    long[] both = new long[64];
    int a = 0;
    for (int v = 0; v < n; v++) {
      if (!affected[v]) {
        continue;
      }
      int edges = (k1.end(v) - k1.start(v)) + count[v];
      if (both.length < edges) {
        both = new long[Math.max(edges, 2 * both.length)];
      }
      int b = 0;
      int[] kn1 = k1.neighbourPage(v);
      float[] kw1 = k1.weightPage(v);
      for (int e = k1.start(v), end = k1.end(v); e < end; e++) {
        both[b++] = Ranking.key(kw1[e], kn1[e]);
      }
      for (int x = 0; x < count[v]; x++) {
        int u = fresh[v][x];
        int[] un = k1.neighbourPage(u);
        float[] uw = k1.weightPage(u);
        for (int e = k1.start(u), end = k1.end(u); e < end; e++) {
          if (un[e] == v) {
            both[b++] = Ranking.key(uw[e], u);
          }
        }
      }
      rewritten[a] = v;
      outRows[a] = Arrays.copyOf(row, keep(both, 0, b, row, 0));
      inRows[a] = Arrays.copyOf(fresh[v], count[v]);
      a++;
    }
    Rows out = new Rows(start, end, neighbours, room, used).with(n, rewritten, outRows, affectedCount);
    Rows in = new Rows(inStart, inEnd, inSources, inRoom, inUsed).with(n, rewritten, inRows, affectedCount);
    return new LeafGraph(out, in, l1, true);
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

package dev.setree.internal.core;

import java.util.Arrays;

/**
 * The graph {@link LeafNeighbours} searches: the level-0 kNN graph of the oracle over leaf indexes, made
 * undirected (every edge in both directions), each leaf keeping its {@link LeafNeighbours#MAX_DEGREE}
 * strongest distinct neighbours (CSR). Reverse edges make the graph navigable; the cap keeps hubs from
 * costing hundreds of dot products a step.
 *
 * <p>A maintenance run changes few rows of the kNN graph, so the graph of the next snapshot is derived from
 * this one ({@link #next}) when the leaves only grew (the oracle's level 0 and the tree list the old leaves
 * first, in the same order): only the leaves on a changed row (its member, its old and new neighbours) get
 * their neighbours computed again, from their rows and the rows that list them (the reverse edges kept
 * here); every other leaf's neighbours are copied. The result equals {@link #of} of the new snapshot.
 */
final class LeafGraph {
  /**
   * Undirected adjacency over leaf indexes (CSR): leaf v's neighbours are {@code neighbours[offsets[v],
   * offsets[v + 1])}; the array may be longer than {@code offsets[n]} (a derived graph keeps the room it was built
   * in rather than copying every edge once more): read no further.
   */
  final int[] offsets;
  final int[] neighbours;
  /** The kNN rows this graph was made from (level 0 of the oracle). */
  private final HierarchyState.Level level;
  /**
   * Per member, the members whose rows list it (CSR, in no particular order), when the members are the tree's
   * leaves in order; else null.
   */
  private final int[] inOffsets;
  private final int[] inSources;
  /** Whether {@link #next} derived this graph from the previous one (for tests). */
  final boolean derived;

  private LeafGraph(int[] offsets, int[] neighbours, HierarchyState.Level level, int[] inOffsets, int[] inSources,
      boolean derived) {
    this.offsets = offsets;
    this.neighbours = neighbours;
    this.level = level;
    this.inOffsets = inOffsets;
    this.inSources = inSources;
    this.derived = derived;
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
    int[] ko = l0.knnOffsets();
    int[] kn = l0.knnNeighbors();
    float[] kw = l0.knnWeights();
    int[] degree = new int[n];
    for (int i = 0; i < n; i++) {
      for (int e = ko[i]; e < ko[i + 1]; e++) {
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
      for (int e = ko[i]; e < ko[i + 1]; e++) {
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
    return new LeafGraph(offsets, Arrays.copyOf(adj, m), l0, in == null ? null : in[0], in == null ? null : in[1],
        false);
  }

  /**
   * The graph of {@code tree} with {@code hierarchy}, derived from this one (the previous snapshot's) when the
   * leaves only grew, else built by {@link #of}.
   */
  LeafGraph next(Tree tree, HierarchyState hierarchy) {
    int n = tree.leafCount();
    int n0 = level.size();
    if (inOffsets == null || hierarchy.isEmpty() || hierarchy.levels().get(0).size() != n || n < n0) {
      return of(tree, hierarchy);
    }
    HierarchyState.Level l1 = hierarchy.levels().get(0);
    if (!tree.startsWithIds(l1.memberIds(), n) || !NodeIds.samePrefix(l1.memberIds(), level.memberIds(), n0)) {
      return of(tree, hierarchy);
    }
    int[] ko0 = level.knnOffsets();
    int[] kn0 = level.knnNeighbors();
    int[] ko1 = l1.knnOffsets();
    int[] kn1 = l1.knnNeighbors();
    float[] kw1 = l1.knnWeights();
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
          for (int e = ko0[i]; e < ko0[i + 1]; e++) {
            affected[kn0[e]] = true;
          }
        }
        for (int e = ko1[i]; e < ko1[i + 1]; e++) {
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
        for (int e = ko1[i]; e < ko1[i + 1]; e++) {
          count[kn1[e]]++;
        }
      }
    }
    for (int v = 0; v < n; v++) {
      if (affected[v]) {
        int[] src = new int[count[v] + (v < n0 ? inOffsets[v + 1] - inOffsets[v] : 0)];
        int s = 0;
        for (int x = v < n0 ? inOffsets[v] : 0; v < n0 && x < inOffsets[v + 1]; x++) {
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
        for (int e = ko1[i]; e < ko1[i + 1]; e++) {
          int v = kn1[e];
          if (count[v] == fresh[v].length) {
            fresh[v] = Arrays.copyOf(fresh[v], Math.max(4, 2 * count[v]));
          }
          fresh[v][count[v]++] = i;
        }
      }
    }
    int[] inOff = new int[n + 1];
    for (int v = 0; v < n; v++) {
      inOff[v + 1] = inOff[v] + (affected[v] ? count[v] : inOffsets[v + 1] - inOffsets[v]);
    }
    int[] inSrc = new int[inOff[n]];
    int[] off = new int[n + 1];
    int[] adj = new int[offsets[n0] + (n - n0 + changes) * LeafNeighbours.MAX_DEGREE];
    int m = 0;
    long[] both = new long[64];
    for (int v = 0; v < n; v++) {
      if (!affected[v]) {
        // A run of unaffected leaves (all old ones: every new leaf is affected) keeps its neighbours and sources,
        // which lie together in the old arrays: copied in one piece each.
        int first = v;
        while (v + 1 < n && !affected[v + 1]) {
          v++;
        }
        System.arraycopy(inSources, inOffsets[first], inSrc, inOff[first], inOffsets[v + 1] - inOffsets[first]);
        int len = offsets[v + 1] - offsets[first];
        if (m + len > adj.length) {
          adj = Arrays.copyOf(adj, Math.max(m + len, adj.length * 2));
        }
        System.arraycopy(neighbours, offsets[first], adj, m, len);
        int shift = m - offsets[first];
        for (int u = first; u <= v; u++) {
          off[u + 1] = offsets[u + 1] + shift;
        }
        m += len;
      } else {
        System.arraycopy(fresh[v], 0, inSrc, inOff[v], count[v]);
        int edges = (ko1[v + 1] - ko1[v]) + count[v];
        if (both.length < edges) {
          both = new long[Math.max(edges, 2 * both.length)];
        }
        int b = 0;
        for (int e = ko1[v]; e < ko1[v + 1]; e++) {
          both[b++] = Ranking.key(kw1[e], kn1[e]);
        }
        for (int x = 0; x < count[v]; x++) {
          int u = fresh[v][x];
          for (int e = ko1[u]; e < ko1[u + 1]; e++) {
            if (kn1[e] == v) {
              both[b++] = Ranking.key(kw1[e], u);
            }
          }
        }
        if (m + LeafNeighbours.MAX_DEGREE > adj.length) {
          adj = Arrays.copyOf(adj, adj.length * 2 + LeafNeighbours.MAX_DEGREE);
        }
        m = keep(both, 0, b, adj, m);
      }
      off[v + 1] = m;
    }
    return new LeafGraph(off, adj, l1, inOff, inSrc, true); // adj's room after m is left unused
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
    int[] ko = l.knnOffsets();
    int[] kn = l.knnNeighbors();
    int[] off = new int[n + 1];
    for (int e = 0; e < ko[n]; e++) {
      off[kn[e] + 1]++;
    }
    for (int v = 0; v < n; v++) {
      off[v + 1] += off[v];
    }
    int[] fill = Arrays.copyOf(off, n);
    int[] src = new int[ko[n]];
    for (int i = 0; i < n; i++) {
      for (int e = ko[i]; e < ko[i + 1]; e++) {
        src[fill[kn[e]]++] = i;
      }
    }
    return new int[][] {off, src};
  }

  private static boolean sameRow(HierarchyState.Level a, int i, HierarchyState.Level b, int j) {
    int ao = a.knnOffsets()[i];
    int an = a.knnOffsets()[i + 1] - ao;
    int bo = b.knnOffsets()[j];
    if (b.knnOffsets()[j + 1] - bo != an) {
      return false;
    }
    for (int e = 0; e < an; e++) {
      if (a.knnNeighbors()[ao + e] != b.knnNeighbors()[bo + e]
          || Float.floatToRawIntBits(a.knnWeights()[ao + e]) != Float.floatToRawIntBits(b.knnWeights()[bo + e])) {
        return false;
      }
    }
    return true;
  }
}

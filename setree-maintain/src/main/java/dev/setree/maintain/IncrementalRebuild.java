package dev.setree.maintain;

import dev.setree.core.HierarchyState;
import dev.setree.core.Vectors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The incremental rebuild of the hierarchy after leaves were added or removed, after HIT-Leiden (Lin, Xie,
 * Fang, Hu, Hu and Chen, "Maintaining Leiden Communities in Large Dynamic Graphs", arXiv:2601.08554, 2026),
 * adapted to SETree's bottom-up levels over leaf-centroids (docs/adr/0006-incremental-rebuild.md).
 *
 * <p>Against the persisted oracle ({@link HierarchyState}), level by level from the leaves up:
 * <ol>
 *   <li><b>Clean check.</b> A level whose member ids equal the oracle's, in order, and whose centroids are
 *       equal component-wise is clean: it and every level above are unchanged, and the loop stops. At level
 *       0 this is the clean skip.
 *   <li><b>G1 patching of the kNN graph.</b> Only rows that can change are recomputed: rows of new or moved
 *       members (centroid changed), and rows that listed a removed or moved member. Every other row keeps
 *       its neighbours and only admits new or moved members that beat its k-th similarity. Over an exact
 *       graph the result is the exact kNN graph over the new members; over an approximate one (a level
 *       above {@link BuildOptions#exactKnnLimit()}, built by {@link NnDescent}) recomputed rows are exact
 *       and kept rows keep their approximate neighbours, improved by the new members.
 *   <li><b>Affected communities.</b> A community of the oracle is affected when it lost a member or holds
 *       a moved member; a new member joins the community of its nearest neighbour, which is then affected.
 *       Leiden runs again only on the subgraph induced by the affected communities' members.
 *   <li><b>Parent preservation.</b> An unaffected community keeps its parent node, id and summary: no
 *       summariser work. A re-formed community reuses the id of the old parent it overlaps most (its summary
 *       is rewritten when its members changed); only genuinely new communities get new nodes.
 * </ol>
 * Levels beyond the oracle, or a level whose oracle entry is inconsistent, are clustered from scratch.
 */
final class IncrementalRebuild {
  private final BuildOptions options;
  private final LeidenClustering leiden;

  IncrementalRebuild(BuildOptions options) {
    this.options = options;
    this.leiden = new LeidenClustering(options.targetArity(), options.seed());
  }

  /** What the rebuild did, for statistics and tests. */
  record Outcome(List<HierarchyState.Level> levels, int dirtyLevels, int reclusteredMembers,
      int rowsRecomputed, boolean cleanSkip) {}

  /**
   * Rebuilds {@code draft}'s internal structure for its current leaves (new leaves have no parent, removed
   * leaves are gone; their old parents still hold their other children).
   */
  Outcome run(DraftTree draft, HierarchyState oracle, TreeBuilder.IdSource ids) {
    List<DraftTree.Node> members = new ArrayList<>(draft.leaves);
    List<HierarchyState.Level> out = new ArrayList<>();
    int dim = draft.dim;
    int rootArity = TreeBuilder.rootArity(options);
    int dirty = 0;
    int reclustered = 0;
    int rows = 0;
    Map<String, DraftTree.Node> byId = new HashMap<>();
    for (DraftTree.Node n : draft.leaves) {
      byId.put(n.id, n);
    }
    for (DraftTree.Node n : draft.internal) {
      byId.put(n.id, n);
    }
    for (int lvl = 0; members.size() > 1; lvl++) {
      HierarchyState.Level old = lvl < oracle.levels().size() ? oracle.levels().get(lvl) : null;
      float[] centroids = TreeBuilder.centroids(members, dim);
      if (old != null && sameMembers(old, members, centroids)) {
        out.addAll(oracle.levels().subList(lvl, oracle.levels().size()));
        return new Outcome(out, dirty, reclustered, rows, lvl == 0);
      }
      dirty++;
      if (old == null || !usable(old, dim)) {
        // Beyond the oracle: cluster from scratch, detaching the members from stale parents.
        for (DraftTree.Node m : members) {
          if (m.parent != null) {
            m.parent.children.remove(m);
            m.parent.structural = true;
            m.parent = null;
          }
        }
        long[] knnNanos = new long[1];
        out.addAll(TreeBuilder.clusterFrom(draft, members, lvl, ids, options, knnNanos, BuildProgress.NONE));
        reclustered += members.size();
        draft.pruneEmpty();
        return new Outcome(out, dirty, reclustered, rows, false);
      }
      int m = members.size();
      Map<String, Integer> oldIndex = new HashMap<>(old.size() * 2);
      for (int i = 0; i < old.size(); i++) {
        oldIndex.put(old.memberIds()[i], i);
      }
      // Each member's index in the oracle's level and back (-1: new, or removed), looked up once per level.
      int[] newToOld = new int[m];
      int[] oldToNew = new int[old.size()];
      Arrays.fill(oldToNew, -1);
      for (int i = 0; i < m; i++) {
        Integer o = oldIndex.get(members.get(i).id);
        newToOld[i] = o == null ? -1 : o;
        if (o != null) {
          oldToNew[o] = i;
        }
      }
      // Moved = new members and members whose centroid changed.
      boolean[] moved = new boolean[m];
      for (int i = 0; i < m; i++) {
        moved[i] = newToOld[i] < 0 || !rowEquals(centroids, i, old.centroids(), newToOld[i], dim);
      }
      // G1 patching.
      KnnPatch patch = patchKnn(old, m, centroids, moved, newToOld, oldToNew);
      rows += patch.recomputed;
      KnnGraph knn = patch.graph;
      // Affected communities of the oracle.
      Map<Integer, List<Integer>> oldCommunities = new LinkedHashMap<>();
      int[] oldCommunityOf = new int[m];
      for (int i = 0; i < m; i++) {
        int o = newToOld[i];
        oldCommunityOf[i] = o < 0 ? -1 : old.assignment()[o];
        if (o >= 0) {
          oldCommunities.computeIfAbsent(oldCommunityOf[i], k -> new ArrayList<>()).add(i);
        }
      }
      Set<Integer> affected = new HashSet<>();
      for (int o = 0; o < old.size(); o++) {
        if (oldToNew[o] < 0) { // removed
          affected.add(old.assignment()[o]);
        }
      }
      // A moved member's own community and the communities of its graph neighbours (either direction)
      // may gain or lose it.
      for (int i = 0; i < m; i++) {
        for (int e = knn.offsets()[i]; e < knn.offsets()[i + 1]; e++) {
          int j = knn.neighbors()[e];
          if (moved[i] && oldCommunityOf[j] >= 0) {
            affected.add(oldCommunityOf[j]);
          }
          if (moved[j] && oldCommunityOf[i] >= 0) {
            affected.add(oldCommunityOf[i]);
          }
        }
        if (moved[i] && oldCommunityOf[i] >= 0) {
          affected.add(oldCommunityOf[i]);
        }
      }
      boolean wrap = m <= rootArity;
      List<Integer> pool = new ArrayList<>();
      for (int i = 0; i < m; i++) {
        if (wrap || oldCommunityOf[i] < 0 || affected.contains(oldCommunityOf[i])) {
          pool.add(i);
        }
      }
      // When the affected part is most of the level (small upper levels), re-cluster the whole level with a
      // fresh resolution search, as a full build would: the recorded resolution was fitted to other members.
      boolean whole = wrap || 2 * pool.size() > m;
      if (whole && !wrap) {
        pool.clear();
        affected.addAll(oldCommunities.keySet());
        for (int i = 0; i < m; i++) {
          pool.add(i);
        }
      }
      int[] assignment = new int[m];
      Arrays.fill(assignment, -1);
      int next = 0;
      if (wrap) {
        // Few enough members to be the root's children: one community.
      } else {
        // Unaffected communities keep their assignment.
        for (Map.Entry<Integer, List<Integer>> e : oldCommunities.entrySet()) {
          if (!affected.contains(e.getKey())) {
            for (int i : e.getValue()) {
              assignment[i] = next;
            }
            next++;
          }
        }
      }
      reclustered += pool.size();
      double resolution = Double.NaN;
      int[] local;
      if (wrap) {
        local = new int[pool.size()];
      } else {
        int[] initial = new int[pool.size()];
        Map<Integer, Integer> dense = new HashMap<>();
        for (int p = 0; p < pool.size(); p++) {
          int oc = oldCommunityOf[pool.get(p)];
          initial[p] = oc >= 0 ? dense.computeIfAbsent(oc, k -> dense.size()) : -1;
        }
        int fresh = dense.size();
        for (int p = 0; p < pool.size(); p++) {
          if (initial[p] < 0) {
            initial[p] = fresh++;
          }
        }
        LeidenClustering.Result res = clusterLocal(knn, pool, whole ? Double.NaN : old.resolution(), initial);
        local = res.assignment();
        resolution = res.resolution();
      }
      int base = next;
      int localMax = -1;
      for (int p = 0; p < pool.size(); p++) {
        assignment[pool.get(p)] = base + local[p];
        localMax = Math.max(localMax, local[p]);
      }
      next = base + localMax + 1;
      if (!TreeBuilder.mergesAnything(assignment)) {
        Arrays.fill(assignment, 0);
        resolution = Double.NaN;
      }
      List<DraftTree.Node> nextMembers = regroup(draft, members, newToOld, assignment, old, byId, lvl + 1, ids,
          oracle.levels().size() > lvl + 1 ? oracle.levels().get(lvl + 1) : null);
      int[] size = TreeBuilder.communitySizes(assignment);
      String[] parentIds = new String[m];
      for (int i = 0; i < m; i++) {
        DraftTree.Node x = members.get(i);
        parentIds[i] = size[assignment[i]] == 1 ? x.id : x.parent.id;
      }
      out.add(new HierarchyState.Level(TreeBuilder.ids(members), centroids, parentIds, dense(assignment),
          knn.offsets(), knn.neighbors(), knn.weights(), resolution));
      members = nextMembers;
    }
    DraftTree.Node root = members.get(0);
    if (root.parent != null) {
      root.parent.children.remove(root);
      root.parent.structural = true;
      root.parent = null;
    }
    draft.pruneEmpty();
    return new Outcome(out, dirty, reclustered, rows, false);
  }

  /** Renumbers communities densely in order of first appearance. */
  private static int[] dense(int[] assignment) {
    Map<Integer, Integer> map = new HashMap<>();
    int[] out = new int[assignment.length];
    for (int i = 0; i < assignment.length; i++) {
      out[i] = map.computeIfAbsent(assignment[i], k -> map.size());
    }
    return out;
  }

  private static boolean usable(HierarchyState.Level old, int dim) {
    int n = old.size();
    return old.centroids() != null && old.centroids().length == n * dim && old.assignment() != null
        && old.assignment().length == n && old.parentIds() != null && old.parentIds().length == n
        && old.knnOffsets() != null && old.knnOffsets().length == n + 1 && old.knnNeighbors() != null;
  }

  private static boolean sameMembers(HierarchyState.Level old, List<DraftTree.Node> members, float[] centroids) {
    if (old.size() != members.size()) {
      return false;
    }
    for (int i = 0; i < old.size(); i++) {
      if (!old.memberIds()[i].equals(members.get(i).id)) {
        return false;
      }
    }
    return old.centroids() != null && Arrays.equals(old.centroids(), centroids);
  }

  private static boolean rowEquals(float[] a, int i, float[] b, int j, int dim) {
    return Arrays.equals(a, i * dim, (i + 1) * dim, b, j * dim, (j + 1) * dim);
  }

  /** A patched kNN graph and how many rows were recomputed in full. */
  record KnnPatch(KnnGraph graph, int recomputed) {}

  private KnnPatch patchKnn(HierarchyState.Level old, int m, float[] centroids, boolean[] moved,
      int[] newToOld, int[] oldToNew) {
    int dim = centroids.length / Math.max(1, m);
    int k = Math.max(0, Math.min(options.k(), m - 1));
    int[] offsets = new int[m + 1];
    for (int i = 0; i <= m; i++) {
      offsets[i] = i * k;
    }
    int[] neighbors = new int[m * k];
    float[] weights = new float[m * k];
    List<Integer> movedIdx = new ArrayList<>();
    for (int i = 0; i < m; i++) {
      if (moved[i]) {
        movedIdx.add(i);
      }
    }
    int recomputed = 0;
    float[] scores = new float[Math.max(1, k)];
    for (int i = 0; i < m; i++) {
      int o = newToOld[i];
      boolean full = moved[i] || o < 0;
      if (!full) {
        int from = old.knnOffsets()[o];
        int to = old.knnOffsets()[o + 1];
        if (to - from < k) {
          full = true;
        } else {
          for (int e = from; e < to && !full; e++) {
            int ni = oldToNew[old.knnNeighbors()[e]];
            full = ni < 0 || moved[ni]; // a removed or moved neighbour
          }
        }
      }
      if (full) {
        int[] idx = ExactKnn.query(centroids, m, dim, Vectors.row(centroids, i, dim), k, i, scores);
        System.arraycopy(idx, 0, neighbors, i * k, idx.length);
        System.arraycopy(scores, 0, weights, i * k, idx.length);
        recomputed++;
        continue;
      }
      // Keep the old row (translated to new indexes) and let moved members compete with it.
      ExactKnn.TopK top = new ExactKnn.TopK(k);
      int from = old.knnOffsets()[o];
      for (int e = from; e < from + k; e++) {
        top.insert(old.knnWeights()[e], oldToNew[old.knnNeighbors()[e]]);
      }
      for (int j : movedIdx) {
        if (j != i) {
          float s = Vectors.dot(centroids, i * dim, centroids, j * dim, dim);
          if (top.accepts(s, j)) {
            top.insert(s, j);
          }
        }
      }
      top.writeSorted(neighbors, weights, i * k);
    }
    return new KnnPatch(new KnnGraph(offsets, neighbors, weights), recomputed);
  }

  /**
   * Leiden on the subgraph induced by {@code pool}, at the level's recorded CPM resolution when there is
   * one: CPM is resolution-limit-free (Traag, Van Dooren and Nesterov, Phys. Rev. E 84, 016114, 2011), so
   * optimising it on a subgraph at the same resolution is consistent with the whole level. Without a
   * recorded resolution (the level was a root wrap) the resolution is searched for the whole level.
   * Leiden starts from the old communities (new members as singletons), as an incremental Leiden does, so
   * it only moves what the change makes worth moving.
   */
  private LeidenClustering.Result clusterLocal(KnnGraph knn, List<Integer> pool, double resolution,
      int[] initial) {
    int n = pool.size();
    if (n <= 1) {
      return new LeidenClustering.Result(new int[n], n, resolution, 0);
    }
    int[] local = new int[knn.size()];
    Arrays.fill(local, -1);
    for (int p = 0; p < n; p++) {
      local[pool.get(p)] = p;
    }
    int[] offsets = new int[n + 1];
    List<Integer> nb = new ArrayList<>();
    List<Float> w = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      int i = pool.get(p);
      for (int e = knn.offsets()[i]; e < knn.offsets()[i + 1]; e++) {
        int j = local[knn.neighbors()[e]];
        if (j >= 0) {
          nb.add(j);
          w.add(knn.weights()[e]);
        }
      }
      offsets[p + 1] = nb.size();
    }
    int[] nbs = nb.stream().mapToInt(Integer::intValue).toArray();
    float[] ws = new float[w.size()];
    for (int e = 0; e < ws.length; e++) {
      ws[e] = w.get(e);
    }
    KnnGraph sub = new KnnGraph(offsets, nbs, ws);
    if (Double.isNaN(resolution)) {
      return leiden.cluster(sub);
    }
    LeidenClustering.Result r = leiden.improve(LeidenClustering.network(sub), resolution, initial);
    return new LeidenClustering.Result(dense(r.assignment()), r.communities(), resolution, r.quality());
  }

  /**
   * Gives every community of >= 2 members a parent, preserving old parents: an unchanged community keeps
   * its parent; a changed one reuses the old parent it overlaps most; otherwise a new node. Singletons are
   * carried forward (detached from a parent they had at this level). Returns the next level's members in
   * the oracle's order where they existed, new ones after.
   */
  private List<DraftTree.Node> regroup(DraftTree draft, List<DraftTree.Node> members, int[] newToOld,
      int[] assignment, HierarchyState.Level old, Map<String, DraftTree.Node> byId, int parentLevel,
      TreeBuilder.IdSource ids, HierarchyState.Level nextOld) {
    int m = members.size();
    // The parent each member had at this level (null when new or carried).
    DraftTree.Node[] oldParent = new DraftTree.Node[m];
    for (int i = 0; i < m; i++) {
      int o = newToOld[i];
      if (o >= 0 && !old.parentIds()[o].equals(old.memberIds()[o])) {
        oldParent[i] = byId.get(old.parentIds()[o]);
      }
    }
    Map<Integer, List<Integer>> communities = new LinkedHashMap<>();
    for (int i = 0; i < m; i++) {
      communities.computeIfAbsent(assignment[i], k -> new ArrayList<>()).add(i);
    }
    Set<DraftTree.Node> claimed = new HashSet<>();
    List<DraftTree.Node> parents = new ArrayList<>();
    // Communities in order of size, largest first, so the biggest overlap claims an old parent first.
    List<List<Integer>> order = new ArrayList<>(communities.values());
    order.sort((a, b) -> Integer.compare(b.size(), a.size()));
    for (List<Integer> comm : order) {
      if (comm.size() == 1) {
        int i = comm.get(0);
        DraftTree.Node x = members.get(i);
        if (oldParent[i] != null && x.parent == oldParent[i]) {
          x.parent.children.remove(x);
          x.parent.structural = true;
          x.parent = null;
        }
        continue;
      }
      Map<DraftTree.Node, Integer> overlap = new HashMap<>();
      for (int i : comm) {
        if (oldParent[i] != null) {
          overlap.merge(oldParent[i], 1, Integer::sum);
        }
      }
      DraftTree.Node parent = null;
      int best = 0;
      for (Map.Entry<DraftTree.Node, Integer> e : overlap.entrySet()) {
        DraftTree.Node cand = e.getKey();
        if (!claimed.contains(cand) && (e.getValue() > best
            || (e.getValue() == best && parent != null && cand.id.compareTo(parent.id) < 0))) {
          best = e.getValue();
          parent = cand;
        }
      }
      if (parent == null) {
        parent = draft.addInternal(ids.next(), parentLevel);
        byId.put(parent.id, parent);
      }
      claimed.add(parent);
      Set<DraftTree.Node> want = new HashSet<>();
      for (int i : comm) {
        want.add(members.get(i));
      }
      if (!want.equals(new HashSet<>(parent.children))) {
        parent.structural = true;
        // Release children that no longer belong here.
        for (DraftTree.Node c : new ArrayList<>(parent.children)) {
          if (!want.contains(c)) {
            c.parent = null;
            parent.children.remove(c);
          }
        }
        for (DraftTree.Node c : want) {
          if (c.parent != parent) {
            DraftTree.attach(c, parent);
          }
        }
      }
      float[] sum = draft.canonicalSum(parent);
      if (!Arrays.equals(sum, parent.sum)) {
        parent.sum = sum;
        parent.centroidChanged = true;
      }
      parents.add(parent);
    }
    // Old parents of this level that no community claimed lose their children (then get pruned).
    for (int i = 0; i < m; i++) {
      DraftTree.Node p = oldParent[i];
      if (p != null && !claimed.contains(p)) {
        for (DraftTree.Node c : new ArrayList<>(p.children)) {
          c.parent = null;
        }
        p.children.clear();
      }
    }
    // Next level's members: carried singletons and parents, in the oracle's order, new ones after.
    Set<DraftTree.Node> nextSet = new java.util.LinkedHashSet<>();
    for (List<Integer> comm : communities.values()) {
      if (comm.size() == 1) {
        nextSet.add(members.get(comm.get(0)));
      }
    }
    nextSet.addAll(parents);
    List<DraftTree.Node> next = new ArrayList<>();
    if (nextOld != null) {
      for (String id : nextOld.memberIds()) {
        DraftTree.Node n = byId.get(id);
        if (n != null && nextSet.remove(n)) {
          next.add(n);
        }
      }
    }
    List<DraftTree.Node> rest = new ArrayList<>(nextSet);
    rest.sort((a, b) -> Long.compare(a.order, b.order));
    next.addAll(rest);
    return next;
  }
}

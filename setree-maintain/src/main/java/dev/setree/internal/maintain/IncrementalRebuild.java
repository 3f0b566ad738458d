package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.KnnRows;
import dev.setree.internal.core.Vectors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
 *       a moved member whose kNN row now lists other members (a member that only moved a little keeps its
 *       neighbours, and its community is left alone); a new member joins the community of its nearest
 *       neighbour, which is then affected.
 *       Leiden runs again only on the subgraph induced by the affected communities' members, and moves old
 *       members only for a gain in quality above a margin (docs/adr/0047-re-clustering-margin.md).
 *   <li><b>Parent preservation.</b> An unaffected community keeps its parent node, id and summary: no
 *       summariser work. A re-formed community reuses the id of the old parent it overlaps most (its summary
 *       is rewritten when its members changed); only genuinely new communities get new nodes.
 * </ol>
 * Levels beyond the oracle, or a level whose oracle entry is inconsistent, are clustered from scratch.
 */
final class IncrementalRebuild {
  private final BuildOptions options;
  private final LeidenClustering leiden;

  /**
   * The fewest members of an exact level whose kNN patch scans it in integers first ({@link IntegerRows}): a float
   * scan of 1,024 members of 384 dimensions takes about 0.2 ms.
   */
  static final int INTEGER_ROWS_MIN = 1024;

  /** The fewest members of an exact level scanned in integers first. */
  private final int integerRowsMin;

  private final double margin; // the least gain in quality that moves old members (KeptCommunities.MARGIN)

  /** A rebuild scanning exact levels of {@code integerRowsMin} members or more in integers first. */
  IncrementalRebuild(BuildOptions options, int integerRowsMin, double margin) {
    this.options = options;
    this.integerRowsMin = integerRowsMin;
    this.margin = margin;
    this.leiden = new LeidenClustering(options.targetArity(), options.seed());
  }

  /** What the rebuild did, for statistics and tests. */
  record Outcome(List<HierarchyState.Level> levels, int dirtyLevels, int reclusteredMembers,
      int rowsRecomputed, boolean cleanSkip) {}

  /**
   * Rebuilds {@code draft}'s internal structure for its current leaves (new leaves have no parent, removed
   * leaves are gone; their old parents still hold their other children). Level by level from the leaves up,
   * the steps of the class comment: a clean level ends the rebuild ({@link #keepOracleFrom}); a level beyond
   * the oracle is clustered from scratch ({@link #clusterFromScratch}); any other level is matched to the
   * oracle's ({@link LevelMatch#of}), its kNN graph patched ({@link KnnPatch#patch}), its affected communities
   * found ({@link AffectedCommunities}) and re-clustered ({@link #recluster}), and its parents preserved
   * ({@link ParentPreservation#regroup}). With {@code nearest}, a level's kNN graph, when it is approximate (more
   * members than {@link BuildOptions#exactKnnLimit()}) and {@code nearest} knows the level, is patched from the
   * old members nearest each moved member instead of scans of the level.
   *
   * @param nearest the indexes of the oracle's members nearest a unit vector (level 0's, and those of the levels it
   *     knows), or null
   * @param cancelled checked before each level: the rebuild is given up once it says so ({@link Maintainer#stopIf})
   * @param steps ends, for each level {@code i} rebuilt incrementally, steps {@code level i match} (its centroid
   *     rows, the clean check, the match to the oracle's members), {@code level i kNN} (the patch),
   *     {@code level i clusters} (the affected communities re-clustered) and {@code level i parents} (parent
   *     preservation and the level's record)
   */
  Outcome run(DraftTree draft, HierarchyState oracle, TreeBuilder.IdSource ids, NearAncestors nearest,
      java.util.function.BooleanSupplier cancelled, RunSteps steps) {
    Progress progress = new Progress();
    Map<String, DraftNode> byId = draft.byId;
    List<DraftNode> members = new ArrayList<>(draft.leaves);
    NextMembers.Listed listed = null; // how the last level's regroup listed this level's members
    for (int lvl = 0; members.size() > 1; lvl++) {
      Maintainer.stopIf(cancelled);
      HierarchyState.Level old = lvl < oracle.levels().size() ? oracle.levels().get(lvl) : null;
      // Level 0's members are the draft's leaves in order (copied above): their rows, without checking each
      // member (a loop over every leaf that the first run after open executes before it is compiled). Higher
      // levels read only the rows their record does not vouch for (RecordedRows).
      RecordedRows.Matched upper = lvl > 0 && old != null && usable(old, draft.dim)
          ? RecordedRows.match(old, members, draft.dim, draft.records.rows(lvl),
              listed != null && listed.of() == old ? listed : null) : null;
      float[] centroids = upper != null ? upper.rows()
          : lvl == 0 ? draft.leafRows() : TreeBuilder.centroids(draft, members);
      if (upper != null ? upper.same() : old != null && sameMembers(old, members, centroids, draft.dim)) {
        return keepOracleFrom(oracle, lvl, progress);
      }
      progress.dirty++;
      if (old == null || !usable(old, draft.dim)) {
        return clusterFromScratch(draft, members, lvl, ids, progress);
      }
      // Level 0's leading rows that extend the old level's own array need no comparing.
      int shared = lvl == 0 && centroids == draft.leafRows() ? draft.sharedLeafRows(old.centroids(), old.size()) : 0;
      LevelMatch match = upper != null ? upper.match() : LevelMatch.of(old, members, centroids, draft.dim, shared);
      steps.end("level " + lvl + " match");
      boolean exact = old.size() <= options.exactKnnLimit() && members.size() <= options.exactKnnLimit();
      java.util.function.IntFunction<int[]> near = null;
      if (!exact && nearest != null && nearest.knows(lvl)) {
        float[] c0 = centroids;
        int[] oldToNew = match.oldToNew();
        int level = lvl;
        near = j -> {
          int[] found = nearest.of(Vectors.row(c0, j, draft.dim), level);
          int[] now = new int[found.length];
          for (int x = 0; x < found.length; x++) {
            now[x] = found[x] >= 0 && found[x] < oldToNew.length ? oldToNew[found[x]] : -1;
          }
          return now;
        };
      }
      // An exact level large enough for its scans to cost is scanned in integers first.
      IntegerRows integers = exact && members.size() >= integerRowsMin
          ? IntegerRows.follow(draft.records.integers(lvl), old.centroids(), centroids, members.size(), draft.dim,
              match.newToOld(), match.moved())
          : null;
      draft.records.keepIntegers(lvl, integers);
      KnnPatch patch = !exact && near != null
          ? NearestMemberPatch.patch(old, members.size(), centroids, draft.dim, match.moved(), match.newToOld(),
              match.oldToNew(), options.k(), near, true, match.inPlace(),
              draft.records.sortedRows(lvl))
          : KnnPatch.patch(old, members.size(), centroids, draft.dim, match.moved(), match.newToOld(),
              match.oldToNew(), options.k(), exact, near, integers);
      progress.rows += patch.recomputed();
      steps.end("level " + lvl + " kNN");
      KnnRows knn = patch.rows();
      AffectedCommunities affected = AffectedCommunities.of(old, match, knn, patch.touched());
      Clustering clustering = recluster(old, affected, knn, members.size() <= TreeBuilder.rootArity(options));
      progress.reclustered += clustering.reclustered;
      int[] assignment = clustering.assignment;
      steps.end("level " + lvl + " clusters");
      String[] parentIds = new String[members.size()];
      HierarchyState.Level nextOld = oracle.levels().size() > lvl + 1 ? oracle.levels().get(lvl + 1) : null;
      CommunityParents made = CommunityParents.toFill(clustering.numbered, clustering.count);
      listed = ParentPreservation.regroup(draft, members, match,
          upper == null ? null : upper.reread(), affected.oldCommunityOf(), assignment,
          Communities.ofNumbered(clustering.numbered, clustering.count), clustering.unaffected, old, byId, lvl + 1,
          ids, nextOld, parentIds, made);
      draft.records.keepParents(lvl, made);
      String[] memberIds = LevelMatch.memberIds(old, members, match);
      HierarchyState.Level level = new HierarchyState.Level(memberIds, centroids, carriedAlone(parentIds, memberIds),
          clustering.numbered, knn, clustering.resolution);
      level.rememberCommunityCount(clustering.count); // the next run's count of the old level's communities
      ParentPreservation.carryDerived(old, level); // the save then checks no member for it
      int[] movedRows = match.movedInPlace(old.size()); // the rows the save's plan compares, when all kept in place
      progress.levels.add(movedRows == null ? level : level.withChangesSince(old, movedRows, patch.touched()));
      draft.records.keepRows(lvl, upper == null ? null : upper.record()); // centroids is the record's array
      members = listed.members();
      steps.end("level " + lvl + " parents");
    }
    detach(members.get(0));
    draft.pruneEmpty();
    return progress.outcome(false);
  }

  /** The levels recorded so far and the counts of what the rebuild did. */
  private static final class Progress {
    final List<HierarchyState.Level> levels = new ArrayList<>();
    int dirty;
    int reclustered;
    int rows;

    Outcome outcome(boolean cleanSkip) {
      return new Outcome(levels, dirty, reclustered, rows, cleanSkip);
    }
  }

  /** Clean check: level {@code lvl} and every level above are the oracle's, unchanged. */
  private static Outcome keepOracleFrom(HierarchyState oracle, int lvl, Progress progress) {
    progress.levels.addAll(oracle.levels().subList(lvl, oracle.levels().size()));
    return progress.outcome(lvl == 0);
  }

  /** Beyond the oracle: cluster from scratch, detaching the members from stale parents. */
  private Outcome clusterFromScratch(DraftTree draft, List<DraftNode> members, int lvl,
      TreeBuilder.IdSource ids, Progress progress) {
    for (DraftNode m : members) {
      detach(m);
    }
    long[] knnNanos = new long[1];
    progress.levels.addAll(
        TreeBuilder.clusterFrom(draft, members, lvl, ids, options, knnNanos, BuildProgress.NONE));
    progress.reclustered += members.size();
    draft.pruneEmpty();
    return progress.outcome(false);
  }

  /** Takes {@code node} out of its parent, if it has one, marking the parent structurally changed. */
  private static void detach(DraftNode node) {
    if (node.parent != null) {
      node.parent.children.remove(node);
      node.parent.structural = true;
      node.parent.touch();
      node.parent = null;
      node.touch();
    }
  }

  /**
   * A level's new communities, the CPM resolution they were found at (NaN: none), how many members moved, and
   * below which assignment the communities are old ones left alone, each with all of its members that stayed
   * (0: none); and the same communities numbered densely in order of first appearance ({@code numbered}, the
   * level's record), {@code count} of them.
   */
  private record Clustering(int[] assignment, double resolution, int reclustered, int unaffected, int[] numbered,
      int count) {}

  /**
   * Re-clusters the affected part of a level: unaffected communities keep their assignment, Leiden runs on
   * the members of the affected ones ({@link #clusterLocal}) at the level's recorded resolution, starting
   * from their old communities. When the affected part is most of the level (small upper levels) the whole
   * level is improved so, and re-clustered with a fresh resolution search, as a full build would, only when
   * that leaves the level's number of communities off its target by more than a quarter
   * ({@link LeidenClustering#nearTarget}): the recorded resolution was fitted to other members, but a
   * search re-forms most of a level for one new member (and rewrites the summaries of its largest nodes).
   * With {@code wrap} (few enough members to be the root's children) the level is one community.
   */
  private Clustering recluster(HierarchyState.Level old, AffectedCommunities affected, KnnRows knn,
      boolean wrap) {
    int[] oldCommunityOf = affected.oldCommunityOf();
    boolean[] isAffected = affected.affected(); // read in place: a call per member costs a first run, interpreted
    int m = oldCommunityOf.length;
    int[] assignment = new int[m];
    int next = 0;
    // Unaffected communities keep their members, numbered in order of their first member.
    int[] number = new int[isAffected.length];
    if (!wrap) {
      for (int c : affected.order()) {
        if (!isAffected[c]) {
          number[c] = next++;
        }
      }
    }
    // One pass over the members (a first run interprets it): the pool (new members and those of affected
    // communities, or every member to wrap) and the numbers of the others.
    List<Integer> pool = new ArrayList<>();
    for (int i = 0; i < m; i++) {
      int c = oldCommunityOf[i];
      if (wrap || c < 0 || isAffected[c]) {
        pool.add(i);
      } else {
        assignment[i] = number[c];
      }
    }
    boolean whole = wrap || 2 * pool.size() > m;
    if (whole && !wrap) { // every member re-clustered: none keeps an unaffected community's number
      pool.clear();
      affected.affectAll();
      for (int i = 0; i < m; i++) {
        pool.add(i);
      }
      next = 0;
    }
    double resolution = Double.NaN;
    int[] local;
    if (wrap) {
      local = new int[pool.size()];
    } else {
      int[] initial = new int[pool.size()];
      int firstNew = initialCommunities(pool, oldCommunityOf, initial);
      LeidenClustering.Result res = clusterLocal(knn, pool, old.resolution(), initial, firstNew); // NaN: a search
      if (whole && !Double.isNaN(old.resolution()) && !leiden.nearTarget(res.communities(), m)) {
        res = clusterLocal(knn, pool, Double.NaN, initial, firstNew);
      }
      local = res.assignment();
      resolution = res.resolution();
    }
    for (int p = 0; p < pool.size(); p++) {
      assignment[pool.get(p)] = next + local[p];
    }
    int unaffected = next;
    int[] numbered = new int[m];
    int count = Communities.firstAppearance(assignment, numbered, next + pool.size()); // labels below that
    if (count == m) { // no community of two members or more (TreeBuilder.mergesAnything), m > 1
      Arrays.fill(assignment, 0);
      Arrays.fill(numbered, 0);
      count = 1;
      resolution = Double.NaN;
      unaffected = 0;
    }
    return new Clustering(assignment, resolution, pool.size(), unaffected, numbered, count);
  }

  /**
   * Leiden's start for {@code pool}, written into {@code initial}: old communities, densely numbered, then new
   * members alone. Returns the first new member's number.
   */
  private static int initialCommunities(List<Integer> pool, int[] oldCommunityOf, int[] initial) {
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
    return dense.size();
  }

  /**
   * Each member's parent id at this level, from the ids parent preservation gave ({@code parentIds}, null for a
   * member carried up alone): its own id when it is carried up alone. Fills and returns {@code parentIds}.
   */
  private static String[] carriedAlone(String[] parentIds, String[] memberIds) {
    for (int i = 0; i < parentIds.length; i++) {
      if (parentIds[i] == null) {
        parentIds[i] = memberIds[i];
      }
    }
    return parentIds;
  }

  private static boolean usable(HierarchyState.Level old, int dim) {
    int n = old.size();
    return old.centroids() != null && old.centroids().length >= n * dim && old.assignment() != null
        && old.assignment().length == n && old.parentIds() != null && old.parentIds().length == n
        && old.knn() != null && old.knn().size() == n;
  }

  private static boolean sameMembers(HierarchyState.Level old, List<DraftNode> members, float[] centroids,
      int dim) {
    if (old.size() != members.size()) {
      return false;
    }
    for (int i = 0; i < old.size(); i++) {
      if (!old.memberIds()[i].equals(members.get(i).id)) {
        return false;
      }
    }
    int length = members.size() * dim; // either array may hold spare rows beyond (LeafRows)
    return old.centroids() != null && old.centroids().length >= length
        && Arrays.equals(old.centroids(), 0, length, centroids, 0, length);
  }

  /**
   * Leiden on the subgraph induced by {@code pool}, at the level's recorded CPM resolution when there is
   * one: CPM is resolution-limit-free (Traag, Van Dooren and Nesterov, Phys. Rev. E 84, 016114, 2011), so
   * optimising it on a subgraph at the same resolution is consistent with the whole level. Without a
   * recorded resolution (the level was a root wrap) the resolution is searched for the whole level.
   * Leiden starts from the old communities (new members as singletons), as an incremental Leiden does, so
   * it only moves what the change makes worth moving; and it moves old members only for a gain above the
   * {@link #margin} ({@link KeptCommunities}, ADR 0047). {@code pool} is in ascending order.
   */
  private LeidenClustering.Result clusterLocal(KnnRows knn, List<Integer> pool, double resolution,
      int[] initial, int firstNew) {
    int n = pool.size();
    if (n <= 1) {
      return new LeidenClustering.Result(new int[n], n, resolution, 0);
    }
    LocalIndex local = LocalIndex.of(pool, knn.size());
    int[] offsets = new int[n + 1];
    int edges = 0;
    for (int i : pool) {
      edges += knn.end(i) - knn.start(i);
    }
    int[] nb = new int[edges]; // the pool's edges within the pool, row after row
    float[] w = new float[edges];
    for (int p = 0, kept = 0; p < n; offsets[++p] = kept) {
      int i = pool.get(p);
      for (int e = knn.start(i), end = knn.end(i); e < end; e++) {
        int j = local.of(knn.neighbourPage(i)[e]);
        if (j >= 0) {
          nb[kept] = j;
          w[kept++] = knn.weightPage(i)[e];
        }
      }
    }
    KnnGraph sub = new KnnGraph(offsets, Arrays.copyOf(nb, offsets[n]), Arrays.copyOf(w, offsets[n]));
    if (Double.isNaN(resolution)) {
      return leiden.cluster(sub);
    }
    LeidenClustering.Result r = leiden.improve(LeidenClustering.network(sub), resolution, initial, firstNew,
        margin);
    return new LeidenClustering.Result(Communities.firstAppearance(r.assignment()), r.communities(), resolution,
        r.quality());
  }
}

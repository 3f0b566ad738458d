package dev.setree.internal.maintain;

import dev.setree.spi.Embedder;
import dev.setree.spi.Fact;
import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.LeafNeighbours;
import dev.setree.spi.Summarizer;
import dev.setree.spi.TokenCounter;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeChanges;
import dev.setree.internal.core.TreeStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * One maintenance run ({@code maintenanceRun}): applies a batch of pending mutations to a snapshot and
 * produces the next snapshot and oracle. Pure with respect to storage: the caller saves the result and
 * clears the applied mutations in one transaction.
 *
 * <p>Paths: no leaf change, or a level-0 clean skip, keeps the tree; a knowledge base going to 0 or 1
 * leaves gets the empty tree or a one-leaf tree under an internal root; an empty or unusable oracle, or a
 * tree that had fewer than two leaves, falls back to a full build over the (already embedded) leaves;
 * otherwise the {@link IncrementalRebuild}. Then the {@link SummaryPass} writes the summaries of changed
 * nodes and re-summarises nodes on changed paths whose faithfulness fell below the threshold.
 *
 * <p>Mutation semantics, in sequence order: an insert of an id already present, or a delete of an unknown
 * id, is skipped and counted (the facade refuses both when they are submitted; they can only come from a
 * race or a hand-edited file). An insert followed by a delete of the same id cancels out.
 */
public final class Maintainer {
  private final Embedder embedder;
  private final TokenCounter counter;
  private final Summarizer summarizer;
  private final BuildOptions options;
  private final int faithfulnessThreshold;
  /** The last run's draft, continued by a run over the tree it produced (tests reach it: {@link KeptDraft#everyNode}). */
  final KeptDraft kept = new KeptDraft();
  /**
   * The tree and oracle this maintainer's last run that made a tree made, or that it prepared a draft for and found
   * to match ({@link #prepare}), and a number no internal id of that tree exceeds; null before. A run over them
   * skips two passes over every node: the check that the oracle's level 0 lists the tree's leaves, and the search
   * for the highest internal id.
   */
  private volatile Made made;

  /** See {@link #made}. */
  private record Made(Tree tree, HierarchyState oracle, long idBound) {}

  /** The fewest members of an exact level scanned in integers first ({@link IntegerRows}). */
  private int integerRowsMin = IncrementalRebuild.INTEGER_ROWS_MIN;
  private double reclusterMargin = KeptCommunities.margin(); // ADR 0047
  private int nearLevels = Integer.MAX_VALUE;

  /**
   * @param faithfulnessThreshold nodes on a changed path whose faithfulness is below it are re-summarised
   */
  public Maintainer(Embedder embedder, TokenCounter counter, Summarizer summarizer, BuildOptions options,
      int faithfulnessThreshold) {
    this.embedder = embedder;
    this.counter = counter;
    this.summarizer = summarizer;
    this.options = options;
    this.faithfulnessThreshold = faithfulnessThreshold;
  }

  /**
   * Scans in integers first every exact level of at least {@code members} members, instead of
   * {@link IncrementalRebuild#INTEGER_ROWS_MIN}: for tests, on levels small enough to build quickly. Returns this.
   */
  Maintainer integerRowsFrom(int members) {
    this.integerRowsMin = members;
    return this;
  }

  /** Re-clusters with another margin ({@link KeptCommunities#MARGIN}); for tests. Returns this. */
  Maintainer reclusterMargin(double margin) {
    this.reclusterMargin = margin;
    return this;
  }

  /** Patches from near members only approximate levels below {@code levels} ({@link NearAncestors}); for tests. */
  Maintainer nearMembersBelow(int levels) {
    this.nearLevels = levels;
    return this;
  }

  /**
   * What a run produced.
   *
   * @param tree the next snapshot
   * @param hierarchy the next oracle
   * @param path {@code unchanged}, {@code clean-skip}, {@code incremental}, {@code full}, {@code single} or
   *     {@code empty}
   * @param inserted leaves added
   * @param deleted leaves removed
   * @param skipped mutations skipped (duplicate insert or unknown delete)
   * @param dirtyLevels levels the incremental rebuild found dirty
   * @param reclusteredMembers members Leiden ran on again
   * @param summarized summaries written
   * @param nanos wall time
   * @param stepNanos the time of each step, in the order they ran ({@link RunSteps}): {@code embed}, {@code draft}
   *     (the copy of the tree or the kept draft settled, and the mutations applied to it), {@code check} (the id
   *     source, and the oracle's level 0 checked against the tree); then per level {@code i} rebuilt
   *     {@code level i match}, {@code level i kNN}, {@code level i clusters}, {@code level i parents}
   *     ({@link IncrementalRebuild#run}), and {@code rebuild} (what follows the last level rebuilt); a full
   *     clustering's {@code clustering}, a one-leaf tree's {@code rebuild}; then {@code sums}, {@code summaries},
   *     {@code freeze}. Empty when nothing changed
   * @param changes the run's change log from the tree it was given to {@code tree} (ADR 0034), for the save; null
   *     when unknown (the save then compares every row)
   */
  public record Result(Tree tree, HierarchyState hierarchy, String path, int inserted, int deleted, int skipped,
      int dirtyLevels, int reclusteredMembers, int summarized, long nanos, Map<String, Long> stepNanos,
      TreeChanges changes) {

    /**
     * This run followed by {@code later}, a run over this one's tree: later's tree, oracle and path (this one's
     * when later changed nothing), the counts and times added up, the most dirty levels of either, and both
     * change logs.
     */
    public Result then(Result later) {
      return new Result(later.tree, later.hierarchy, later.path.equals("unchanged") ? path : later.path,
          inserted + later.inserted, deleted + later.deleted, skipped + later.skipped,
          Math.max(dirtyLevels, later.dirtyLevels), reclusteredMembers + later.reclusteredMembers,
          summarized + later.summarized, nanos + later.nanos, RunSteps.then(stepNanos, later.stepNanos),
          TreeChanges.then(changes, tree, later.changes));
    }
  }

  /** The nearest old leaves a large level's kNN patch considers per moved member, and the search's beam. */
  static final int NEAR_LEAVES = 64;
  static final int NEAR_BEAM = 128;

  /** Applies {@code mutations} (in sequence order) to {@code tree} with its {@code oracle}. */
  public Result run(Tree tree, HierarchyState oracle, List<TreeStore.Mutation> mutations) {
    return run(tree, oracle, mutations, null);
  }

  /**
   * As {@link #run(Tree, HierarchyState, List)}, with the nearest-leaf index of {@code tree} (or null): a level
   * whose kNN graph is approximate (more members than the exact kNN limit) is then patched from each moved
   * member's near members, the members holding its {@value #NEAR_LEAVES} nearest old leaves found by the index,
   * instead of scans of the level. The index is asked for only then.
   */
  public Result run(Tree tree, HierarchyState oracle, List<TreeStore.Mutation> mutations,
      java.util.function.Supplier<LeafNeighbours> nearest) {
    return run(tree, oracle, mutations, nearest, () -> false);
  }

  /**
   * As {@link #run(Tree, HierarchyState, List, java.util.function.Supplier)}, given up between its steps (the
   * copy, the embedding, each level of the rebuild, the summaries) once {@code cancelled} says so: for a run
   * computed ahead that nobody will save, such as one under way when its knowledge base is closed.
   *
   * @throws CancellationException when {@code cancelled} said so; the run leaves nothing behind
   */
  public Result run(Tree tree, HierarchyState oracle, List<TreeStore.Mutation> mutations,
      java.util.function.Supplier<LeafNeighbours> nearest, BooleanSupplier cancelled) {
    long t0 = System.nanoTime();
    RunSteps steps = new RunSteps();
    Map<String, Fact> inserts = new LinkedHashMap<>();
    Set<String> deletes = new HashSet<>();
    int skipped = 0;
    for (TreeStore.Mutation mu : mutations) {
      String id = mu.leafId();
      if (mu.kind() == TreeStore.Mutation.Kind.INSERT) {
        boolean exists = (isLeaf(tree, id) && !deletes.contains(id)) || inserts.containsKey(id);
        if (exists || id.startsWith(TreeBuilder.INTERNAL_ID_PREFIX)) {
          skipped++;
        } else {
          inserts.put(id, new Fact(id, mu.text(), mu.time()));
        }
      } else if (inserts.remove(id) == null) {
        if (isLeaf(tree, id) && deletes.add(id)) {
          continue;
        }
        skipped++;
      }
    }
    if (inserts.isEmpty() && deletes.isEmpty()) {
      return new Result(tree, oracle, "unchanged", 0, 0, skipped, 0, 0, 0, System.nanoTime() - t0, Map.of(),
          TreeChanges.none(tree));
    }
    List<Fact> newFacts = new ArrayList<>(inserts.values());
    float[][] emb = TreeBuilder.embed(embedder, newFacts, BuildProgress.NONE);
    steps.end("embed");
    stopIf(cancelled);
    DraftTree draft = kept.take(tree);
    stopIf(cancelled);
    draft.removeLeaves(deletes); // their old parents lose a child
    if (!deletes.isEmpty()) {
      draft.touched.touchAll(); // every node's quoted leaves are filtered
      for (DraftNode n : draft.internal) {
        n.sources = n.sources.stream().filter(s -> !deletes.contains(s.id)).toList();
      }
    }
    for (int i = 0; i < newFacts.size(); i++) {
      Fact f = newFacts.get(i);
      draft.addLeaf(f.id(), f.text(), f.time(), emb[i], counter.count(f.text()));
    }
    steps.end("draft");
    Made last = made;
    boolean ours = last != null && last.tree() == tree && last.oracle() == oracle;
    TreeBuilder.IdSource ids = ours ? TreeBuilder.IdSource.afterAtMost(tree, last.idBound())
        : TreeBuilder.IdSource.after(tree);
    String path;
    HierarchyState next;
    int dirty = 0;
    int reclustered = 0;
    int leaves = draft.leaves.size();
    // A tree and oracle this maintainer made together match by construction (checked under assertions).
    assert !ours || oracle.isEmpty() || oracleMatches(tree, oracle) : "a run's own tree and oracle do not match";
    boolean incremental = leaves > 1 && tree.leafCount() >= 2 && !oracle.isEmpty()
        && (ours || oracleMatches(tree, oracle));
    steps.end("check");
    if (leaves == 0) {
      return new Result(Tree.empty(tree.isEmpty() ? embedder.dimension() : tree.dimension()),
          HierarchyState.empty(), "empty", inserts.size(), deletes.size(), skipped, 0, 0, 0,
          System.nanoTime() - t0, steps.nanos(), null);
    } else if (leaves == 1) {
      next = single(draft, ids);
      path = "single";
      steps.end("rebuild");
    } else if (!incremental) {
      draft.touched.touchAll(); // every node is made again
      for (DraftNode l : draft.leaves) {
        l.parent = null;
      }
      for (DraftNode n : draft.internal) {
        draft.byId.remove(n.id);
      }
      draft.internal.clear();
      long[] knnNanos = new long[1];
      next = new HierarchyState(List.copyOf(TreeBuilder.cluster(draft, new ArrayList<>(draft.leaves), ids,
          options, knnNanos, BuildProgress.NONE)));
      path = "full";
      reclustered = leaves;
      steps.end("clustering");
    } else {
      IncrementalRebuild.Outcome o = new IncrementalRebuild(options, integerRowsMin, reclusterMargin).run(draft,
          oracle, ids, nearestMembers(tree, oracle, nearest), cancelled, steps);
      next = new HierarchyState(List.copyOf(o.levels()));
      steps.end("rebuild"); // what followed the last level rebuilt: a clean check, a new level, the root
      path = o.cleanSkip() ? "clean-skip" : "incremental";
      dirty = o.dirtyLevels();
      reclustered = o.reclusteredMembers();
    }
    draft.records.keepOnlyOf(next.levels());
    stopIf(cancelled);
    draft.recomputeSums();
    steps.end("sums");
    SummaryPass.Result sr = new SummaryPass(embedder, counter, summarizer, options)
        .run(draft, faithfulnessThreshold, BuildProgress.NONE);
    stopIf(cancelled);
    steps.end("summaries");
    Tree frozen = draft.toTree();
    kept.keep(draft, frozen);
    steps.end("freeze");
    made = new Made(frozen, next, ids.peek() - 1);
    return new Result(frozen, next, path, inserts.size(), deletes.size(), skipped, dirty, reclustered,
        sr.summarized(), System.nanoTime() - t0, steps.nanos(), draft.changes());
  }

  /** Throws {@link CancellationException} once {@code cancelled} says so. */
  static void stopIf(BooleanSupplier cancelled) {
    if (cancelled.getAsBoolean()) {
      throw new CancellationException("the maintenance run was given up");
    }
  }

  /** A one-leaf tree: the leaf under an internal root (the old root's id is kept when there was one). */
  private HierarchyState single(DraftTree draft, TreeBuilder.IdSource ids) {
    DraftNode leaf = draft.leaves.get(0);
    draft.touched.touchAll(); // one leaf under one root: every other node goes
    DraftNode root = draft.root();
    if (root == null || root.leaf) {
      root = draft.addInternal(ids.next(), 1);
    }
    for (DraftNode n : new ArrayList<>(draft.internal)) {
      if (n != root) {
        draft.internal.remove(n);
        draft.byId.remove(n.id);
      }
    }
    root.children.clear();
    root.parent = null;
    root.level = 1;
    root.structural = true;
    leaf.parent = null;
    DraftTree.attach(leaf, root);
    root.sum = leaf.sum().clone();
    return new HierarchyState(List.of(new HierarchyState.Level(new String[] {leaf.id}, leaf.centroid(),
        new String[] {root.id}, new int[] {0}, new int[] {0, 0}, new int[0], new float[0], Double.NaN)));
  }

  private static boolean isLeaf(Tree tree, String id) {
    int v = tree.indexOf(id);
    return v >= 0 && v < tree.leafCount();
  }

  /**
   * Copies {@code tree} into the draft a run over it will continue from, unless the last run left one: work a
   * run would do first, done ahead (on open, or while the writer waits for a quiet window). Never changes a
   * run's result. A new copy also gets the integer mirrors of {@code oracle}'s exact levels that its first run
   * will scan in integers ({@link IntegerRows}): rounding a level of 6,244 rows, and a first integer pass over it,
   * took the first run after open 20-130 ms more in the interpreter. It also gets its internal nodes' rows written
   * ({@link InternalRowStore#writeAhead}), the record of each level above the leaves ({@link RecordedRows#of}) and
   * of every level's parents ({@link CommunityParents#ofOracle}), and its summary pass's rules when no node needs a
   * summary ({@link SummaryRules#settle}), and, in a large tree, the bound on its leaves' norms that its relevance
   * memos read ({@link DraftTree#leafNormBound}): the first run then reads and looks at only what it changes, as later
   * runs do (docs/adr/0040). When {@code oracle} matches {@code tree}, the first run also skips that check and the
   * search for the highest internal id, as runs over a tree this maintainer made do ({@link #made}). Then the classes
   * of a run are loaded, once per process ({@link RunClasses}, docs/adr/0044). Given up, keeping nothing new, with a
   * {@link CancellationException} once {@code cancelled} says so.
   */
  public void prepare(Tree tree, HierarchyState oracle, BooleanSupplier cancelled) {
    // The mirrors first, before the copy: their scans' loops are compiled while the copy runs, in time for the
    // first run (made after the copy, the compiled loops came during the first run).
    IntegerRows[] mirrors = kept.holds(tree) ? null
        : IntegerRows.mirrors(oracle, tree.dimension(), integerRowsMin, options);
    kept.prepare(tree, cancelled, d -> {
      for (int lvl = 0; mirrors != null && lvl < mirrors.length; lvl++) {
        d.records.keepIntegers(lvl, mirrors[lvl]);
      }
      d.internalRows.writeAhead(d.internal);
      HierarchyState.Level l0 = oracle.isEmpty() ? null : oracle.levels().get(0);
      if (l0 != null && l0.size() > options.exactKnnLimit()) { // its rows looked at now, not in the first run
        d.records.sortedRows(0).check(l0, Math.min(options.k(), l0.size())); // a one-leaf run's k (NearestMemberPatch)
      }
      d.records.recordOracle(d, oracle, cancelled);
      SummaryRules.of(options, faithfulnessThreshold).settle(d);
      if (d.leaves.size() >= d.relevanceFrom) {
        d.leafNormBound(); // a look at every leaf, which the first summary of a large node would make (RelevanceMemo)
      }
    });
    Made last = made;
    if ((last == null || last.tree() != tree || last.oracle() != oracle) && !oracle.isEmpty()
        && oracleMatches(tree, oracle)) {
      made = new Made(tree, oracle, TreeBuilder.IdSource.after(tree).peek() - 1);
    }
    RunClasses.load();
  }

  /**
   * Has the large nodes of the draft made ahead of a run over {@code tree} ({@link #prepare}) keep the relevance memos
   * of the scans their first summaries would make ({@link RelevanceMemo#scanAhead}): what a writer does after the
   * copy it makes on open while no mutation waits, else in the first mutation's quiet window before its run. Returns
   * how many nodes it scanned: none unless such a draft is kept, and none once a call went through it. Given up
   * between two nodes once {@code stop} says so. On the thread of this maintainer's runs.
   */
  public int scanAhead(Tree tree, BooleanSupplier stop) {
    return kept.scanAhead(tree, stop);
  }

  /**
   * Tells this maintainer that {@code tree} and {@code hierarchy}, the result of its last run, are installed, and that
   * no hierarchy it made before them is read any more: its next run may write a level's rows into the arrays of those
   * (ADR 0051). Without it, no run does. On the thread of this maintainer's runs.
   */
  public void installed(Tree tree, HierarchyState hierarchy) {
    kept.installed(tree, hierarchy);
  }

  /** How many runs continued from a draft kept or prepared for them rather than a new copy (for tests). */
  public int draftsReused() {
    return kept.reused();
  }

  /** The oracle's level 0 must list exactly the old tree's leaves. */
  private static boolean oracleMatches(Tree tree, HierarchyState oracle) {
    HierarchyState.Level l0 = oracle.levels().get(0);
    if (l0.size() != tree.leafCount() || l0.centroids() == null
        || l0.centroids().length < l0.size() * tree.dimension()) {
      return false;
    }
    return tree.startsWithIds(l0.memberIds(), l0.size());
  }

  /**
   * The oracle's members nearest a vector, at any of its levels ({@link NearAncestors}), found by {@code nearest}
   * among {@code tree}'s leaves; null when there is no index of this very tree with a graph, or no level 0.
   */
  private NearAncestors nearestMembers(Tree tree, HierarchyState oracle,
      java.util.function.Supplier<LeafNeighbours> index) {
    if (index == null || oracle.isEmpty() || tree.leafCount() <= options.exactKnnLimit()) {
      return null;
    }
    LeafNeighbours nearest = index.get();
    if (nearest == null || nearest.tree() != tree || !nearest.hasGraph()) {
      return null;
    }
    return new NearAncestors(tree, oracle, nearest, nearLevels);
  }
}

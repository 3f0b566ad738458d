package dev.setree.internal.maintain;

import dev.setree.internal.core.LeafTexts;
import dev.setree.internal.core.Passes;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeChanges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The mutable hierarchy a build or a maintenance run works on, before it is frozen into a {@link Tree}.
 * Nodes are objects here (clarity over speed: this is index time); the snapshot is plain arrays.
 */
final class DraftTree {
  /**
   * Where a settled draft's internal nodes' creation orders start: internal node i of the tree (node
   * {@code leafCount + i}) has order {@code INTERNAL_ORDER + i}, after every leaf's (a leaf's is its index) and before
   * every node made since. Any two nodes compare as by their indexes, and an internal node keeps its order while the
   * leaves before it grow in number, so that a settle need not renumber every one.
   */
  static final long INTERNAL_ORDER = 1L << 40;
  final int dim;
  /** The leaves in order (add and remove them through this class: {@link #leafRows()} follows them). */
  final List<DraftNode> leaves = new ArrayList<>();
  final List<DraftNode> internal = new ArrayList<>();
  /** Every node of {@link #leaves} and {@link #internal} by id (kept with them: add and remove through this class). */
  final Map<String, DraftNode> byId = new HashMap<>();
  private long nextOrder;
  /**
   * The rules of the last {@link SummaryPass} through this draft, or null: a later pass under the same rules looks
   * at the changed nodes only. Null for a new draft, a copy of a tree included, whose nodes no pass has seen,
   * until the copy is settled ({@link SummaryRules#settle}).
   */
  SummaryRules summaryRules;
  /** The internal nodes at depth 0 and 1 after that pass (their caps depend on their depth). */
  List<DraftNode> summaryShallow = List.of();
  /** The tree the draft last froze or was copied from (null for a new draft): what its change log is from. */
  private Tree base;
  /** The change log of the last {@link #toTree} (null when the draft had no {@link #base} then). */
  private TreeChanges changes;
  /**
   * The internal nodes the run before the last {@link #toTree} touched, when they are all that a settle of the draft
   * must look at (that freeze kept the other internal nodes as they were, in order with the nodes made spliced in,
   * set their creation orders, and wrote only these: its {@link DraftFreeze.Frozen#touched}); null when a settle looks
   * at every internal node.
   */
  private DraftNode[] toSettle;
  /**
   * How many leading {@link #leaves} are still {@link #base}'s leaves at the same indexes: leaves are only appended
   * and removed, so a run that only inserts keeps every one (its log's {@link TreeChanges#leafPrefix}).
   */
  private int keptLeaves;
  /**
   * What the last run kept of each level: its rows' record, their integer mirror, its communities' parents, its
   * sorted kNN graph.
   */
  final LevelRecords records = new LevelRecords();
  /** The leaves' embeddings in one array, shared with the frozen tree and level 0 (ADR 0029). */
  private final LeafRows leafRows;
  /** The leaves' ids, texts, time stamps and token counts, shared with the frozen trees (ADR 0050). */
  private final LeafTextColumns leafTexts = new LeafTextColumns();
  /** The internal nodes' rows, shared by the trees this draft freezes (ADR 0036). */
  final InternalRowStore internalRows;
  /** The summary embeddings this draft's passes asked the model for, kept by text (ADR 0043). */
  final RecentEmbeddings recentEmbeddings = new RecentEmbeddings(RecentEmbeddings.CAPACITY);
  /** The internal nodes touched since the draft was copied or last settled; every node for a new draft. */
  final Touched touched = new Touched();
  /** How many leaves a node needs to keep its leaves' parts between summary passes ({@link LeavesUnder}). */
  int partsKeptFrom = LeavesUnder.KEPT_FROM;
  /** How many leaves a node needs to keep what its relevance scan found ({@link RelevanceMemo}). */
  int relevanceFrom = RelevanceMemo.FROM;
  /** How many leaves compete in a summary's maximal marginal relevance: for tests, whose trees are small. */
  int relevanceCandidates = MaximalMarginalRelevance.MAX_CANDIDATES;
  private float leafNormBound; // see leafNormBound(), once known
  private boolean leafNormKnown;

  DraftTree(int dim) {
    this.dim = dim;
    this.leafRows = new LeafRows(dim);
    this.internalRows = new InternalRowStore(dim);
  }

  DraftNode addLeaf(String id, String text, String time, float[] embedding, int tokens) {
    return bounded(addLeaf(id, text, time, embedding, embedding.clone(), tokens));
  }

  /**
   * At least the norm of every leaf the draft has or had, which bounds how far a leaf's product with a centroid moves
   * with it ({@link RelevanceMemo}): a look at every leaf when first asked for, then raised as leaves are added.
   */
  synchronized float leafNormBound() {
    if (!leafNormKnown) {
      float most = 0;
      for (DraftNode l : leaves) {
        most = Math.max(most, l.norm()); // NaN from a row that is not numbers: no bound, no memo
      }
      leafNormBound = most;
      leafNormKnown = true;
    }
    return leafNormBound;
  }

  /** Raises {@link #leafNormBound} to {@code n}'s norm, once it is known; returns {@code n}. */
  private synchronized DraftNode bounded(DraftNode n) {
    if (leafNormKnown) {
      leafNormBound = Math.max(leafNormBound, n.norm());
    }
    return n;
  }

  /** A leaf whose sum is {@code sum} (the draft's own copy of the embedding; neither is changed in place). */
  private DraftNode addLeaf(String id, String text, String time, float[] embedding, float[] sum, int tokens) {
    DraftNode n = new DraftNode(id, true);
    n.log = touched;
    n.text = text;
    n.time = time;
    n.embedding = embedding;
    n.sum = sum;
    n.tokens = tokens;
    n.faithfulness = Tree.LEAF_FAITHFULNESS;
    n.order = nextOrder++;
    leaves.add(n);
    byId.put(id, n);
    return n;
  }

  /** A leaf copied from a tree: its embedding is row {@code row} of {@code rows}, the tree's leaf rows. */
  private DraftNode addLeafRow(String id, String text, String time, float[] rows, int row, int tokens) {
    DraftNode n = addLeaf(id, text, time, null, null, tokens);
    n.readsRow(rows, row, dim);
    return bounded(n);
  }

  /**
   * How many leading rows of {@link #leafRows()} are the same rows of {@code other}, which holds {@code otherRows}
   * ({@link LeafRows#sharedWith}).
   */
  int sharedLeafRows(float[] other, int otherRows) {
    leafRows();
    return leafRows.sharedWith(other, otherRows);
  }

  /** Removes the leaves with these ids; their parents lose a child. Returns how many were removed. */
  int removeLeaves(java.util.Set<String> ids) {
    if (ids.isEmpty()) {
      return 0; // most runs only insert: no pass over every leaf
    }
    int removed = 0;
    int at = 0;
    for (var it = leaves.iterator(); it.hasNext(); at++) {
      DraftNode leaf = it.next();
      if (ids.contains(leaf.id)) {
        keptLeaves = Math.min(keptLeaves, at - removed); // the leaves after it move down
        if (leaf.parent != null) {
          leaf.parent.children.remove(leaf);
          leaf.parent.structural = true;
          leaf.parent.touch();
        }
        it.remove();
        byId.remove(leaf.id);
        leaf.removed = true;
        removed++;
      }
    }
    if (removed > 0) {
      leafRows.leavesRemoved();
      leafTexts.leavesRemoved();
    }
    return removed;
  }

  /**
   * The leaves' embeddings in order (row i is leaf i's, at {@code i * dim}; spare rows may follow the leaves'):
   * level 0's centroids and the frozen tree's leaf rows, one array whose leaves' rows must not be changed
   * ({@link LeafRows}).
   */
  float[] leafRows() {
    return leafRows.of(leaves);
  }

  /**
   * The leaves' ids, texts, time stamps and token counts in order, for the frozen tree; shared with the trees frozen
   * before and after, whose leaves' entries must not be changed ({@link LeafTextColumns}).
   */
  LeafTexts leafTexts() {
    return leafTexts.of(leaves);
  }

  DraftNode addInternal(String id, int level) {
    DraftNode n = new DraftNode(id, false);
    n.log = touched;
    n.level = level;
    n.sum = new float[dim];
    n.structural = true;
    n.centroidChanged = true;
    n.order = nextOrder++;
    internal.add(n);
    byId.put(id, n);
    n.touch();
    return n;
  }

  /**
   * The internal nodes a pass looking for the run's changes reads: those the run touched that are still in the draft,
   * in the order they were first touched; every internal node, in order, when the log stands for all
   * ({@link Touched#all}).
   */
  DraftNode[] touchedInternal() {
    if (touched.all()) {
      return internal.toArray(new DraftNode[0]);
    }
    List<DraftNode> out = new ArrayList<>(touched.nodes().size());
    for (DraftNode n : touched.nodes()) {
      if (byId.get(n.id) == n) {
        out.add(n);
      }
    }
    return out.toArray(new DraftNode[0]);
  }

  /** The sum of {@code v}'s children's sums, added in canonical order ({@link DraftNode#canonicalSum}). */
  float[] canonicalSum(DraftNode v) {
    return v.canonicalSum(dim);
  }

  /** Makes {@code parent} the parent of {@code child} (detaching it from any previous parent). */
  static void attach(DraftNode child, DraftNode parent) {
    if (child.parent != null) {
      child.parent.children.remove(child);
      child.parent.touch();
    }
    child.parent = parent;
    parent.children.add(child);
    parent.childAdded = true;
    child.touch();
    parent.touch();
  }

  /** Recomputes the internal nodes' leaf sums and flags the nodes whose centroid changed ({@link DraftSums}). */
  void recomputeSums() {
    DraftSums.recompute(this);
  }

  /**
   * Drops internal nodes that lost all children, bottom-up: a dropped node's parent loses a child (and is
   * structurally changed), and is dropped in turn once it has none. One pass over the nodes the run touched
   * ({@link #touched}: a node loses its last child only where it is touched), which keep their order.
   */
  void pruneEmpty() {
    EmptyNodes.prune(this);
  }

  /** The root: the only internal node without a parent; null when the draft has no internal node. */
  DraftNode root() {
    if (internal.isEmpty()) {
      return null;
    }
    DraftNode root = internal.get(internal.size() - 1);
    while (root.parent != null) {
      root = root.parent;
    }
    assert root == FreezeChecks.onlyRoot(internal) : "the root found from the last internal node is not the only root";
    return root;
  }

  /**
   * Sets every leaf's creation order to its index in the snapshot {@link #toTree} last froze, and the next
   * node's after every node's: with the internal nodes' orders set from their indexes too ({@link #INTERNAL_ORDER};
   * the caller does that, {@link KeptDraft}), the orders {@link #of} gives a copy of that snapshot. Clears the
   * leaves' flags in the same pass. The leaves that freeze kept in place (its log's
   * {@link TreeChanges#leafPrefix}) are skipped: a copy's and a settled draft's leaves have their index as their
   * order already (ADR 0034).
   */
  void renumberLeavesByIndex() {
    int kept = changes == null ? 0 : changes.leafPrefix();
    assert ordered(kept) : "a kept leaf whose order is not its index";
    for (int i = kept; i < leaves.size(); i++) {
      DraftNode n = leaves.get(i);
      n.order = n.index;
      n.structural = false;
      n.centroidChanged = false;
    }
    nextOrder = INTERNAL_ORDER + internal.size();
  }

  /** Whether the first {@code count} leaves have their index as their order and no flag (checked under assertions). */
  private boolean ordered(int count) {
    for (int i = 0; i < count; i++) {
      DraftNode n = leaves.get(i);
      if (n.order != n.index || n.structural || n.centroidChanged) {
        return false;
      }
    }
    return true;
  }

  /** How often {@link #of(Tree, java.util.function.BooleanSupplier)} checks whether it is given up. */
  static final int CANCEL_CHECK_NODES = 4096;

  /**
   * Freezes the draft into a snapshot ({@link DraftFreeze}): leaves in order, then internal nodes by level, root
   * last; the change log from the tree the draft froze before, or was copied from, is {@link #changes} then.
   */
  Tree toTree() {
    // The leading leaves that are still the base's at the same indexes: the log says so to its readers.
    int kept = base == null ? 0 : Math.min(keptLeaves, base.leafCount());
    DraftFreeze.Frozen frozen = DraftFreeze.freeze(this, base, kept);
    internal.clear(); // the same nodes, now in the tree's order: a kept draft's settle needs them so
    internal.addAll(frozen.internal());
    toSettle = frozen.touched();
    touched.touchAll(); // its nodes are renumbered: the log starts again when the draft is settled
    // A spliced freeze (its touched nodes known) kept the base's nodes in their order, the new ones after them.
    changes = base == null ? null : new TreeChanges(base, frozen.changed(), kept, frozen.touched() != null);
    base = frozen.tree();
    keptLeaves = leaves.size();
    return base;
  }

  /**
   * The change log of the last {@link #toTree}: the nodes whose rows may differ from those of the tree the draft
   * froze before, or was copied from (ADR 0034). Null before a freeze, and after the first freeze of a new draft.
   */
  TreeChanges changes() {
    return changes;
  }

  /** See {@link #toSettle}. */
  DraftNode[] toSettle() {
    return toSettle;
  }

  /** A draft holding a snapshot's nodes, summaries and all; nothing flagged. */
  static DraftTree of(Tree t) {
    return of(t, () -> false);
  }

  /**
   * As {@link #of(Tree)}, given up with a {@link java.util.concurrent.CancellationException} once {@code cancelled}
   * says so (checked every {@value #CANCEL_CHECK_NODES} nodes).
   */
  static DraftTree of(Tree t, java.util.function.BooleanSupplier cancelled) {
    DraftTree d = new DraftTree(t.dimension());
    DraftNode[] nodes = new DraftNode[t.size()];
    for (int v = 0; v < t.size(); v++) {
      if (v % CANCEL_CHECK_NODES == 0) {
        Maintainer.stopIf(cancelled);
      }
      DraftNode n;
      if (t.isLeaf(v)) {
        n = d.addLeafRow(t.id(v), t.text(v), t.time(v), t.leafEmbeddings(), v, t.tokens(v));
      } else {
        n = d.addInternal(t.id(v), t.level(v));
        n.structural = false;
        n.centroidChanged = false;
        n.text = t.text(v);
        n.embedding = t.embedding(v);
        n.tokens = t.tokens(v);
        n.kind = t.summarizerKind(v);
        n.faithfulness = t.faithfulness(v);
        n.sum = new float[t.dimension()];
        n.order = INTERNAL_ORDER + (v - t.leafCount());
      }
      n.index = n.leaf ? v : v - t.leafCount(); // where it is in the tree the draft is a copy of, as after a freeze
      nodes[v] = n;
    }
    for (int v = 0; v < t.size(); v++) {
      if (t.parent(v) >= 0) {
        attach(nodes[v], nodes[t.parent(v)]);
      }
    }
    for (int v = t.leafCount(); v < t.size(); v++) {
      List<DraftNode> src = new ArrayList<>();
      for (int i = 0; i < t.sourceCount(v); i++) {
        src.add(nodes[t.source(v, i)]);
      }
      nodes[v].sources = src;
    }
    // Internal sums bottom-up (children have smaller indexes), in canonical order.
    for (int v = t.leafCount(); v < t.size(); v++) {
      nodes[v].sum = d.canonicalSum(nodes[v]);
    }
    for (DraftNode n : d.internal) {
      n.centroidChanged = false;
      n.childAdded = false; // its children are in the tree's order, and the freeze's log starts here
    }
    d.leafRows.adopt(t.leafEmbeddings(), t.leafCount()); // the leaves are the tree's, in its order
    d.leafTexts.adopt(t.leafTexts(), t.leafCount());
    for (DraftNode n : nodes) {
      n.frozen();
    }
    d.base = t;
    d.keptLeaves = t.leafCount();
    d.nextOrder = INTERNAL_ORDER + (t.size() - t.leafCount());
    d.touched.clear(); // nothing flagged: the copy is its tree
    return d;
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Passes;
import dev.setree.internal.core.Tree;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;

/**
 * The draft a maintenance run ended with, kept for the next run: when that run starts from the very tree the
 * draft was frozen into (the run was saved and installed), it continues from the draft instead of copying the
 * whole tree into a new one ({@link DraftTree#of}: a node object per node, and a summary embedding and a sum per
 * internal node).
 * A kept draft is settled, when the next run takes it, into exactly what {@code DraftTree.of} of its tree would
 * give: nothing flagged, internal nodes and every node's children in the tree's order, and every node's creation
 * order its index in the tree. Costs a second copy of the internal nodes' vectors in memory (a copied leaf reads
 * its row of the tree, also when a summary request reads it: {@link LeafPassages}).
 *
 * <p>Taking the draft forgets it, so a run that fails (or whose save is refused) leaves nothing behind that
 * could be reused wrongly: the next run then starts from a new copy. A copy can also be made ahead of the
 * run ({@link #prepare}): it is what {@code DraftTree.of} gives, so the run continues from it the same way.
 * Thread-safe.
 */
final class KeptDraft {
  private DraftTree draft;
  private Tree frozen;
  /** Whether {@link #draft} is settled already (a copy is; a run's draft is settled when taken). */
  private boolean settled;
  private int reused;
  /** Whether the drafts it gives have their passes look at every node ({@link #everyNode}). */
  private boolean everyNode;
  private int partsKeptFrom = LeavesUnder.KEPT_FROM;
  private int relevanceFrom = RelevanceMemo.FROM;
  private int relevanceCandidates = MaximalMarginalRelevance.MAX_CANDIDATES;

  /**
   * Makes the drafts it gives from now on have their passes look at every internal node rather than read the run's
   * log ({@link Touched#touchAll}): for tests, which compare the two.
   */
  synchronized void everyNode() {
    everyNode = true;
  }

  /**
   * Makes the drafts it gives from now on keep the leaves' parts of every node of at least {@code leaves} leaves
   * between passes ({@link LeavesUnder#KEPT_FROM} by default): for tests, whose trees are small.
   */
  synchronized void keepPartsFrom(int leaves) {
    partsKeptFrom = leaves;
  }

  /**
   * Makes the drafts it gives from now on have the nodes of at least {@code leaves} leaves keep what their
   * relevance scans found ({@link RelevanceMemo#FROM} by default; {@link Integer#MAX_VALUE}: none): for tests.
   */
  synchronized void keepRelevanceFrom(int leaves) {
    relevanceFrom = leaves;
  }

  /**
   * Makes the drafts it gives from now on have the {@code candidates} leaves closest to a node's centroid compete in
   * its summary ({@link MaximalMarginalRelevance#MAX_CANDIDATES} by default): for tests, whose trees are small.
   */
  synchronized void relevanceCandidates(int candidates) {
    relevanceCandidates = candidates;
  }

  /** A draft of {@code base}: the kept one when it was frozen into {@code base} itself, else a new copy. */
  synchronized DraftTree take(Tree base) {
    DraftTree taken = takeDraft(base);
    if (everyNode) {
      taken.touched.touchAll();
    }
    settings(taken);
    return taken;
  }

  /** Gives {@code d} the sizes and counts its summary passes keep to ({@link #keepPartsFrom} and the others). */
  private synchronized void settings(DraftTree d) {
    d.partsKeptFrom = partsKeptFrom;
    d.relevanceFrom = relevanceFrom;
    d.relevanceCandidates = relevanceCandidates;
  }

  private DraftTree takeDraft(Tree base) {
    DraftTree d = base == frozen ? draft : null;
    boolean ready = settled;
    Tree tree = frozen;
    draft = null;
    frozen = null;
    if (d != null) {
      if (!ready) {
        settle(d, tree);
      }
      reused++;
      return d;
    }
    return DraftTree.of(base);
  }

  /** Whether the draft kept is of {@code base}, so that {@link #prepare} would copy nothing. */
  synchronized boolean holds(Tree base) {
    return base == frozen;
  }

  /**
   * Makes sure a run over {@code base} finds a draft of it: copies {@code base} into a new draft now unless one
   * is kept for it. Lets the writer do the copy ahead of the run (on open, or while it waits for a quiet window).
   * {@code also} is done to a new copy before it is kept. Given up, keeping nothing new, with a
   * {@link java.util.concurrent.CancellationException} once {@code cancelled} says so.
   */
  void prepare(Tree base, java.util.function.BooleanSupplier cancelled,
      java.util.function.Consumer<DraftTree> also) {
    synchronized (this) {
      if (base == frozen) {
        return;
      }
    }
    DraftTree d = DraftTree.of(base, cancelled); // outside the lock: a copy of every node
    settings(d); // what is done to it ahead is done as its run will do it
    also.accept(d);
    synchronized (this) {
      if (base != frozen) {
        draft = d;
        frozen = base;
        settled = true;
      }
    }
  }

  /**
   * Has the large nodes of the draft made ahead of a run over {@code base} ({@link #prepare}) keep relevance memos
   * ({@link RelevanceMemo#scanAhead}); returns how many it scanned: none unless such a draft is kept (a run's draft is
   * not, until the next run settles it), and none once a call went through it: every large node then keeps a memo.
   */
  synchronized int scanAhead(Tree base, java.util.function.BooleanSupplier stop) {
    return draft != null && base == frozen && settled ? RelevanceMemo.scanAhead(draft, stop) : 0;
  }

  /**
   * Keeps {@code d}, which {@link DraftTree#toTree} just froze into {@code tree}, for a run over that tree. It is
   * settled when that run takes it, not now: the run that froze it has its save and its snapshot to finish first.
   */
  synchronized void keep(DraftTree d, Tree tree) {
    draft = d;
    frozen = tree;
    settled = false;
  }

  /**
   * Frees the spare rows of the kept draft's records ({@link LevelRecords#freeSpares}) when it was frozen into
   * {@code tree}, whose hierarchy {@code hierarchy} the writer installed.
   */
  synchronized void installed(Tree tree, HierarchyState hierarchy) {
    if (draft != null && tree == frozen) {
      draft.records.freeSpares(hierarchy.levels());
    }
  }

  /** How many drafts were taken over rather than copied. */
  synchronized int reused() {
    return reused;
  }

  /**
   * Makes {@code d} hold what {@code DraftTree.of(tree)} would: flags cleared, internal nodes in the order of
   * the tree, each node's children in the tree's order (summary requests list children and leaves in that
   * order), creation orders renumbered by the tree's indexes (a later run orders new members by them, across
   * levels: a node made in an earlier run at a higher level must not come before a later one at a lower
   * level, as it would by creation). Uses the indexes {@code toTree} left in the nodes. Only the children of a
   * node that was given a child since the last settle can be out of order: removals keep the order, and a freeze
   * keeps the relative order of the nodes it renumbers (leaves by position, internal nodes by level and creation
   * order, which the last settle made their old index order). When the freeze spliced the nodes the run made into the
   * others' order ({@link DraftTree#toSettle}, {@link InternalSplice}), it set their orders
   * ({@link DraftTree#INTERNAL_ORDER}), and only the nodes the run touched can be flagged: only those are looked at.
   */
  private static void settle(DraftTree d, Tree tree) {
    d.renumberLeavesByIndex(); // and clears the leaves' flags
    assert inIndexOrder(d.internal) : "the internal nodes are not in the order toTree left them in";
    DraftNode[] look = d.toSettle(); // else every internal node, in the tree's order (toTree left them so)
    Passes.each(look != null ? look : d.internal.toArray(new DraftNode[0]), new Settle(tree.leafCount()));
    assert d.internal.stream().allMatch(n -> inOrder(n, tree.leafCount()) && settled(n))
        : "a node is flagged, out of order or has children out of the tree's order";
    if (d.leaves.size() != tree.leafCount() || d.leaves.size() + d.internal.size() != tree.size()) {
      throw new IllegalStateException("the draft does not hold the tree it was frozen into");
    }
    d.touched.clear(); // nothing flagged: the next run's log starts here
  }

  /**
   * Settles each internal node: a call per node in the loop {@link Passes} shares, by a class of its own, not a
   * lambda, so that a writer loads it on open (ADR 0045).
   */
  private record Settle(int leafCount) implements Consumer<DraftNode> {
    @Override
    public void accept(DraftNode n) {
      n.order = DraftTree.INTERNAL_ORDER + n.index;
      n.structural = false;
      n.centroidChanged = false;
      if (n.childAdded && !inOrder(n, leafCount)) { // a leaf carried forward comes before internal nodes
        n.children.sort(Comparator.comparingInt(c -> c.indexAmong(leafCount)));
        LeavesUnder.changed(n); // the leaves under it and above it are in another order
      }
      n.childAdded = false;
    }
  }

  /** Whether {@code n}, internal, has no flag and its order from its index (checked under assertions). */
  private static boolean settled(DraftNode n) {
    return n.order == DraftTree.INTERNAL_ORDER + n.index && !n.structural && !n.centroidChanged
        && !n.childAdded;
  }

  /** Whether {@code nodes} are in the order of their indexes (checked under assertions). */
  private static boolean inIndexOrder(List<DraftNode> nodes) {
    for (int i = 1; i < nodes.size(); i++) {
      if (nodes.get(i - 1).index >= nodes.get(i).index) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code n}'s children are in the order of their indexes in a tree of {@code leafCount} leaves. */
  private static boolean inOrder(DraftNode n, int leafCount) {
    int last = -1;
    for (DraftNode c : n.children) {
      int index = c.indexAmong(leafCount);
      if (index <= last) {
        return false;
      }
      last = index;
    }
    return true;
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.Passes;
import dev.setree.internal.core.Tree;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The internal nodes a {@link SummaryPass} looks at, in waves, children before parents: every node of a draft no pass
 * went through yet ({@link #all}), or only the changed ones and what depends on them ({@link #changed}). Sets the
 * depth and wave of each node it returns.
 */
final class SummaryWaves {
  private SummaryWaves() {}

  /**
   * Every internal node, in waves: wave {@code w} holds the nodes whose internal children are all in earlier waves
   * and one of them in wave {@code w - 1} (1 + the height of its internal subtree), each wave in the draft's order.
   * Sets every internal node's depth and wave.
   */
  static List<List<DraftNode>> all(DraftTree draft, DraftNode root) {
    for (DraftNode v : draft.internal) {
      v.wave = 0; // not yet reached from the root
    }
    int maxWave = computeDepthAndWave(root, 0);
    List<List<DraftNode>> waves = new ArrayList<>();
    for (int w = 0; w < maxWave; w++) {
      waves.add(new ArrayList<>());
    }
    for (DraftNode v : draft.internal) {
      if (v.wave == 0) {
        throw new IllegalStateException("internal node " + v + " is not under the root " + root);
      }
      waves.get(v.wave - 1).add(v);
    }
    return waves;
  }

  /**
   * The internal nodes a pass over a draft whose last pass ran under the same {@link SummaryRules} must look
   * at, in the waves {@link #all} would put them in (empty waves left out), each in the draft's order: the flagged
   * nodes (children or leaf-centroid changed, no summary or embedding, faithfulness unknown), their ancestors, and
   * the nodes at depth 0 or 1 now or after the last pass (a node's cap depends on its depth only there). Every other
   * node passes as the last pass left it: its children, their tokens, its leaves and its cap are the same, so the
   * pass finds nothing to do and its faithfulness stands. Depth and wave are set for the nodes returned; the others
   * keep theirs, which the last pass set and which nothing since changed.
   */
  static List<List<DraftNode>> changed(DraftTree draft, DraftNode root) {
    long mark = DIRTY_MARKS.incrementAndGet();
    // The flagged nodes are among those the run touched (Touched): only those are looked at, and the marked nodes,
    // listed as they are marked, are put in the draft's order by their creation order, which a settled draft's
    // internal nodes are in (new ones after them). A log that stands for every node is read by a pass over each.
    List<DraftNode> marked = new ArrayList<>();
    Passes.each(draft.touchedInternal(), new MarkFlagged(mark, root, marked));
    markUp(root, mark, root, marked);
    for (DraftNode c : root.children) {
      markUp(c, mark, root, marked);
    }
    for (DraftNode v : draft.summaryShallow) {
      if (draft.byId.get(v.id) == v) { // still in the draft
        markUp(v, mark, root, marked);
      }
    }
    if (draft.touched.all()) {
      marked.clear();
      Passes.each(draft.internal.toArray(new DraftNode[0]), new Marked(mark, marked));
    } else {
      marked.sort(BY_ORDER);
      assert marked.equals(inDraftOrder(draft, mark)) : "the marked nodes are not in the draft's order";
    }
    int maxWave = 0;
    for (DraftNode v : marked) {
      int depth = 0;
      for (DraftNode x = v; x != root; x = x.parent) {
        depth++;
      }
      v.depth = depth;
      maxWave = Math.max(maxWave, markedWave(v, mark));
    }
    List<List<DraftNode>> waves = new ArrayList<>();
    for (int w = 0; w < maxWave; w++) {
      waves.add(new ArrayList<>());
    }
    for (DraftNode v : marked) {
      waves.get(v.wave - 1).add(v);
    }
    waves.removeIf(List::isEmpty);
    return waves;
  }

  /**
   * The wave of marked node {@code v}, set once per mark: 1 + the largest wave of its internal children, marked
   * ones' computed by now and other ones' as the last pass left them.
   */
  private static int markedWave(DraftNode v, long mark) {
    if (v.waveMark == mark) {
      return v.wave;
    }
    int w = 1;
    for (DraftNode c : v.children) {
      if (!c.leaf) {
        w = Math.max(w, (c.dirtyMark == mark ? markedWave(c, mark) : c.wave) + 1);
      }
    }
    v.wave = w;
    v.waveMark = mark;
    return w;
  }

  /**
   * {@link #changed}'s first pass: marks each flagged node and its ancestors. The passes over every node are classes
   * of their own, not lambdas, so that a writer loads them on open, and run a call per node in the loop
   * {@link Passes} shares (ADR 0045).
   */
  private record MarkFlagged(long mark, DraftNode root, List<DraftNode> marked) implements Consumer<DraftNode> {
    @Override
    public void accept(DraftNode v) {
      if (flagged(v)) {
        markUp(v, mark, root, marked);
      }
    }
  }

  /** Whether a pass must look at {@code v} for itself: its children or leaf-centroid changed, or it lacks a summary. */
  private static boolean flagged(DraftNode v) {
    return v.structural || v.centroidChanged || v.text == null || v.embedding == null
        || v.faithfulness == Tree.UNKNOWN_FAITHFULNESS;
  }

  /** By creation order: a settled draft's order of its internal nodes. */
  private static final Comparator<DraftNode> BY_ORDER = Comparator.comparingLong(v -> v.order);

  /**
   * The nodes marked with {@code mark}, in the draft's order, found by a look at every internal node; checks under
   * assertions that every flagged node is marked (it is in the run's log).
   */
  private static List<DraftNode> inDraftOrder(DraftTree draft, long mark) {
    List<DraftNode> out = new ArrayList<>();
    for (DraftNode v : draft.internal) {
      if (flagged(v) && v.dirtyMark != mark) {
        throw new AssertionError("flagged node " + v + " is not in the run's log");
      }
      if (v.dirtyMark == mark) {
        out.add(v);
      }
    }
    return out;
  }

  /** {@link #changed}'s last pass: lists the marked nodes in the draft's order. */
  private record Marked(long mark, List<DraftNode> marked) implements Consumer<DraftNode> {
    @Override
    public void accept(DraftNode v) {
      if (v.dirtyMark == mark) {
        marked.add(v);
      }
    }
  }

  /** Stamps for {@link DraftNode#dirtyMark}: fresh for every {@link #changed} call. */
  private static final AtomicLong DIRTY_MARKS = new AtomicLong();

  /**
   * Marks {@code v} and its ancestors up to the first one marked already, listing each into {@code marked}; fails when
   * {@code v} is not under root.
   */
  private static void markUp(DraftNode v, long mark, DraftNode root, List<DraftNode> marked) {
    for (DraftNode x = v; x != null && !x.leaf && x.dirtyMark != mark; x = x.parent) {
      x.dirtyMark = mark;
      marked.add(x);
      if (x.parent == null && x != root) {
        throw new IllegalStateException("internal node " + v + " is not under the root " + root);
      }
    }
  }

  /** The internal nodes at depth 0 and 1: the root and its internal children. */
  static List<DraftNode> shallow(DraftNode root) {
    List<DraftNode> out = new ArrayList<>();
    out.add(root);
    for (DraftNode c : root.children) {
      if (!c.leaf) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * Sets each internal node's depth under the root and its wave (1 + the largest wave of its
   * internal children: children are summarised in an earlier wave); returns the largest wave.
   */
  private static int computeDepthAndWave(DraftNode v, int d) {
    v.depth = d;
    int w = 1;
    int maxWave = 0;
    for (DraftNode c : v.children) {
      if (!c.leaf) {
        maxWave = Math.max(maxWave, computeDepthAndWave(c, d + 1));
        w = Math.max(w, c.wave + 1);
      }
    }
    v.wave = w;
    return Math.max(maxWave, w);
  }
}

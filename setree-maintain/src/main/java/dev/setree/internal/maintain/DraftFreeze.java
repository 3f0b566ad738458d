package dev.setree.internal.maintain;

import dev.setree.internal.core.Passes;
import dev.setree.internal.core.ShapeFrom;
import dev.setree.internal.core.Tree;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * Freezes a {@link DraftTree} into a {@link Tree}, and writes the run's change log on the way (ADR 0034): the nodes
 * whose rows may differ from the tree the draft last froze or was copied from, its base.
 *
 * <p>A run that only inserts keeps the base's leaves at their indexes (the kept leaves). Their own fields are set
 * once, so they are the base's; only a parent can change, and a leaf given a new parent is a child of a node
 * flagged {@link DraftNode#childAdded} (set by {@link DraftTree#attach}, cleared only when a kept draft is settled,
 * after its freeze). So the kept leaves' columns are read from the base's arrays, their parents are the base's
 * renumbered, and only the children of flagged or new nodes are looked at: a look at each leaf's node, all over
 * the heap, took about 3 ms of a freeze's 8 at 50,000 leaves. The internal nodes' rows are the draft's
 * {@link InternalRowStore}'s, shared with the trees it froze before: only the rows of nodes whose vectors were
 * replaced are written (ADR 0036).
 */
final class DraftFreeze {
  /** The quoted leaves of a node that quotes none: the tree copies them, so one array serves all. */
  private static final int[] NO_SOURCES = new int[0];
  /** How many nodes freezes in this process gave an index, each read for it (for tests). */
  static final AtomicLong RENUMBERED = new AtomicLong();

  private final Tree base;
  private final int kept;
  private final List<String> changed = new ArrayList<>();
  /** The nodes in the new tree's order, and the first index {@link #run}'s passes write (the kept leaves before). */
  private List<DraftNode> order;
  private int from;
  /** The new tree's leaves, and the base's (0 without a base). */
  private int leafCount;
  private int baseLeaves;
  /** Each internal node's index in the base tree (node i's at {@code i - leafCount}); -1 for a node made since. */
  private int[] previous;
  /**
   * The first node {@link #kinds}, {@link #level}, {@link #faith} and {@link #loss} hold: the leaf count when every
   * leaf is plain (no summariser kind, faithfulness 100: the tree's {@code InternalColumns}), else 0.
   */
  private int columnsFrom;
  /** The new tree's columns, by {@link #run}: ids, texts, tokens per internal node (ADR 0050), parents per node. */
  private String[] ids;
  private String[] texts;
  private String[] kinds;
  private int[] tokens;
  private int[] level;
  private int[] parent;
  private int[] faith;
  private int[][] sources;
  private float[] loss;

  /**
   * @param base the tree the draft last froze or was copied from, or null
   * @param kept how many leading leaves of the draft are the base's leaves at the same indexes
   */
  private DraftFreeze(Tree base, int kept) {
    this.base = base;
    this.kept = kept;
  }

  /**
   * The result: the tree, the ids of the nodes whose rows may differ from the base's (in no order), the internal
   * nodes in the tree's order, and, when they are the base's internal nodes in the base's order with the nodes made
   * spliced in ({@link InternalSplice}; their creation orders set) and only the nodes the run touched were written,
   * those nodes (else null).
   */
  record Frozen(Tree tree, String[] changed, List<DraftNode> internal, DraftNode[] touched) {}

  /**
   * Freezes {@code d}: leaves in order, then internal nodes by level and creation order, root last. Leaves each
   * node's index in the new tree in {@link DraftNode#index}.
   *
   * @param base as for the constructor
   * @param kept as for the constructor
   */
  static Frozen freeze(DraftTree d, Tree base, int kept) {
    return new DraftFreeze(base, kept).run(d);
  }

  private Frozen run(DraftTree d) {
    leafCount = d.leaves.size();
    baseLeaves = base == null ? 0 : base.leafCount();
    // The internal nodes are the base's in its order, the few made spliced in and those dropped left out, when it
    // kept every leaf and its log says which (InternalSplice): their columns the base's but the touched ones'.
    InternalSplice.Spliced splice = base != null && kept == baseLeaves && base.size() > kept && !d.touched.all()
        ? InternalSplice.of(d, base) : null;
    boolean spliced = splice != null;
    List<DraftNode> inner = spliced ? splice.order() : null;
    if (!spliced) {
      inner = byLevel(d.internal);
      DraftNode root = d.root();
      if (root != null && (inner.isEmpty() || inner.get(inner.size() - 1) != root)) {
        inner.remove(root);
        inner.add(root);
      }
    }
    order = new FrozenOrder(d.leaves, inner);
    int n = order.size();
    int dim = d.dim;
    // The kept leaves' columns come from the base when both trees have internal nodes (a leaf as root is not kept).
    from = base != null && base.size() > base.leafCount() && n > leafCount ? kept : 0;
    assert FreezeChecks.keptInPlace(order, from);
    previous = new int[n - leafCount];
    if (spliced && from > 0) {
      // The internal nodes before the first made or dropped keep their places, so their indexes, and their orders
      // (the last settle or spliced freeze set them from their places): only their base indexes are written here.
      Renumber renumber = new Renumber(leafCount);
      Passes.range(from, leafCount, renumber); // the new leaves
      int unmoved = leafCount + splice.unmoved();
      for (int i = leafCount; i < unmoved; i++) {
        previous[i - leafCount] = baseLeaves + (i - leafCount);
      }
      Passes.range(unmoved, n, renumber);
      RENUMBERED.addAndGet(leafCount - from + n - unmoved);
    } else {
      Passes.range(from, n, new Renumber(-1));
      RENUMBERED.addAndGet(n - from);
    }
    // Four columns per internal node when every leaf is plain: four arrays as long as the leaves are not made.
    columnsFrom = FreezeChecks.leavesPlain(d.leaves, from, leafCount, base) ? leafCount : 0;
    ids = new String[n - leafCount];
    texts = new String[n - leafCount];
    kinds = new String[n - columnsFrom];
    tokens = new int[n - leafCount];
    level = new int[n - columnsFrom];
    parent = new int[n];
    faith = new int[n - columnsFrom];
    sources = new int[n - leafCount][]; // per internal node (a leaf quotes none); null: quotes none
    loss = new float[n - columnsFrom]; // NaN: the tree computes it
    int[] now = from > 0 ? baseToNew(leafCount) : null;
    if (from > 0) {
      copyKeptLeaves(from, now);
    }
    DraftNode[] touched = null;
    if (spliced && from > 0) {
      copyKeptInternal(leafCount, now);
      Columns columns = new Columns();
      Passes.range(from, leafCount, columns); // the new leaves
      touched = d.touchedInternal(); // the internal nodes made since are among them
      for (DraftNode v : touched) {
        columns.accept(leafCount + v.index);
      }
      assert untouchedFrozen(d, leafCount);
    } else {
      Passes.range(from, n, new Columns());
    }
    assert FreezeChecks.keptLeavesFrozen(order, from, parent, leafCount);
    Tree tree = new Tree(dim, leafCount, d.leafTexts(), ids, texts, tokens, kinds, level, parent, d.leafRows(),
        touched != null ? d.internalRows.freeze(inner, base.internalRows(), previous, base.leafCount(), touched)
            : d.internalRows.freeze(inner),
        faith, sources, loss, base != null && kept == base.leafCount() ? base : null,
        touched != null ? FrozenShape.of(order, touched, leafCount, base, previous, now) : null);
    return new Frozen(tree, changed.toArray(new String[0]), inner, touched);
  }

  /**
   * The freeze's first pass: notes each node's index in the base tree and gives it its {@link DraftNode#index} in the
   * new one (an internal node's place among the internal nodes). The passes are classes of their own, not lambdas,
   * so that a writer loads them on open, and run a call per node in the loop {@link Passes} shares (ADR 0045).
   */
  private final class Renumber implements IntConsumer {
    /**
     * The new tree's leaf count when the internal nodes' creation orders are set too (a spliced freeze, whose settle
     * looks only at the nodes the run touched: {@link KeptDraft}), else -1.
     */
    private final int orders;

    Renumber(int orders) {
      this.orders = orders;
    }

    @Override
    public void accept(int i) {
      DraftNode v = order.get(i);
      if (i >= leafCount) {
        previous[i - leafCount] = base == null || v.index < 0 ? -1 : v.indexAmong(baseLeaves);
      }
      v.index = v.leaf ? i : i - leafCount;
      if (orders >= 0 && i >= orders) {
        v.order = DraftTree.INTERNAL_ORDER + (i - orders);
      }
    }
  }

  /** The freeze's second pass: writes each node's columns. */
  private final class Columns implements IntConsumer {
    @Override
    public void accept(int i) {
      DraftNode v = order.get(i);
      int was = i < leafCount ? -1 : previous[i - leafCount]; // -1 for a node made since the base tree, and a leaf
      boolean rowChanged = logRow(v);
      if (i >= leafCount) { // a leaf's are in the draft's shared columns
        ids[i - leafCount] = v.id;
        texts[i - leafCount] = v.text;
        tokens[i - leafCount] = v.tokens;
        assert v.time == null : "internal node " + v.id + " has a time stamp";
      }
      parent[i] = v.parent == null ? -1 : leafCount + v.parent.index;
      int col = i - columnsFrom; // a plain leaf's columns are not kept
      if (col >= 0) {
        // Same summary embedding and sum arrays as in the base tree: the same loss (the tree needs no dot product)
        loss[col] = v.leaf ? 0f : rowChanged || was < 0 ? Float.NaN : base.loss(was);
        kinds[col] = v.kind;
        level[col] = v.leaf ? 0 : v.level;
        faith[col] = v.faithfulness;
      }
      if (v.leaf) {
        return; // it quotes no leaf
      }
      sources[i - leafCount] = sourceIndexes(v, rowChanged ? -1 : was);
      for (int x = 0; from > 0 && (v.childAdded || was < 0) && x < v.children.size(); x++) {
        DraftNode c = v.children.get(x);
        if (c.leaf && c.index < from) { // a kept leaf that may have come to v in this run
          parent[c.index] = i;
          logRow(c);
        }
      }
    }
  }

  /**
   * The internal nodes in {@link DraftNode#BY_LEVEL} order: a stable pass that buckets them by level, which is that
   * order when each level's nodes come in creation order (a kept draft's), else a sort (comparator calls took a
   * freeze at 50,000 leaves about 0.4 ms).
   */
  static List<DraftNode> byLevel(List<DraftNode> internal) {
    DraftNode[] nodes = internal.toArray(new DraftNode[0]);
    int top = 0;
    for (DraftNode v : nodes) {
      if (v.level > top) {
        top = v.level;
      }
    }
    int[] next = new int[top + 2];
    for (DraftNode v : nodes) {
      next[v.level + 1]++;
    }
    for (int l = 0; l <= top; l++) {
      next[l + 1] += next[l];
    }
    long[] lastOrder = new long[top + 1];
    Arrays.fill(lastOrder, Long.MIN_VALUE);
    boolean inOrder = true;
    DraftNode[] out = new DraftNode[nodes.length];
    for (DraftNode v : nodes) {
      inOrder &= v.order >= lastOrder[v.level];
      lastOrder[v.level] = v.order;
      out[next[v.level]++] = v;
    }
    if (!inOrder) {
      Arrays.sort(out, DraftNode.BY_LEVEL);
    }
    return new ArrayList<>(Arrays.asList(out));
  }

  /** Each of the base's internal nodes' new index, by its place among them ({@code previous} gives them); -1: gone. */
  private int[] baseToNew(int leafCount) {
    int baseLeaves = base.leafCount();
    int[] now = new int[base.size() - baseLeaves];
    Arrays.fill(now, -1);
    for (int x = 0; x < previous.length; x++) {
      if (previous[x] >= baseLeaves) {
        now[previous[x] - baseLeaves] = leafCount + x;
      }
    }
    return now;
  }

  /**
   * The first {@code count} leaves' parents, the base's under their new index ({@code now}), and their columns not
   * kept per internal node (ids, texts, time stamps and tokens are shared: ADR 0050). A parent the base had and the
   * new tree has not leaves -1 here: the leaf has a new parent, which is flagged, so the freeze's loop sets it.
   */
  private void copyKeptLeaves(int count, int[] now) {
    int baseLeaves = base.leafCount();
    base.copyColumns(0, count, 0, parent, columnsFrom, kinds, level, faith, loss); // bulk
    for (int i = 0; i < count; i++) {
      int p = parent[i];
      parent[i] = p < baseLeaves ? -1 : now[p - baseLeaves];
    }
  }

  /**
   * The internal nodes' columns (at {@code leafCount..n-1}) from the base's, for those that were the base's
   * ({@code previous}), in runs of nodes that keep their relative places (one bulk copy per column each): parents
   * under their new indexes ({@code now}), and each node's quoted leaves the base's, which are kept leaves at the same
   * indexes ({@link ShapeFrom#BASE_SOURCES}: the tree copies them, and no array is made per node). What
   * {@link Columns} writes for a node the run did not touch; the touched ones, the nodes made since
   * among them, are written over after.
   */
  private void copyKeptInternal(int leafCount, int[] now) {
    int n = leafCount + previous.length;
    int baseLeaves = base.leafCount();
    for (int i = leafCount; i < n; ) {
      int was = previous[i - leafCount];
      if (was < 0) {
        i++;
        continue;
      }
      int run = 1;
      while (i + run < n && previous[i - leafCount + run] == was + run) {
        run++;
      }
      base.copyColumns(was, run, i, parent, columnsFrom, kinds, level, faith, loss);
      base.copyInternalTexts(was, run, i - leafCount, ids, texts, tokens);
      i += run;
    }
    for (int i = leafCount; i < n; i++) {
      int was = previous[i - leafCount];
      if (was >= 0) {
        int p = parent[i];
        parent[i] = p < 0 ? -1 : now[p - baseLeaves];
        sources[i - leafCount] = ShapeFrom.BASE_SOURCES; // the tree copies them from the base's rows, with the shape
      }
    }
  }

  /**
   * Whether every internal node the run did not touch was frozen as {@link Columns} would have frozen it: nothing
   * changed since the base, and its columns its own (checked under assertions).
   */
  private boolean untouchedFrozen(DraftTree d, int leafCount) {
    for (int i = leafCount; i < order.size(); i++) {
      DraftNode v = order.get(i);
      if (d.touched.has(v)) {
        continue;
      }
      int p = v.parent == null ? -1 : leafCount + v.parent.index;
      int[] src = sources[i - leafCount] == ShapeFrom.BASE_SOURCES ? base.sources(previous[i - leafCount])
          : sources[i - leafCount];
      int c = i - columnsFrom;
      int x = i - leafCount;
      boolean same = !v.rowChanged() && !v.childAdded && ids[x] == v.id && texts[x] == v.text
          && kinds[c] == v.kind && tokens[x] == v.tokens && level[c] == v.level && faith[c] == v.faithfulness
          && parent[i] == p && src.length == v.sources.size();
      for (int s = 0; same && s < src.length; s++) {
        same = src[s] == v.sources.get(s).index;
      }
      if (!same) {
        throw new AssertionError("internal node " + v.id + " is not in the run's log, and its row is not the base's");
      }
    }
    return true;
  }

  /** Adds {@code v} to the log when its row may have changed since the base, and records its fields as frozen. */
  private boolean logRow(DraftNode v) {
    if (!v.rowChanged()) {
      return false;
    }
    changed.add(v.id);
    if (v.frozenParent() != null && v.frozenParent() != v.parent) {
      changed.add(v.frozenParent().id); // it lost a child
    }
    v.frozen(); // only then: recording into every node made a freeze at 50,000 leaves 20 ms slower (ADR 0034)
    return true;
  }

  /**
   * The indexes of the leaves {@code v} quotes, {@code v} renumbered and its quoted leaves with it. When its row
   * is the base tree's node {@code unchanged} (else -1) and every leaf quoted there is among the kept leaves, they
   * are the base's, read from its arrays, and {@code v}'s own list is not read: a look at each quoted leaf's node,
   * all over the heap, cost a freeze at 50,000 leaves about half its time, and a look at each node's list 1-2 ms.
   */
  private int[] sourceIndexes(DraftNode v, int unchanged) {
    if (unchanged >= 0) { // the row, its quoted leaves included, is the base's: v's list is not read
      int count = base.sourceCount(unchanged);
      if (count == 0) {
        assert v.sources.isEmpty() : v.id + " quotes leaves its unchanged row does not";
        return NO_SOURCES;
      }
      int[] src = base.sources(unchanged);
      // Every leaf the base quotes is kept at its index when all its leaves are; else each is looked at.
      boolean inPlace = true;
      for (int s = 0; s < count && inPlace && kept < base.leafCount(); s++) {
        inPlace = src[s] < kept;
      }
      if (inPlace) {
        assert v.sources.size() == count
            && java.util.stream.IntStream.range(0, count).allMatch(x -> v.sources.get(x).index == src[x])
            : v.id + " quotes other leaves than the base's node";
        return src;
      }
    }
    if (v.sources.isEmpty()) {
      return NO_SOURCES;
    }
    int[] src = new int[v.sources.size()];
    for (int s = 0; s < src.length; s++) {
      src[s] = v.sources.get(s).index;
    }
    return src;
  }
}

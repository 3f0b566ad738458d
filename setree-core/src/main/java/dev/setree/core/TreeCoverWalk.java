package dev.setree.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The query-time walk that selects a tree cover within a token budget (SPEC "Query time"; the original
 * SETree design, docs/adr/0004-capability-score.md for the score and the overview).
 *
 * <p>Phases:
 * <ol>
 *   <li><b>Care.</b> One ascending pass computes, for every node, the best leaf relevance under it and the
 *       cheapest leaf under it.
 *   <li><b>Overview.</b> The root's summary is shown, then the summaries of the root's internal children in
 *       capability order, as long as they fit within the overview's share of the budget: {@code
 *       overviewShare x breadth}, where the <em>breadth</em> of the prompt, in (0, 1], is the mean over the
 *       top-level subtrees of {@code exp((care(c) - max care) / overviewTemperature)}. A broad prompt, which
 *       cares about every topic about equally, gets the whole share: summaries where it does not care about
 *       details. A prompt about one corner gets almost none: its tokens go to the facts it needs. Deeper
 *       nodes are opened without showing their summaries: on the evaluation data shown summaries bought
 *       coverage, not recall (FINDINGS.md, second round).
 *   <li><b>Best-first expansion.</b> One global heap of candidate children keyed by
 *       {@link CapabilityScore}; each pop opens an internal node (pushes its children) or selects a leaf if
 *       it fits. A leaf quoted whole in a shown summary is not paid for twice.
 *   <li><b>Carry.</b> A node all of whose children are covered is carried: hidden, its tokens freed.
 * </ol>
 *
 * <p>Invariants (tested on random trees): every leaf is covered by itself or a shown ancestor whenever
 * {@link Cover#complete()}; the items' costs never exceed the budget; carried nodes are never shown; the
 * output depends only on the inputs. The walk allocates per call and shares nothing: it is thread-safe.
 */
public final class TreeCoverWalk {

  private final CapabilityScore capability;
  private final float overviewShare;
  private final float overviewTemperature;
  private final ContextFormat format;

  /**
   * @param capability the child score
   * @param overviewShare the largest share of the budget the overview's summaries may take, in [0, 1]
   * @param overviewTemperature how fast the share shrinks as the prompt focuses on fewer top-level subtrees
   *     (relevance units, > 0; {@code Float.POSITIVE_INFINITY} gives every prompt the whole share)
   * @param format the context format whose costs the budget is counted in
   */
  public TreeCoverWalk(CapabilityScore capability, float overviewShare, float overviewTemperature,
      ContextFormat format) {
    if (!(overviewShare >= 0f && overviewShare <= 1f)) {
      throw new IllegalArgumentException("overview share must be in [0, 1], got " + overviewShare);
    }
    if (!(overviewTemperature > 0f)) {
      throw new IllegalArgumentException("overview temperature must be > 0, got " + overviewTemperature);
    }
    this.capability = capability;
    this.overviewShare = overviewShare;
    this.overviewTemperature = overviewTemperature;
    this.format = format;
  }

  /**
   * Walks the tree for one prompt.
   *
   * @param tree the snapshot
   * @param leafRelevance per leaf, how much the prompt cares about it (length {@code tree.leafCount()})
   * @param query the prompt's unit embedding
   * @param budget the token budget, >= 0
   */
  public Cover walk(Tree tree, float[] leafRelevance, float[] query, int budget) {
    return walk(tree, leafRelevance, leafRelevance, query, budget);
  }

  /**
   * Walks the tree for one prompt whose selection order was changed after relevance was computed (the
   * second hop, intentional clustering): {@code breadthRelevance} is the prompt's own relevance, from which
   * the overview's breadth is measured; {@code leafRelevance} orders the walk.
   */
  public Cover walk(Tree tree, float[] leafRelevance, float[] breadthRelevance, float[] query, int budget) {
    if (breadthRelevance.length != leafRelevance.length) {
      throw new IllegalArgumentException("breadth relevance has " + breadthRelevance.length + " entries for "
          + leafRelevance.length + " leaves");
    }
    int n = tree.size();
    if (leafRelevance.length != tree.leafCount()) {
      throw new IllegalArgumentException(
          "leaf relevance has " + leafRelevance.length + " entries for " + tree.leafCount() + " leaves");
    }
    if (budget < 0) {
      throw new IllegalArgumentException("budget must be >= 0, got " + budget);
    }
    if (n == 0) {
      return new Cover(List.of(), 0, true, 0, 0);
    }
    int leaves = tree.leafCount();
    float[] care = new float[n];
    int[] cost = new int[n];
    int[] minCost = new int[n];
    Arrays.fill(care, leaves, n, Float.NEGATIVE_INFINITY);
    Arrays.fill(minCost, leaves, n, Integer.MAX_VALUE);
    for (int v = 0; v < n; v++) {
      cost[v] = format.cost(tree, v);
      if (v < leaves) {
        care[v] = leafRelevance[v];
        minCost[v] = cost[v];
      }
      int p = tree.parent(v);
      if (p >= 0) {
        if (care[v] > care[p]) {
          care[p] = care[v];
        }
        if (minCost[v] < minCost[p]) {
          minCost[p] = minCost[v];
        }
      }
    }
    State s = new State(tree, cost, budget);
    int root = tree.root();
    if (tree.isLeaf(root)) {
      if (cost[root] <= budget) {
        s.show(root);
        s.markCovered(root);
      }
      return s.finish(0, 0);
    }
    if (cost[root] <= budget) {
      s.show(root);
    }
    int pops = 0;
    int scored = 0;
    float[] scoreBuf = new float[n];
    Heap heap = new Heap(Math.min(n, 1024));
    float rootDot = tree.embeddingDot(root, query);
    int[] top = new int[tree.childCount(root)];
    for (int i = 0; i < top.length; i++) {
      int c = tree.child(root, i);
      top[i] = c;
      scoreBuf[c] = capability.score(tree, c, care[c], rootDot, query);
      scored++;
    }
    // Overview: top-level summaries in capability order, within their share of the budget.
    float[] breadthCare = care;
    if (breadthRelevance != leafRelevance) {
      breadthCare = new float[n];
      Arrays.fill(breadthCare, leaves, n, Float.NEGATIVE_INFINITY);
      System.arraycopy(breadthRelevance, 0, breadthCare, 0, leaves);
      for (int v = 0; v < n; v++) {
        int p = tree.parent(v);
        if (p >= 0 && breadthCare[v] > breadthCare[p]) {
          breadthCare[p] = breadthCare[v];
        }
      }
    }
    int overviewCap = (int) Math.floor(overviewShare * breadth(top, breadthCare) * budget);
    int overviewUsed = 0;
    Integer[] byScore = new Integer[top.length];
    for (int i = 0; i < top.length; i++) {
      byScore[i] = top[i];
    }
    Arrays.sort(byScore, (a, b) -> {
      int cmp = Float.compare(scoreBuf[b], scoreBuf[a]);
      return cmp != 0 ? cmp : Integer.compare(a, b);
    });
    for (int c : byScore) {
      if (!tree.isLeaf(c) && overviewUsed + cost[c] <= overviewCap && s.fits(cost[c])) {
        overviewUsed += cost[c];
        s.show(c);
        s.markCovered(c);
      }
    }
    for (int c : top) {
      heap.push(scoreBuf[c], c);
    }
    int globalMin = minCost[root];
    while (!heap.isEmpty() || !s.requeue.isEmpty()) {
      // A carried summary no longer shows the leaves it quoted: they compete again.
      for (int i = 0; i < s.requeue.size(); i++) {
        int q = s.requeue.get(i);
        heap.push(care[q], q);
      }
      s.requeue.clear();
      int v = heap.popNode();
      pops++;
      int remaining = budget - s.used;
      if (remaining < globalMin) {
        break;
      }
      if (minCost[v] > remaining || (s.covered[v] && tree.isLeaf(v))) {
        continue;
      }
      if (tree.isLeaf(v)) {
        if (!s.quotedByShownAncestor(v) && cost[v] <= remaining) {
          s.show(v);
          s.markCovered(v);
        }
        continue;
      }
      float pDot = tree.embeddingDot(v, query);
      for (int i = 0, k = tree.childCount(v); i < k; i++) {
        int c = tree.child(v, i);
        if (!s.covered[c] || !tree.isLeaf(c)) {
          heap.push(capability.score(tree, c, care[c], pDot, query), c);
          scored++;
        }
      }
    }
    return s.finish(pops, scored);
  }

  /** The prompt's breadth over the top-level subtrees, in (0, 1]; see the class comment. */
  float breadth(int[] top, float[] care) {
    if (top.length == 0 || Float.isInfinite(overviewTemperature)) {
      return 1f;
    }
    float max = Float.NEGATIVE_INFINITY;
    for (int c : top) {
      max = Math.max(max, care[c]);
    }
    double sum = 0;
    for (int c : top) {
      sum += Math.exp((care[c] - max) / overviewTemperature);
    }
    return (float) (sum / top.length);
  }

  /** Mutable per-call state of the walk. */
  private static final class State {
    final Tree tree;
    final int[] cost;
    final int budget;
    final boolean[] shown;
    final boolean[] covered;
    final int[] coveredChildren;
    /** Leaves quoted by a summary that was just carried; the walk pushes them back on the heap. */
    final List<Integer> requeue = new ArrayList<>();
    int used;

    State(Tree tree, int[] cost, int budget) {
      this.tree = tree;
      this.cost = cost;
      this.budget = budget;
      int n = tree.size();
      this.shown = new boolean[n];
      this.covered = new boolean[n];
      this.coveredChildren = new int[n];
    }

    boolean fits(int c) {
      return used + c <= budget;
    }

    void show(int v) {
      shown[v] = true;
      used += cost[v];
    }

    /** Marks {@code v} covered and carries every ancestor whose children are now all covered. */
    void markCovered(int v) {
      if (covered[v]) {
        return;
      }
      covered[v] = true;
      int p = tree.parent(v);
      while (p >= 0) {
        coveredChildren[p]++;
        if (coveredChildren[p] < tree.childCount(p)) {
          return;
        }
        if (shown[p]) { // carried: its children stand for it
          shown[p] = false;
          used -= cost[p];
          for (int i = 0, k = tree.sourceCount(p); i < k; i++) {
            if (!covered[tree.source(p, i)]) {
              requeue.add(tree.source(p, i));
            }
          }
        }
        if (covered[p]) {
          return; // a shown node counted as covered already
        }
        covered[p] = true;
        p = tree.parent(p);
      }
    }

    /** True when leaf {@code v}'s whole text is inside a shown ancestor's summary. */
    boolean quotedByShownAncestor(int v) {
      for (int a = tree.parent(v); a >= 0; a = tree.parent(a)) {
        if (shown[a]) {
          for (int i = 0, k = tree.sourceCount(a); i < k; i++) {
            if (tree.source(a, i) == v) {
              return true;
            }
          }
        }
      }
      return false;
    }

    Cover finish(int pops, int scored) {
      List<Cover.Item> items = new ArrayList<>();
      collect(tree.root(), 0, items);
      int root = tree.root();
      boolean complete = shown[root] || covered[root];
      return new Cover(List.copyOf(items), used, complete, pops, scored);
    }

    private void collect(int v, int depth, List<Cover.Item> out) {
      int childDepth = depth;
      if (shown[v]) {
        out.add(new Cover.Item(v, depth, cost[v]));
        childDepth = depth + 1;
      }
      if (!tree.isLeaf(v)) {
        for (int i = 0, k = tree.childCount(v); i < k; i++) {
          collect(tree.child(v, i), childDepth, out);
        }
      }
    }
  }

  /** A binary max-heap of (score, node) in parallel primitive arrays; ties pop the smaller node first. */
  static final class Heap {
    private float[] scores;
    private int[] nodes;
    private int size;

    Heap(int capacity) {
      scores = new float[Math.max(4, capacity)];
      nodes = new int[scores.length];
    }

    boolean isEmpty() {
      return size == 0;
    }

    void push(float score, int node) {
      if (size == scores.length) {
        scores = Arrays.copyOf(scores, size * 2);
        nodes = Arrays.copyOf(nodes, size * 2);
      }
      int i = size++;
      while (i > 0) {
        int parent = (i - 1) >>> 1;
        if (!before(score, node, scores[parent], nodes[parent])) {
          break;
        }
        scores[i] = scores[parent];
        nodes[i] = nodes[parent];
        i = parent;
      }
      scores[i] = score;
      nodes[i] = node;
    }

    int popNode() {
      int top = nodes[0];
      size--;
      if (size > 0) {
        float s = scores[size];
        int nd = nodes[size];
        int i = 0;
        while (true) {
          int l = 2 * i + 1;
          if (l >= size) {
            break;
          }
          int r = l + 1;
          int best = (r < size && before(scores[r], nodes[r], scores[l], nodes[l])) ? r : l;
          if (!before(scores[best], nodes[best], s, nd)) {
            break;
          }
          scores[i] = scores[best];
          nodes[i] = nodes[best];
          i = best;
        }
        scores[i] = s;
        nodes[i] = nd;
      }
      return top;
    }

    private static boolean before(float s1, int n1, float s2, int n2) {
      return s1 > s2 || (s1 == s2 && n1 < n2);
    }
  }
}

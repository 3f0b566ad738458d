package dev.setree.internal.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The query-time walk that selects a tree cover within a token budget (SPEC "Query time"; the original
 * SETree design, docs/adr/0004-capability-score.md for the score and the overview).
 *
 * <p>Phases:
 * <ol>
 *   <li><b>Care.</b> For every node the walk reaches, the best leaf relevance under it ({@link NodeCare}: one
 *       ascending pass for exact relevance; the candidates' ancestors and a bound for candidate-driven
 *       relevance, see {@link LeafRelevance}). The cheapest leaf under each node and each node's cost come
 *       from the snapshot's {@link WalkTables}.
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
 * output depends only on the inputs. Per call it allocates only what the nodes it opens need (its per-node
 * flags live in per-thread scratch, see {@link CoverState}): it is thread-safe.
 */
public final class TreeCoverWalk {

  /**
   * On candidate-driven relevance, the most subtrees the walk opens on the strength of the bound alone (no
   * candidate under them reaches it). Past it they stay closed. Without the cap, filling the last tokens of
   * the budget opened thousands of such subtrees for one prompt in ten on 50,000 leaves, all tied at the
   * bound, to find one short leaf (docs/adr/0018).
   */
  public static final int MAX_BOUNDED_OPENS = 64;

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
    if (leafRelevance.length != tree.leafCount()) {
      throw new IllegalArgumentException(
          "leaf relevance has " + leafRelevance.length + " entries for " + tree.leafCount() + " leaves");
    }
    LeafRelevance order = LeafRelevance.of(leafRelevance);
    LeafRelevance breadth = breadthRelevance == leafRelevance ? order : LeafRelevance.of(breadthRelevance);
    return walk(tree, order, breadth, query, budget, WalkTables.of(tree, format));
  }

  /**
   * Walks the tree for one prompt with precomputed tables: the form a retriever uses, whose work then
   * follows the nodes the walk opens (and, for candidate-driven relevance, the candidates), not the size of
   * the knowledge base.
   *
   * @param relevance orders the walk
   * @param breadthRelevance the prompt's own relevance, for the overview's breadth (may be {@code relevance})
   * @param tables {@link WalkTables#of} this tree in this walk's format
   */
  public Cover walk(Tree tree, LeafRelevance relevance, LeafRelevance breadthRelevance, float[] query,
      int budget, WalkTables tables) {
    if (!tables.belongsTo(tree, format)) {
      throw new IllegalArgumentException("the walk tables belong to another tree or context format");
    }
    if (budget < 0) {
      throw new IllegalArgumentException("budget must be >= 0, got " + budget);
    }
    int n = tree.size();
    if (n == 0) {
      return new Cover(List.of(), 0, true, 0, 0);
    }
    NodeCare care = NodeCare.of(tree, relevance);
    int[] cost = tables.cost;
    int[] minCost = tables.minCost;
    CoverState s = new CoverState(tree, tables, budget);
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
    Heap heap = new Heap(Math.min(n, 1024));
    float rootDot = tree.embeddingDot(root, query);
    int[] top = new int[tree.childCount(root)];
    float[] topScore = new float[top.length];
    for (int i = 0; i < top.length; i++) {
      int c = tree.child(root, i);
      top[i] = c;
      topScore[i] = childScore(tree, c, care, rootDot, query);
      scored++;
    }
    // Overview: top-level summaries in capability order, within their share of the budget.
    NodeCare breadthCare = breadthRelevance == relevance ? care : NodeCare.of(tree, breadthRelevance);
    int overviewCap = (int) Math.floor(overviewShare * breadth(top, breadthCare) * budget);
    int overviewUsed = 0;
    Integer[] byScore = new Integer[top.length];
    for (int i = 0; i < top.length; i++) {
      byScore[i] = i;
    }
    Arrays.sort(byScore, (a, b) -> {
      int cmp = Float.compare(topScore[b], topScore[a]);
      return cmp != 0 ? cmp : Integer.compare(top[a], top[b]);
    });
    for (int i : byScore) {
      int c = top[i];
      if (!tree.isLeaf(c) && overviewUsed + cost[c] <= overviewCap && s.fits(cost[c])) {
        overviewUsed += cost[c];
        s.show(c);
        s.markCovered(c);
      }
    }
    for (int i = 0; i < top.length; i++) {
      heap.push(topScore[i], top[i]);
    }
    int globalMin = minCost[root];
    int boundedOpens = 0;
    while (!heap.isEmpty() || !s.requeue.isEmpty()) {
      // A carried summary no longer shows the leaves it quoted: they compete again.
      for (int i = 0; i < s.requeue.size(); i++) {
        int q = s.requeue.get(i);
        heap.push(care.of(q), q);
      }
      s.requeue.clear();
      int v = heap.popNode();
      pops++;
      int remaining = budget - s.used;
      if (remaining < globalMin) {
        break;
      }
      if (minCost[v] > remaining || (s.covered(v) && tree.isLeaf(v))) {
        continue;
      }
      if (tree.isLeaf(v)) {
        if (!s.quotedByShownAncestor(v) && cost[v] <= remaining) {
          s.show(v);
          s.markCovered(v);
        }
        continue;
      }
      if (care.bounded(v) && ++boundedOpens > MAX_BOUNDED_OPENS) {
        continue; // the candidate path's exploration cap (see the constant)
      }
      float pDot = tree.embeddingDot(v, query);
      for (int i = 0, k = tree.childCount(v); i < k; i++) {
        int c = tree.child(v, i);
        if (!s.covered(c) || !tree.isLeaf(c)) {
          heap.push(childScore(tree, c, care, pDot, query), c);
          scored++;
        }
      }
    }
    return s.finish(pops, scored);
  }

  /**
   * The capability score of child {@code c} of a node whose summary has dot product {@code parentDot} with the
   * prompt. A leaf's centroid is its embedding, so its cosine is computed once, for the score and for its care
   * (which, for a leaf that is not a candidate, is that cosine plus its words' and prior's share).
   */
  private float childScore(Tree tree, int c, NodeCare care, float parentDot, float[] query) {
    if (tree.isLeaf(c) && capability.readsCentroids()) {
      float cosine = tree.centroidDot(c, query);
      return capability.score(care.ofLeaf(c, cosine), cosine, parentDot);
    }
    return capability.score(tree, c, care.of(c), parentDot, query);
  }

  /** The prompt's breadth over the top-level subtrees, in (0, 1]; see the class comment. */
  float breadth(int[] top, NodeCare care) {
    if (top.length == 0 || Float.isInfinite(overviewTemperature)) {
      return 1f;
    }
    float max = Float.NEGATIVE_INFINITY;
    for (int c : top) {
      max = Math.max(max, care.of(c));
    }
    double sum = 0;
    for (int c : top) {
      sum += Math.exp((care.of(c) - max) / overviewTemperature);
    }
    return (float) (sum / top.length);
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

    /** Empties the heap, keeping its arrays. */
    void clear() {
      size = 0;
    }

    /** The score of the node {@link #popNode} would return. */
    float topScore() {
      return scores[0];
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

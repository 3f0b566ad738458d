package dev.setree.internal.maintain;

import dev.setree.internal.core.Tree;
import dev.setree.internal.core.Vectors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The mutable hierarchy a build or a maintenance run works on, before it is frozen into a {@link Tree}.
 * Nodes are objects here (clarity over speed: this is index time); the snapshot is plain arrays.
 */
final class DraftTree {
  final int dim;
  /** The leaves in order (add and remove them through this class: {@link #leafRows()} follows them). */
  final List<Node> leaves = new ArrayList<>();
  final List<Node> internal = new ArrayList<>();
  /** Every node of {@link #leaves} and {@link #internal} by id (kept with them: add and remove through this class). */
  final Map<String, Node> byId = new HashMap<>();
  private long nextOrder;
  /** The leaves' embeddings in one array, shared with the frozen tree and level 0 (ADR 0029). */
  private final LeafRows leafRows;

  DraftTree(int dim) {
    this.dim = dim;
    this.leafRows = new LeafRows(dim);
  }

  /** One node of a draft. */
  static final class Node {
    final String id;
    final boolean leaf;
    int level;
    Node parent;
    final List<Node> children = new ArrayList<>();
    /**
     * Sum of the embeddings of the leaves under the node (un-normalised leaf-centroid); read a leaf's through
     * {@link #sum()} (null while its embedding is a row of its tree, see {@link #embedding}).
     */
    float[] sum;
    String text;
    String time;
    /**
     * The embedding. Null for a leaf copied from a tree ({@link #of}) until a caller needs an array of it
     * ({@link #embedding()}): until then the leaf reads its row of the tree's leaf rows, which are never changed,
     * so that a copy of a large tree allocates no array per leaf (docs/adr/0023, amendment of 2026-12-03).
     */
    float[] embedding;
    /** For a leaf copied from a tree and not yet given its own array: the tree's leaf rows, and its row there. */
    private float[] rows;
    private int rowFrom;
    private int rowDim;
    int tokens;
    String kind;
    List<Node> sources = List.of();
    int faithfulness = Tree.UNKNOWN_FAITHFULNESS;
    /** Its children changed: it needs a new summary. */
    boolean structural;
    /** Its leaf-centroid changed: faithfulness must be recomputed. */
    boolean centroidChanged;
    long order;
    /** The children, and their sum arrays, of the last {@link #canonicalSum} of this node, and its result. */
    Node[] sumOf;
    float[][] sumOfSums;
    float[] sumResult;
    /** Its depth under the root and its wave of the summary pass (scratch of {@link SummaryPass}). */
    int depth;
    int wave;
    /** Its index in the snapshot {@link #toTree} is freezing (scratch; -1 when not in it). */
    int index = -1;
    /** The stamps of the {@link ParentPreservation} call that claimed it as a parent, and that carries it up. */
    long claimedBy;
    long nextBy;

    Node(String id, boolean leaf) {
      this.id = id;
      this.leaf = leaf;
    }

    /** The embedding, as an array of the node's own (a leaf copied from a tree gets it now, once). */
    float[] embedding() {
      if (embedding == null && rows != null) {
        embedding = Arrays.copyOfRange(rows, rowFrom, rowFrom + rowDim);
        sum = embedding;
        rows = null;
      }
      return embedding;
    }

    /** The sum of the leaves under the node: a leaf's is its embedding. */
    float[] sum() {
      return leaf ? embedding() : sum;
    }

    /** Adds the node's sum to {@code into} (a leaf's row is read where it is, without an array of its own). */
    void addSumTo(float[] into) {
      if (rows != null) {
        Vectors.addScaled(into, rows, rowFrom, into.length, 1f);
      } else {
        Vectors.addScaled(into, sum, 0, into.length, 1f);
      }
    }

    /** Copies the leaf-centroid into {@code into} at {@code at} (a leaf's row without an array of its own). */
    void copyCentroidInto(float[] into, int at, int dim) {
      if (rows != null) {
        System.arraycopy(rows, rowFrom, into, at, dim);
      } else {
        System.arraycopy(centroidShared(), 0, into, at, dim);
      }
    }

    /** The sum {@link #centroidCache} was normalised from (sum arrays are replaced, never changed in place). */
    private float[] centroidOf;
    private float[] centroidCache;

    /** The leaf-centroid: a leaf's own embedding, or the normalised sum (a copy the caller may change). */
    float[] centroid() {
      return centroidShared().clone();
    }

    /**
     * The leaf-centroid, computed once per sum array and shared: the caller must not change it. A rebuild
     * reads the centroid of every member of each dirty level, and most did not change.
     */
    float[] centroidShared() {
      if (leaf) {
        return embedding();
      }
      if (centroidOf != sum) {
        centroidCache = Vectors.normalize(sum.clone());
        centroidOf = sum;
      }
      return centroidCache;
    }

    @Override
    public String toString() {
      return id;
    }
  }

  Node addLeaf(String id, String text, String time, float[] embedding, int tokens) {
    return addLeaf(id, text, time, embedding, embedding.clone(), tokens);
  }

  /** A leaf whose sum is {@code sum} (the draft's own copy of the embedding; neither is changed in place). */
  private Node addLeaf(String id, String text, String time, float[] embedding, float[] sum, int tokens) {
    Node n = new Node(id, true);
    n.text = text;
    n.time = time;
    n.embedding = embedding;
    n.sum = sum;
    n.tokens = tokens;
    n.faithfulness = 100;
    n.order = nextOrder++;
    leaves.add(n);
    byId.put(id, n);
    return n;
  }

  /** A leaf copied from a tree: its embedding is row {@code row} of {@code rows}, the tree's leaf rows. */
  private Node addLeafRow(String id, String text, String time, float[] rows, int row, int tokens) {
    Node n = addLeaf(id, text, time, null, null, tokens);
    n.rows = rows;
    n.rowDim = dim;
    n.rowFrom = row * dim;
    return n;
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
    for (var it = leaves.iterator(); it.hasNext(); ) {
      Node leaf = it.next();
      if (ids.contains(leaf.id)) {
        if (leaf.parent != null) {
          leaf.parent.children.remove(leaf);
          leaf.parent.structural = true;
        }
        it.remove();
        byId.remove(leaf.id);
        removed++;
      }
    }
    if (removed > 0) {
      leafRows.leavesRemoved();
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

  Node addInternal(String id, int level) {
    Node n = new Node(id, false);
    n.level = level;
    n.sum = new float[dim];
    n.structural = true;
    n.centroidChanged = true;
    n.order = nextOrder++;
    internal.add(n);
    byId.put(id, n);
    return n;
  }

  /**
   * The order children are summed in, which is also their order in the frozen snapshot (leaves first, then
   * by level and creation order). Summing in one canonical order makes a centroid bit-identical however
   * the hierarchy was reached, so the rebuild's component-wise dirty check sees only real changes.
   */
  static final Comparator<Node> CANONICAL = DraftTree::canonicalOrder;

  /** {@link #CANONICAL}'s comparison: leaves first, then internal nodes by level, each by creation order. */
  private static int canonicalOrder(Node a, Node b) {
    if (a.leaf != b.leaf) {
      return a.leaf ? -1 : 1;
    }
    if (!a.leaf && a.level != b.level) {
      return Integer.compare(a.level, b.level);
    }
    return Long.compare(a.order, b.order);
  }

  /**
   * The sum of the children's sums, added in canonical order. The last sum computed for a node is kept
   * with the children and the children's sum arrays it was computed from, and returned again while they
   * are the same (sum arrays are replaced, never changed in place): a run asks for the sum of every
   * internal node several times and most do not change.
   */
  float[] canonicalSum(Node v) {
    List<Node> children = v.children;
    if (v.sumOf != null && v.sumOf.length == children.size()) {
      boolean same = true;
      for (int i = 0; i < v.sumOf.length && same; i++) {
        Node c = children.get(i);
        same = v.sumOf[i] == c && (c.leaf || v.sumOfSums[i] == c.sum); // a leaf's sum never changes
      }
      if (same) {
        return v.sumResult;
      }
    }
    List<Node> kids = children;
    for (int i = 1; i < children.size(); i++) {
      if (canonicalOrder(children.get(i - 1), children.get(i)) > 0) { // else already in order (a copied tree's are)
        kids = new ArrayList<>(children);
        kids.sort(CANONICAL);
        break;
      }
    }
    float[] s = new float[dim];
    for (Node c : kids) {
      c.addSumTo(s);
    }
    v.sumOf = children.toArray(new Node[0]);
    v.sumOfSums = new float[v.sumOf.length][];
    for (int i = 0; i < v.sumOf.length; i++) {
      v.sumOfSums[i] = v.sumOf[i].sum;
    }
    v.sumResult = s;
    return s;
  }

  /** Makes {@code parent} the parent of {@code child} (detaching it from any previous parent). */
  static void attach(Node child, Node parent) {
    if (child.parent != null) {
      child.parent.children.remove(child);
    }
    child.parent = parent;
    parent.children.add(child);
  }

  /** Recomputes every internal node's leaf sum bottom-up and flags the nodes whose centroid changed. */
  void recomputeSums() {
    List<Node> byLevel = new ArrayList<>(internal);
    byLevel.sort(Comparator.comparingInt((Node n) -> n.level).thenComparingLong(n -> n.order));
    for (Node n : byLevel) {
      float[] s = canonicalSum(n);
      if (!java.util.Arrays.equals(s, n.sum)) {
        n.centroidChanged = true;
        n.sum = s;
      }
    }
  }

  /** Drops internal nodes that lost all children, bottom-up. */
  void pruneEmpty() {
    boolean changed = true;
    while (changed) {
      changed = false;
      for (var it = internal.iterator(); it.hasNext(); ) {
        Node n = it.next();
        if (n.children.isEmpty()) {
          if (n.parent != null) {
            n.parent.children.remove(n);
            n.parent.structural = true;
          }
          it.remove();
          byId.remove(n.id);
          changed = true;
        }
      }
    }
  }

  /** The root: the only node without a parent (leaves included when there is no internal node). */
  Node root() {
    Node root = null;
    for (Node n : internal) {
      if (n.parent == null) {
        if (root != null) {
          throw new IllegalStateException("two roots: " + root + " and " + n);
        }
        root = n;
      }
    }
    return root;
  }

  /**
   * Sets every node's creation order to its index in the snapshot {@link #toTree} last froze, and the next
   * node's after them: the orders {@link #of} gives a copy of that snapshot. Clears the leaves' flags in the
   * same pass.
   */
  void renumberByIndex() {
    for (Node n : leaves) {
      n.order = n.index;
      n.structural = false;
      n.centroidChanged = false;
    }
    for (Node n : internal) {
      n.order = n.index;
    }
    nextOrder = leaves.size() + internal.size();
  }

  /** Freezes the draft into a snapshot: leaves in order, then internal nodes by level, root last. */
  Tree toTree() {
    List<Node> order = new ArrayList<>(leaves);
    List<Node> inner = new ArrayList<>(internal);
    inner.sort(Comparator.comparingInt((Node n) -> n.level).thenComparingLong(n -> n.order));
    Node root = root();
    if (root != null) {
      inner.remove(root);
      inner.add(root);
    }
    order.addAll(inner);
    int n = order.size();
    for (int i = 0; i < n; i++) {
      order.get(i).index = i;
    }
    String[] ids = new String[n];
    String[] texts = new String[n];
    String[] times = new String[n];
    String[] kinds = new String[n];
    int[] tokens = new int[n];
    int[] level = new int[n];
    int[] parent = new int[n];
    float[] leafEmbeddings = leafRows();
    float[] internalEmbeddings = new float[(n - leaves.size()) * dim];
    float[] centroids = new float[(n - leaves.size()) * dim];
    int[] faith = new int[n];
    int[][] sources = new int[n][];
    for (int i = 0; i < n; i++) {
      Node v = order.get(i);
      ids[i] = v.id;
      texts[i] = v.text;
      times[i] = v.time;
      kinds[i] = v.kind;
      tokens[i] = v.tokens;
      level[i] = v.leaf ? 0 : v.level;
      parent[i] = v.parent == null ? -1 : v.parent.index;
      if (!v.leaf) {
        System.arraycopy(v.embedding, 0, internalEmbeddings, (i - leaves.size()) * dim, dim);
        System.arraycopy(v.centroidShared(), 0, centroids, (i - leaves.size()) * dim, dim);
      }
      faith[i] = v.faithfulness;
      int[] src = new int[v.sources.size()];
      for (int s = 0; s < src.length; s++) {
        src[s] = v.sources.get(s).index;
      }
      sources[i] = src;
    }
    return new Tree(dim, leaves.size(), ids, texts, times, kinds, tokens, level, parent, leafEmbeddings,
        internalEmbeddings, centroids, faith, sources);
  }

  /** A draft holding a snapshot's nodes, summaries and all; nothing flagged. */
  static DraftTree of(Tree t) {
    DraftTree d = new DraftTree(t.dimension());
    Node[] nodes = new Node[t.size()];
    for (int v = 0; v < t.size(); v++) {
      Node n;
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
      }
      nodes[v] = n;
    }
    for (int v = 0; v < t.size(); v++) {
      if (t.parent(v) >= 0) {
        attach(nodes[v], nodes[t.parent(v)]);
      }
    }
    for (int v = t.leafCount(); v < t.size(); v++) {
      List<Node> src = new ArrayList<>();
      for (int i = 0; i < t.sourceCount(v); i++) {
        src.add(nodes[t.source(v, i)]);
      }
      nodes[v].sources = src;
    }
    // Internal sums bottom-up (children have smaller indexes), in canonical order.
    for (int v = t.leafCount(); v < t.size(); v++) {
      nodes[v].sum = d.canonicalSum(nodes[v]);
    }
    for (Node n : d.internal) {
      n.centroidChanged = false;
    }
    d.leafRows.adopt(t.leafEmbeddings(), t.leafCount()); // the leaves are the tree's, in its order
    return d;
  }
}

package dev.setree.internal.core;

import java.util.ArrayList;
import java.util.List;

/**
 * An immutable snapshot of one knowledge base's summary hierarchy, in plain arrays for the walk's speed.
 *
 * <p>Nodes are numbered {@code 0..size()-1}. Leaves come first ({@code 0..leafCount()-1}, in fact order),
 * then internal nodes in creation order; every node's parent has a larger number than the node, so an
 * ascending pass visits children before parents, and the root is the last node. Children are kept in tree
 * order (by their first leaf), which is also the order of the rendered context.
 *
 * <p>Per node: text (the leaf verbatim, or the summary), its token count, its embedding (a leaf's own
 * embedding, or the summary's embedding), and for internal nodes the leaf-centroid (normalised mean of the
 * leaf embeddings under it), {@linkplain #loss(int) loss}, {@linkplain #faithfulness(int) faithfulness},
 * subtree depth and leaf count. Fidelity is derived: {@code centroid - summaryEmbedding}.
 *
 * <p>A snapshot never changes after construction; maintenance replaces it whole. It is safe to share
 * between threads. The arrays passed to the constructor are taken over, not copied; a tree a maintenance run froze
 * shares its leaves' rows and its internal nodes' rows ({@link InternalRows}) with the trees frozen before it, and
 * reads only rows that are never written again.
 */
public final class Tree {
  /** Marker for an unknown faithfulness. */
  public static final int UNKNOWN_FAITHFULNESS = Integer.MIN_VALUE;
  /** A leaf's faithfulness as a build or a run gives it: its text is itself (a plain leaf, {@link #leavesPlain}). */
  public static final int LEAF_FAITHFULNESS = 100;

  private final int dim;
  private final int leafCount;
  /** Ids, texts, time stamps and token counts; the leaves' shared with later trees by a maintenance run. */
  private final NodeTexts texts;
  private final int[] parent;
  /** Summariser kinds, levels, faithfulness and losses: per node, or per internal node when every leaf is plain. */
  private final InternalColumns columns;
  /** Internal node v's children at {@code children[childOffsets[v - leafCount] ..]} ({@link ChildLists}). */
  private final int[] childOffsets;
  private final int[] children;
  /** {@code leafCount * dim}: row v is leaf v's embedding (shared with the oracle's level 0 where it can be). */
  private final float[] leafEmbeddings;
  /** The internal nodes' summary embeddings and centroids: internal node v's at offset v - leafCount. */
  private final InternalRows internal;
  private final int[] subtreeDepth;
  private final int[] leavesUnder;
  private final SourceLists sources;
  /** Each node's index by id: a maintenance run builds a tree per run and looks many ids up. */
  private final NodeIds byId;

  /**
   * Creates a snapshot from its arrays, the embeddings of every node in one array ({@code size * dim}: leaf
   * embedding or summary embedding), copied into the leaves' and the internal nodes' arrays of the next
   * constructor; every other array is taken over.
   */
  public Tree(int dim, int leafCount, String[] ids, String[] texts, String[] times, String[] summarizerKinds,
      int[] tokens, int[] level, int[] parent, float[] embeddings, float[] internalCentroids, int[] faithfulness,
      int[][] sourceLeafIndex) {
    this(dim, leafCount, ids, texts, times, summarizerKinds, tokens, level, parent,
        TreeChecks.leafRows(embeddings, leafCount, ids.length, dim),
        java.util.Arrays.copyOfRange(embeddings, Math.min(embeddings.length, leafCount * dim), embeddings.length),
        internalCentroids, faithfulness, sourceLeafIndex);
  }

  /**
   * Creates a snapshot from its arrays (taken over, not copied) and checks its structural invariants.
   *
   * @param dim embedding dimension
   * @param leafCount number of leaves (the first {@code leafCount} nodes)
   * @param ids node ids, unique
   * @param texts leaf text or summary text per node
   * @param times leaf time stamps (null entries allowed; may be null for none)
   * @param summarizerKinds per node, the summariser that wrote it (null for leaves)
   * @param tokens token count of each text
   * @param level 0 for leaves, clustering level for internal nodes
   * @param parent parent index, -1 for the root
   * @param leafEmbeddings at least {@code leafCount * dim}: the leaves' embeddings, row v at {@code v * dim} (may be
   *     shared with the oracle's level 0 and with later trees: none changes these rows; spare rows after them
   *     belong to whoever extends the array next, and this tree never reads them)
   * @param internalEmbeddings {@code (size - leafCount) * dim}: the internal nodes' summary embeddings
   * @param internalCentroids {@code (size - leafCount) * dim}: leaf-centroids of internal nodes
   * @param faithfulness per node; {@link #UNKNOWN_FAITHFULNESS} when unknown (leaves: 100)
   * @param sourceLeafIndex per node (or per internal node), the leaves quoted whole in its summary (may be null)
   */
  public Tree(int dim, int leafCount, String[] ids, String[] texts, String[] times, String[] summarizerKinds,
      int[] tokens, int[] level, int[] parent, float[] leafEmbeddings, float[] internalEmbeddings,
      float[] internalCentroids, int[] faithfulness, int[][] sourceLeafIndex) {
    this(dim, leafCount, ids, texts, times, summarizerKinds, tokens, level, parent, leafEmbeddings,
        InternalRows.dense(internalEmbeddings, internalCentroids, Math.max(0, ids.length - leafCount), dim),
        faithfulness, sourceLeafIndex, null, null, null);
  }

  /**
   * As the constructor above, for a maintenance run's freeze: the internal nodes' rows may be shared with the trees
   * frozen before ({@link InternalRows}), and each node's {@link #loss} may be known already, with the tree before.
   * {@code knownLoss[v]}, unless it is NaN, is taken as node v's loss instead of being computed from its rows (the
   * nodes whose summary embedding and centroid the run did not replace); taken over, null computes every loss.
   * {@code leadingLeaves}: null, or a tree whose leaves are this tree's first leaves, at the same indexes with the
   * same ids and texts (a run that kept every old leaf in place, ADR 0034): its leaf index is extended by the new
   * leaves, not made again, and its leaves' texts are not checked again. {@code shape}: null, or what a freeze knows
   * of the shape from such a tree ({@link ShapeFrom}), whose child lists, sizes and quoted leaves are copied where
   * they stay. {@code summarizerKinds}, {@code level}, {@code faithfulness} and {@code knownLoss} are per node, or all
   * per internal node ({@code size - leafCount} long), every leaf then plain: no summariser kind, level 0,
   * faithfulness 100, loss 0 ({@link InternalColumns}).
   */
  public Tree(int dim, int leafCount, String[] ids, String[] texts, String[] times, String[] summarizerKinds,
      int[] tokens, int[] level, int[] parent, float[] leafEmbeddings, InternalRows internalRows,
      int[] faithfulness, int[][] sourceLeafIndex, float[] knownLoss, Tree leadingLeaves, ShapeFrom shape) {
    this(dim, NodeTexts.perNode(leafCount, ids, texts, times, tokens, parent), summarizerKinds, level, parent,
        leafEmbeddings, internalRows, faithfulness, sourceLeafIndex, knownLoss, leadingLeaves, shape);
  }

  /**
   * As the constructor above, for a maintenance run's freeze: the leaves' ids, texts, time stamps and token counts in
   * {@code leaves}, shared with the trees frozen before and after (ADR 0050: this tree reads its first
   * {@code leafCount} entries only), the internal nodes' in arrays of their own ({@code size - leafCount} long,
   * internal node v's at {@code v - leafCount}; an internal node has no time stamp). {@code parent} and
   * {@code sourceLeafIndex} are as above; so are the other arrays.
   */
  public Tree(int dim, int leafCount, LeafTexts leaves, String[] internalIds, String[] internalTexts,
      int[] internalTokens, String[] summarizerKinds, int[] level, int[] parent, float[] leafEmbeddings,
      InternalRows internalRows, int[] faithfulness, int[][] sourceLeafIndex, float[] knownLoss, Tree leadingLeaves,
      ShapeFrom shape) {
    this(dim, new NodeTexts(leafCount, leaves, internalIds, internalTexts, null, internalTokens), summarizerKinds,
        level, parent, leafEmbeddings, internalRows, faithfulness, sourceLeafIndex, knownLoss, leadingLeaves, shape);
  }

  private Tree(int dim, NodeTexts texts, String[] summarizerKinds, int[] level, int[] parent, float[] leafEmbeddings,
      InternalRows internalRows, int[] faithfulness, int[][] sourceLeafIndex, float[] knownLoss, Tree leadingLeaves,
      ShapeFrom shape) {
    int n = texts.size();
    int leafCount = texts.leafCount();
    this.dim = dim;
    this.leafCount = leafCount;
    this.texts = texts;
    this.parent = parent;
    this.leafEmbeddings = leafEmbeddings;
    this.internal = internalRows;
    TreeChecks.rows(n, leafCount, dim, leafEmbeddings, internalRows);
    this.columns = new InternalColumns(n, leafCount, summarizerKinds, level, faithfulness, knownLoss);
    this.byId = NodeIds.of(texts.leaves().ids, leafCount, texts.internalIds(),
        leadingLeaves == null ? null : leadingLeaves.byId,
        shape != null && shape.base() == leadingLeaves ? shape.previous() : null);
    TreeChecks.textsAndParents(texts, parent, leadingLeaves == null ? 0 : leadingLeaves.leafCount);
    ChildLists lists = shape == null ? ChildLists.inTreeOrder(parent, leafCount)
        : ChildLists.derived(shape, parent, leafCount);
    this.childOffsets = lists.offsets();
    this.children = lists.children();
    TreeChecks.everyInternalHasChildren(lists, texts);
    SubtreeSizes sizes = shape == null ? SubtreeSizes.of(lists, leafCount, n)
        : SubtreeSizes.derived(shape, lists, leafCount, n);
    this.leavesUnder = sizes.leaves();
    this.subtreeDepth = sizes.depths();
    columns.fillLosses(leafCount, n, knownLoss != null, internal, dim);
    this.sources = shape == null ? SourceLists.of(sourceLeafIndex, n, leafCount, texts::id)
        : SourceLists.derived(shape, sourceLeafIndex, n, leafCount, texts::id);
  }

  /** The empty tree of the given dimension: no leaves, no root. */
  public static Tree empty(int dim) {
    return new Tree(dim, 0, new String[0], new String[0], null, null, new int[0], new int[0], new int[0],
        new float[0], new float[0], new int[0], null);
  }

  /** Number of nodes. */
  public int size() {
    return texts.size();
  }

  /** True when the knowledge base holds no leaf. */
  public boolean isEmpty() {
    return texts.size() == 0;
  }

  /** Number of leaves; leaves are nodes {@code 0..leafCount()-1}. */
  public int leafCount() {
    return leafCount;
  }

  /** The root's index, or -1 for an empty tree. */
  public int root() {
    return texts.size() - 1;
  }

  /** Embedding dimension. */
  public int dimension() {
    return dim;
  }

  /** True when {@code v} is a leaf. */
  public boolean isLeaf(int v) {
    return v < leafCount;
  }

  /** The node's id (a leaf's fact id). */
  public String id(int v) {
    return texts.id(v);
  }

  /** The node's index for an id, or -1 (also for null). */
  public int indexOf(String id) {
    return byId.indexOf(id);
  }

  /**
   * The node's index for an id, looked for at {@code hint} first: for a caller that walks two versions of a
   * tree in order, where nodes keep their relative order and the hint (one past the last match) is usually
   * right, so no lookup is needed.
   */
  public int indexOf(String id, int hint) {
    return byId.indexOf(id, hint);
  }

  /** The leaf's text or the internal node's summary. */
  public String text(int v) {
    return texts.text(v);
  }

  /** The leaf's time stamp, or null. */
  public String time(int v) {
    return texts.time(v);
  }

  /** The summariser kind that wrote an internal node's summary (null for leaves). */
  public String summarizerKind(int v) {
    return columns.kind(v);
  }

  /** Token count of {@link #text(int)}. */
  public int tokens(int v) {
    return texts.tokens(v);
  }

  /** 0 for leaves; the clustering level at which an internal node was created. */
  public int level(int v) {
    return columns.level(v);
  }

  /** Parent index, -1 for the root. */
  public int parent(int v) {
    return parent[v];
  }

  /** The child lists, for a tree derived from this one ({@link ShapeFrom}). */
  ChildLists childLists() {
    return new ChildLists(leafCount, childOffsets, children);
  }

  /** The quoted leaves, for a tree derived from this one ({@link ShapeFrom}). */
  SourceLists sourceLists() {
    return sources;
  }

  /** The leaves under each node and its depth, for a tree derived from this one ({@link ShapeFrom}). */
  SubtreeSizes sizes() {
    return new SubtreeSizes(leavesUnder, subtreeDepth);
  }

  /** Number of children. */
  public int childCount(int v) {
    return v < leafCount ? 0 : childOffsets[v - leafCount + 1] - childOffsets[v - leafCount];
  }

  /** The {@code i}-th child in tree order. */
  public int child(int v, int i) {
    return children[childOffsets[v - leafCount] + i];
  }

  /** Longest path from {@code v} down to a leaf (0 for leaves). */
  public int subtreeDepth(int v) {
    return v < leafCount ? 0 : subtreeDepth[v - leafCount];
  }

  /** Number of leaves under {@code v} (1 for a leaf). */
  public int leavesUnder(int v) {
    return v < leafCount ? 1 : leavesUnder[v - leafCount];
  }

  /**
   * Raw storage of the leaves' embeddings (row v, leaf v's, at {@code v * dim}; the array may be longer than
   * {@code leafCount * dim}: read no further); do not modify. The oracle's level 0 may hold the same array as its
   * centroids.
   */
  public float[] leafEmbeddings() {
    return leafEmbeddings;
  }

  /** The internal nodes' summary embeddings and centroids (internal node v's at {@code v - leafCount()}). */
  public InternalRows internalRows() {
    return internal;
  }

  /** A copy of node v's embedding (a leaf's, or its summary's). */
  public float[] embedding(int v) {
    return v < leafCount ? Vectors.row(leafEmbeddings, v, dim)
        : Vectors.row(internal.embeddings(), internal.row(v - leafCount), dim);
  }

  /** A copy of the node's leaf-centroid (a leaf's own embedding for leaves). */
  public float[] centroid(int v) {
    return v < leafCount ? embedding(v) : Vectors.row(internal.centroids(), internal.row(v - leafCount), dim);
  }

  /** Dot product of {@code q} with the node's leaf-centroid (a retrieve's: {@link SimdDot}). */
  public float centroidDot(int v, float[] q) {
    return v < leafCount ? SimdDot.dot(leafEmbeddings, v * dim, q, 0, dim)
        : SimdDot.dot(internal.centroids(), internal.offset(v - leafCount), q, 0, dim);
  }

  /** Dot product of {@code q} with the node's own embedding (summary embedding for internal nodes; {@link SimdDot}). */
  public float embeddingDot(int v, float[] q) {
    return v < leafCount
        ? SimdDot.dot(leafEmbeddings, v * dim, q, 0, dim)
        : SimdDot.dot(internal.embeddings(), internal.offset(v - leafCount), q, 0, dim);
  }

  /**
   * Fidelity of an internal node: the vector {@code centroid - summaryEmbedding} by which its summary
   * drifts from the leaves it stands for (zero for leaves).
   */
  public float[] fidelity(int v) {
    float[] f = new float[dim];
    for (int i = 0, at = v < leafCount ? 0 : internal.offset(v - leafCount); v >= leafCount && i < dim; i++) {
      f[i] = internal.centroids()[at + i] - internal.embeddings()[at + i];
    }
    return f;
  }

  /** Loss: the length of the fidelity vector, {@code sqrt(2 - 2 cos(summary, centroid))}, in [0, 2]. */
  public float loss(int v) {
    return columns.loss(v);
  }

  /** Faithfulness: {@code round(100 * cos(summary, centroid))} in [-100, 100], or {@link #UNKNOWN_FAITHFULNESS}. */
  public int faithfulness(int v) {
    return columns.faithfulness(v);
  }

  /** Number of leaves quoted whole in the summary of {@code v}. */
  public int sourceCount(int v) {
    return sources.count(v);
  }

  /** Whether nodes {@code 0..count-1} have the ids {@code ids[0..count-1]}, in that order. */
  public boolean startsWithIds(String[] ids, int count) {
    return texts.startsWith(ids, count);
  }

  /** The leaves quoted whole in the summary of {@code v}, in order: a new array (empty when it quotes none). */
  public int[] sources(int v) {
    return sources.copy(v);
  }

  /** The leaves' ids, texts, times and tokens, for a run to extend (ADR 0050): read its leaves' entries only. */
  public LeafTexts leafTexts() {
    return texts.leaves();
  }

  /**
   * Copies the parents (indexes in this tree) of nodes {@code from..from+count-1} into {@code parent} from index
   * {@code at}, and their kinds, levels, faithfulness and losses into arrays holding the nodes from {@code into} on
   * ({@link InternalColumns}).
   */
  public void copyColumns(int from, int count, int at, int[] parent, int into, String[] summarizerKinds, int[] level,
      int[] faithfulness, float[] loss) {
    System.arraycopy(this.parent, from, parent, at, count);
    columns.copyTo(from, count, at, into, summarizerKinds, level, faithfulness, loss);
  }

  /** Copies the ids, texts, tokens of internal nodes {@code from..from+count-1} to arrays per internal node. */
  public void copyInternalTexts(int from, int count, int at, String[] ids, String[] texts, int[] tokens) {
    this.texts.copyInternal(from - leafCount, count, at, ids, texts, tokens);
  }

  /** Whether every leaf has no summariser kind, level 0 and {@link #LEAF_FAITHFULNESS} ({@link InternalColumns}). */
  public boolean leavesPlain() {
    return columns.leavesPlain(leafCount);
  }

  /** Whether summariser kinds, levels, faithfulness and losses are kept per internal node only (a run's freeze). */
  public boolean leafColumnsOmitted() {
    return columns.from() > 0;
  }

  /** The {@code i}-th leaf quoted whole in the summary of {@code v}. */
  public int source(int v, int i) {
    return sources.get(v, i);
  }

  /** The leaves under {@code v}, in tree order. */
  public List<Integer> leavesOf(int v) {
    List<Integer> out = new ArrayList<>(leavesUnder(v));
    TreeOrder.collectLeaves(this, v, out);
    return out;
  }

  /** Depth of the tree: the root's subtree depth (0 for an empty tree). */
  public int depth() {
    return isEmpty() ? 0 : subtreeDepth(root());
  }
}

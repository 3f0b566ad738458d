package dev.setree.internal.maintain;

import dev.setree.internal.core.Tree;
import dev.setree.internal.core.Vectors;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** One node of a {@link DraftTree}: a leaf or an internal node, with its summary, sum and scratch fields. */
final class DraftNode {
  final String id;
  final boolean leaf;
  /**
   * Whether this leaf was removed from its draft ({@link DraftTree#removeLeaves}): a level's record that still names
   * it names a node no longer in the draft, which may hold another leaf of its id since.
   */
  boolean removed;
  int level;
  DraftNode parent;
  final List<DraftNode> children = new ArrayList<>();
  /**
   * Sum of the embeddings of the leaves under the node (un-normalised leaf-centroid); read a leaf's through
   * {@link #sum()} (null while its embedding is a row of its tree, see {@link #embedding}).
   */
  float[] sum;
  String text;
  String time;
  /**
   * The embedding. Null for a leaf copied from a tree ({@link DraftTree#of}) until a caller needs an array of it
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
  List<DraftNode> sources = List.of();
  int faithfulness = Tree.UNKNOWN_FAITHFULNESS;
  /** Its children changed: it needs a new summary. */
  boolean structural;
  /** Its leaf-centroid changed: faithfulness must be recomputed. */
  boolean centroidChanged;
  /**
   * It was given a child ({@link DraftTree#attach}) since its kept draft was last settled: its children may be out
   * of the tree's order.
   */
  boolean childAdded;
  long order;
  /** The children, and their sum arrays, of the last {@link #canonicalSum} of this node, and its result. */
  DraftNode[] sumOf;
  float[][] sumOfSums;
  float[] sumResult;
  /** Its depth under the root and its wave of the summary pass (scratch of {@link SummaryPass}). */
  int depth;
  int wave;
  /** The stamps of the {@link SummaryWaves#changed} call that marked it for a look, and that set its wave. */
  long dirtyMark;
  long waveMark;
  /**
   * What an ancestor's summary request needs of this internal node's subtree, kept while nothing under it changes, or
   * null ({@link LeavesUnder}).
   */
  LeavesUnder.Parts below;
  /** What this internal node's last relevance scan found, for its next one ({@link RelevanceMemo}), or null. */
  RelevanceMemo relevance;
  /**
   * Where it is in the snapshot {@link DraftTree#toTree} froze last or is freezing (scratch; -1 when not in it): a
   * leaf's index there; an internal node's place among the internal nodes (its index less the leaf count), so that a
   * run that adds leaves and splices a few internal nodes in does not change it for the internal nodes before the
   * first one made or dropped ({@link InternalSplice}). At a million leaves, giving each of 128,000 internal nodes
   * its index again took a one-fact run's freeze about 10 ms.
   */
  int index = -1;

  /** Its index in a snapshot of {@code leafCount} leaves that holds it ({@link #index}). */
  int indexAmong(int leafCount) {
    return leaf ? index : leafCount + index;
  }

  /** The stamps of the {@link ParentPreservation} call that claimed it as a parent, and that carries it up. */
  long claimedBy;
  long nextBy;
  /** Its index among the next level's members as {@link NextMembers} last listed it (scratch). */
  int nextAt;
  /** The log of the draft that made it ({@link DraftTree#touched}), or null; and the log's mark when listed there. */
  Touched log;
  long touchedIn;

  /**
   * The node's fields as the draft last froze them into a tree or copied them from one ({@link #frozen}), for
   * the run's change log ({@link #rowChanged}); {@code frozen} is false for a node made since.
   */
  private boolean frozen;
  private DraftNode frozenParent;
  private String frozenText;
  private String frozenTime;
  private float[] frozenEmbedding;
  private float[] frozenSum;
  private int frozenTokens;
  private int frozenLevel;
  private int frozenFaithfulness;
  private String frozenKind;
  private List<DraftNode> frozenSources;

  DraftNode(String id, boolean leaf) {
    this.id = id;
    this.leaf = leaf;
  }

  /**
   * Notes in its draft's log that a run changed this internal node's row, children or flags ({@link Touched}); a
   * leaf is not listed (its parent, which a new or lost child touches, is).
   */
  void touch() {
    if (log != null && !leaf) {
      log.add(this);
    }
  }

  /** Makes this leaf read its embedding from row {@code row} of {@code rows} until an array is asked for. */
  void readsRow(float[] rows, int row, int dim) {
    this.rows = rows;
    this.rowFrom = row * dim;
    this.rowDim = dim;
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

  /**
   * The embedding for reading only, without giving a leaf that reads its row an array of its own: its array, or a
   * copy of its row that the node does not keep. A summary request reads the leaves under a node, which near the
   * root are all of them: made their own, they would double the leaves' memory.
   */
  float[] embeddingToRead() {
    return rows != null ? Arrays.copyOfRange(rows, rowFrom, rowFrom + rowDim) : embedding;
  }

  /** A copy of the embedding (null when it has none), a leaf's row copied without the leaf keeping it. */
  float[] embeddingCopy() {
    return rows != null || embedding == null ? embeddingToRead() : embedding.clone();
  }

  /** The dot product of the embedding with {@code q}, a leaf's row read where it is. */
  float dot(float[] q) {
    return rows != null ? Vectors.dot(rows, rowFrom, q, 0, rowDim) : Vectors.dot(embedding, q);
  }

  /** The norm of the embedding ({@link Vectors#norm}: never below the exact one), a leaf's row read where it is. */
  float norm() {
    return rows != null ? Vectors.norm(rows, rowFrom, rowDim) : Vectors.norm(embedding, 0, embedding.length);
  }

  /** Where a leaf that reads its row of the tree's leaf rows has it (its first float), else -1. */
  int rowOffset() {
    return rows != null ? rowFrom : -1;
  }

  /** The tree's leaf rows this leaf reads its row of (at {@link #rowOffset}), or null when it has an array. */
  float[] readRows() {
    return rows;
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

  /**
   * Its row in an {@link InternalRowStore}: the store's array of summary embeddings it was written into (null for
   * none), its place there, and the summary embedding and sum array it was written from.
   */
  private float[] rowArray;
  private int rowAt = -1;
  private float[] rowEmbedding;
  private float[] rowSum;

  /** True when the node has a row in {@code embeddings} written from its current summary embedding and sum. */
  boolean hasRowIn(float[] embeddings) {
    return rowArray == embeddings && rowEmbedding == embedding && rowSum == sum;
  }

  /** Records that the node's current vectors were written at row {@code at} of {@code embeddings}. */
  void wroteRow(float[] embeddings, int at) {
    rowArray = embeddings;
    rowAt = at;
    rowEmbedding = embedding;
    rowSum = sum;
  }

  /** Its row in the store it was last written into. */
  int row() {
    return rowAt;
  }

  /** Records the node's fields as they are now in the tree frozen or copied: what {@link #rowChanged} compares. */
  void frozen() {
    frozen = true;
    frozenParent = parent;
    frozenText = text;
    frozenTime = time;
    frozenEmbedding = embedding;
    frozenSum = sum;
    frozenTokens = tokens;
    frozenLevel = level;
    frozenFaithfulness = faithfulness;
    frozenKind = kind;
    frozenSources = sources;
  }

  /**
   * Whether the node's row may differ from the one in the tree last frozen or copied: it is new, or one of its
   * own fields was replaced since (by identity: texts, vectors and source lists are replaced, never changed in
   * place). A leaf's fields other than its parent are set once, when it is made (its embedding, an array made
   * when first asked for, is a function of its text), so only its parent is compared: a freeze asks every node.
   */
  boolean rowChanged() {
    if (!frozen || parent != frozenParent) {
      return true;
    }
    return !leaf && (text != frozenText || time != frozenTime || tokens != frozenTokens || level != frozenLevel
        || faithfulness != frozenFaithfulness || kind != frozenKind || !sameSources()
        || embedding != frozenEmbedding || sum != frozenSum);
  }

  /** The parent the node had in the tree last frozen or copied, or null (also for a node made since). */
  DraftNode frozenParent() {
    return frozenParent;
  }

  private boolean sameSources() {
    if (sources == frozenSources) {
      return true;
    }
    if (sources.size() != frozenSources.size()) {
      return false;
    }
    for (int i = 0; i < sources.size(); i++) {
      if (sources.get(i) != frozenSources.get(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The order children are summed in, which is also their order in the frozen snapshot (leaves first, then
   * by level and creation order). Summing in one canonical order makes a centroid bit-identical however
   * the hierarchy was reached, so the rebuild's component-wise dirty check sees only real changes.
   */
  static final Comparator<DraftNode> CANONICAL = DraftNode::canonicalOrder;

  /** By level, then creation order: a snapshot's order of its internal nodes, children before parents. */
  static final Comparator<DraftNode> BY_LEVEL = Comparator.comparingInt((DraftNode n) -> n.level)
      .thenComparingLong(n -> n.order);

  /** {@link #CANONICAL}'s comparison: leaves first, then internal nodes by level, each by creation order. */
  private static int canonicalOrder(DraftNode a, DraftNode b) {
    if (a.leaf != b.leaf) {
      return a.leaf ? -1 : 1;
    }
    if (!a.leaf && a.level != b.level) {
      return Integer.compare(a.level, b.level);
    }
    return Long.compare(a.order, b.order);
  }

  /**
   * The sum of the children's sums ({@code dim} components), added in canonical order. The last sum computed is kept
   * with the children and the children's sum arrays it was computed from, and returned again while they
   * are the same (sum arrays are replaced, never changed in place): a run asks for the sum of every
   * internal node several times and most do not change.
   */
  float[] canonicalSum(int dim) {
    if (sumOf != null && sumOf.length == children.size()) {
      boolean same = true;
      for (int i = 0; i < sumOf.length && same; i++) {
        DraftNode c = children.get(i);
        same = sumOf[i] == c && (c.leaf || sumOfSums[i] == c.sum); // a leaf's sum never changes
      }
      if (same) {
        return sumResult;
      }
    }
    List<DraftNode> kids = children;
    for (int i = 1; i < children.size(); i++) {
      if (canonicalOrder(children.get(i - 1), children.get(i)) > 0) { // else already in order (a copied tree's are)
        kids = new ArrayList<>(children);
        kids.sort(CANONICAL);
        break;
      }
    }
    float[] s = new float[dim];
    for (DraftNode c : kids) {
      c.addSumTo(s);
    }
    sumOf = children.toArray(new DraftNode[0]);
    sumOfSums = new float[sumOf.length][];
    for (int i = 0; i < sumOf.length; i++) {
      sumOfSums[i] = sumOf[i].sum;
    }
    sumResult = s;
    return s;
  }

  @Override
  public String toString() {
    return id;
  }
}

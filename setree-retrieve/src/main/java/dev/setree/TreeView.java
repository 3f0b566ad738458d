package dev.setree;

import dev.setree.internal.core.Tree;
import dev.setree.internal.maintain.llm.TargetLlmSummarizer;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A read-only view of one committed tree of a knowledge base, for inspection: its nodes, their texts,
 * levels, children and figures. Nodes are numbered {@code 0..size()-1}: leaves first
 * ({@code 0..leafCount()-1}), the root last. Vectors are handed out as copies, so nothing a caller does
 * reaches the snapshot concurrent retrieves read. Immutable and thread-safe; a later maintenance run makes a
 * new tree, which {@link SETree#tree()} then returns.
 */
public final class TreeView {
  /** {@link #faithfulness(int)} of a node whose faithfulness is not known. */
  public static final int UNKNOWN_FAITHFULNESS = Tree.UNKNOWN_FAITHFULNESS;

  private final Tree tree;

  TreeView(Tree tree) {
    this.tree = Objects.requireNonNull(tree, "tree");
  }

  /** The tree this view shows (for the facade's own package). */
  Tree tree() {
    return tree;
  }

  /** Number of nodes. */
  public int size() {
    return tree.size();
  }

  /** True when the knowledge base holds no leaf. */
  public boolean isEmpty() {
    return tree.isEmpty();
  }

  /** Number of leaves; leaves are nodes {@code 0..leafCount()-1}. */
  public int leafCount() {
    return tree.leafCount();
  }

  /** The root's index, or -1 for an empty tree. */
  public int root() {
    return tree.root();
  }

  /** Depth of the tree: the root's subtree depth (0 for an empty tree). */
  public int depth() {
    return tree.depth();
  }

  /** Embedding dimension. */
  public int dimension() {
    return tree.dimension();
  }

  /** True when node {@code v} is a leaf. */
  public boolean isLeaf(int v) {
    return tree.isLeaf(v);
  }

  /** The node's id (a leaf's fact id). */
  public String id(int v) {
    return tree.id(v);
  }

  /** The node's index for an id, or -1. */
  public int indexOf(String id) {
    return tree.indexOf(id);
  }

  /** The leaf's text or the internal node's summary. */
  public String text(int v) {
    return tree.text(v);
  }

  /** The leaf's time stamp, or null. */
  public String time(int v) {
    return tree.time(v);
  }

  /** The summariser kind that wrote an internal node's summary ({@code extractive}, {@code llm}; null for leaves). */
  public String summarizerKind(int v) {
    return tree.summarizerKind(v);
  }

  /** Token count of {@link #text(int)}, in the knowledge base's token counter. */
  public int tokens(int v) {
    return tree.tokens(v);
  }

  /** 0 for leaves; the clustering level at which an internal node was created. */
  public int level(int v) {
    return tree.level(v);
  }

  /** Parent index, -1 for the root. */
  public int parent(int v) {
    return tree.parent(v);
  }

  /** Number of children of node {@code v}. */
  public int childCount(int v) {
    return tree.childCount(v);
  }

  /** The {@code i}-th child of node {@code v}, in tree order. */
  public int child(int v, int i) {
    return tree.child(v, i);
  }

  /** Longest path from {@code v} down to a leaf (0 for leaves). */
  public int subtreeDepth(int v) {
    return tree.subtreeDepth(v);
  }

  /** Number of leaves under {@code v} (1 for a leaf). */
  public int leavesUnder(int v) {
    return tree.leavesUnder(v);
  }

  /** A copy of node v's embedding (a leaf's, or its summary's). */
  public float[] embedding(int v) {
    return tree.embedding(v);
  }

  /** Loss: how far an internal node's summary drifts from its leaves, in [0, 2] (0 for leaves). */
  public float loss(int v) {
    return tree.loss(v);
  }

  /** Faithfulness: {@code round(100 * cos(summary, centroid))} in [-100, 100], or {@link #UNKNOWN_FAITHFULNESS}. */
  public int faithfulness(int v) {
    return tree.faithfulness(v);
  }

  /**
   * Internal nodes per summariser kind, in key order; always holds {@code extractive} and {@code llm} (with
   * an LLM configured, the {@code extractive} ones are the nodes that fell back), and {@code unknown} for
   * nodes without a kind.
   */
  public Map<String, Integer> summarizerKinds() {
    Map<String, Integer> kinds = new TreeMap<>();
    kinds.put("extractive", 0);
    kinds.put(TargetLlmSummarizer.KIND, 0);
    for (int v = tree.leafCount(); v < tree.size(); v++) {
      String k = tree.summarizerKind(v);
      kinds.merge(k == null ? "unknown" : k, 1, Integer::sum);
    }
    return kinds;
  }
}

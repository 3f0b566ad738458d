package dev.setree.internal.core;

/**
 * The columns of a {@link Tree} in which a plain leaf has a fixed value, held per node or per internal node: the
 * summariser kind (none), the level (0), the faithfulness ({@link Tree#LEAF_FAITHFULNESS}) and the loss (0). A tree
 * made from per-node arrays (a build, a load) keeps them as they are; a maintenance run's freeze, whose leaves are all
 * plain, gives arrays per internal node, so that a run neither makes nor fills four arrays as long as the knowledge
 * base has leaves (ADR 0034, the freeze's columns: at a million leaves, the freeze's arrays and their copies had been
 * most of its time).
 */
final class InternalColumns {
  /** The first node the arrays hold: 0 (per node) or the leaf count (per internal node, every leaf plain). */
  private final int from;
  private final String[] kinds;
  private final int[] level;
  private final int[] faithfulness;
  private final float[] loss;
  /** Whether every leaf is plain: 0 not known yet, 1 yes, 2 no (arrays per node, looked at once when asked). */
  private volatile byte plain;

  /**
   * Columns of these arrays (taken over), each {@code n} long (per node) or {@code n - leafCount} (per internal
   * node); {@code kinds} may be null (none), {@code loss} may be null (a new array, to be filled by the tree).
   *
   * @throws IllegalArgumentException when the arrays are neither, or not all the same length
   */
  InternalColumns(int n, int leafCount, String[] kinds, int[] level, int[] faithfulness, float[] loss) {
    int length = level.length;
    if (length != n && length != n - leafCount) {
      throw new IllegalArgumentException("level has length " + length + ", expected " + n + " (per node) or "
          + (n - leafCount) + " (per internal node)");
    }
    this.from = n - length;
    this.kinds = kinds == null ? new String[length] : kinds;
    this.level = level;
    this.faithfulness = faithfulness;
    this.loss = loss == null ? new float[length] : loss;
    TreeChecks.length("summarizerKinds", this.kinds.length, length);
    TreeChecks.length("faithfulness", faithfulness.length, length);
    TreeChecks.length("knownLoss", this.loss.length, length);
    if (from > 0) {
      plain = 1;
    }
  }

  /** The first node the arrays hold: 0, or the leaf count when they are per internal node. */
  int from() {
    return from;
  }

  String kind(int v) {
    int i = v - from;
    return i < 0 ? null : kinds[i];
  }

  int level(int v) {
    int i = v - from;
    return i < 0 ? 0 : level[i];
  }

  int faithfulness(int v) {
    int i = v - from;
    return i < 0 ? Tree.LEAF_FAITHFULNESS : faithfulness[i];
  }

  float loss(int v) {
    int i = v - from;
    return i < 0 ? 0f : loss[i];
  }

  /**
   * Sets the leaves' losses to 0 and computes the internal nodes' from their rows ({@code sqrt(2 - 2 cos)} of the
   * summary embedding and the centroid), each node's, or with {@code known} only those whose loss is NaN.
   */
  void fillLosses(int leafCount, int n, boolean known, InternalRows internal, int dim) {
    java.util.Arrays.fill(loss, 0, leafCount - from, 0f);
    for (int v = leafCount; v < n; v++) {
      if (!known || Float.isNaN(loss[v - from])) {
        int row = internal.offset(v - leafCount);
        float c = Vectors.dot(internal.embeddings(), row, internal.centroids(), row, dim);
        loss[v - from] = (float) Math.sqrt(Math.max(0f, 2f - 2f * c));
      }
    }
  }

  /**
   * Whether each of the first {@code leafCount} nodes has no summariser kind, level 0 and faithfulness
   * {@link Tree#LEAF_FAITHFULNESS} (its loss is 0: the tree sets it). Known at once for arrays per internal node; per
   * node, looked at once and kept.
   */
  boolean leavesPlain(int leafCount) {
    byte known = plain;
    if (known == 0) { // two threads may both look: the same answer
      boolean all = true;
      for (int v = 0; v < leafCount && all; v++) {
        all = kinds[v] == null && level[v] == 0 && faithfulness[v] == Tree.LEAF_FAITHFULNESS;
      }
      known = (byte) (all ? 1 : 2);
      plain = known;
    }
    return known == 1;
  }

  /**
   * Copies the columns of nodes {@code first..first+count-1} into arrays that hold nodes from {@code into} on (0, or
   * the new tree's leaf count), from node index {@code at}: a node before {@code into} is not written, and a plain
   * leaf these columns do not hold is written with its fixed values.
   */
  void copyTo(int first, int count, int at, int into, String[] kinds, int[] level, int[] faithfulness,
      float[] loss) {
    for (int x = 0; x < count; ) {
      int s = first + x;
      int d = at + x;
      if (d < into) { // the arrays hold no leaf
        x += Math.min(count - x, into - d);
        continue;
      }
      if (s < from) { // plain leaves
        int length = Math.min(count - x, from - s);
        java.util.Arrays.fill(kinds, d - into, d - into + length, null);
        java.util.Arrays.fill(level, d - into, d - into + length, 0);
        java.util.Arrays.fill(faithfulness, d - into, d - into + length, Tree.LEAF_FAITHFULNESS);
        java.util.Arrays.fill(loss, d - into, d - into + length, 0f);
        x += length;
        continue;
      }
      int length = count - x;
      System.arraycopy(this.kinds, s - from, kinds, d - into, length);
      System.arraycopy(this.level, s - from, level, d - into, length);
      System.arraycopy(this.faithfulness, s - from, faithfulness, d - into, length);
      System.arraycopy(this.loss, s - from, loss, d - into, length);
      x += length;
    }
  }
}

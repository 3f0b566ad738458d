package dev.setree.internal.maintain;

import dev.setree.internal.core.RowDots;
import dev.setree.internal.core.Vectors;
import dev.setree.spi.Passage;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * The leaves of a summary request ({@code Summarizer.Request#leaves}), each made a {@link Passage} only when asked
 * for, and their similarities to a vector read where their embeddings are. A node near the root of a large tree
 * has tens of thousands of leaves, most of which read their row of the tree's leaf rows: as passages made up front,
 * each would be given an array of its own (tens of megabytes, kept by the draft), while an extractive summary reads
 * a few of them whole and only one similarity of each of the others ({@link MaximalMarginalRelevance}).
 */
final class LeafPassages extends AbstractList<Passage> implements RandomAccess {
  /** Below this many leaves the similarities are read in the list's order: their rows fit in the caches anyway. */
  static final int STORAGE_ORDER_FROM = 4096;

  private final DraftNode[] leaves;
  private final Passage[] made;
  /** The node whose summary request these leaves are, which keeps its {@link RelevanceMemo}; null for none. */
  private final DraftNode node;
  /** At least the norm of every leaf of the node's draft, when {@link #node} is not null. */
  private final float normBound;
  /** How many of the leaves closest to the centroid compete ({@link MaximalMarginalRelevance#MAX_CANDIDATES}). */
  private final int candidates;

  LeafPassages(List<DraftNode> leaves) {
    this.leaves = leaves.toArray(new DraftNode[0]);
    this.made = new Passage[this.leaves.length];
    this.node = null;
    this.normBound = Float.NaN;
    this.candidates = MaximalMarginalRelevance.MAX_CANDIDATES;
  }

  /**
   * The first {@code n} of {@code leaves}, offered by {@code node}'s summary request: when not null, the node keeps
   * what its relevance scan found for the next scan ({@link RelevanceMemo}), which needs {@code normBound}, at least
   * the norm of every leaf of the node's draft ({@link DraftTree#leafNormBound}). The {@code candidates} leaves
   * closest to the centroid compete ({@link MaximalMarginalRelevance#MAX_CANDIDATES} but in tests).
   */
  LeafPassages(DraftNode[] leaves, int n, DraftNode node, float normBound, int candidates) {
    this.leaves = n == leaves.length ? leaves : Arrays.copyOf(leaves, n);
    this.made = new Passage[n];
    this.node = node;
    this.normBound = normBound;
    this.candidates = candidates;
  }

  /** How many of the leaves closest to the centroid compete. */
  int candidates() {
    return candidates;
  }

  /** At least the norm of every leaf of the draft, for a {@link #node}'s memo. */
  float normBound() {
    return normBound;
  }

  /** The node whose leaves these are, which keeps a {@link RelevanceMemo}, or null. */
  DraftNode node() {
    return node;
  }

  /** The leaves, in order; not to be changed. */
  DraftNode[] array() {
    return leaves;
  }

  @Override
  public Passage get(int i) {
    Passage p = made[i];
    if (p == null) {
      DraftNode l = leaves[i];
      p = new Passage(l.id, l.text, l.embeddingToRead());
      made[i] = p;
    }
    return p;
  }

  @Override
  public int size() {
    return leaves.length;
  }

  /** Leaf {@code i}'s id: from a {@code LeafPassages} without a passage made for it. */
  static String id(List<Passage> leaves, int i) {
    return leaves instanceof LeafPassages draft ? draft.leaves[i].id : leaves.get(i).id();
  }

  /** Leaf {@code i}'s text: from a {@code LeafPassages} without a passage made for it. */
  static String text(List<Passage> leaves, int i) {
    return leaves instanceof LeafPassages draft ? draft.leaves[i].text : leaves.get(i).text();
  }

  /**
   * The dot product of leaf {@code i}'s embedding with {@code q}: from a {@code LeafPassages} read where the
   * embedding is, the same float as with its passage's.
   */
  static float dot(List<Passage> leaves, int i, float[] q) {
    return leaves instanceof LeafPassages draft ? draft.leaves[i].dot(q) : Vectors.dot(leaves.get(i).embedding(), q);
  }

  /** Every leaf's dot product with {@code q}, by index ({@link #dots(float[])} for a {@code LeafPassages}). */
  static float[] dots(List<Passage> leaves, float[] q) {
    if (leaves instanceof LeafPassages draft) {
      return draft.dots(q);
    }
    float[] out = new float[leaves.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = Vectors.dot(leaves.get(i).embedding(), q);
    }
    return out;
  }

  /**
   * Every leaf's dot product with {@code q}, by index. A large list is read in the order of the leaves' rows (the
   * leaves under a node are scattered over the tree's rows, and reading them so in list order took about three
   * times as long at 50,000 leaves), then the leaves with arrays of their own. Each leaf object is looked at once,
   * for where its row is: looking at it again for the product (three times in all) took half of the 17 ms a node
   * of 50,000 leaves took. The rows are read four at a time, on vector lanes once a writer has compiled that code
   * ({@link RowDots}, ADR 0046). The products are those of {@link DraftNode#dot}, bit for bit.
   */
  float[] dots(float[] q) {
    int n = leaves.length;
    float[] out = new float[n];
    if (n < STORAGE_ORDER_FROM) {
      for (int i = 0; i < n; i++) {
        out[i] = leaves[i].dot(q);
      }
      return out;
    }
    int dim = q.length;
    float[] shared = null; // the leaf rows most leaves read (a draft's leaves read those of the tree it copied)
    int[] at = new int[n];
    int rows = 0;
    for (int i = 0; i < n; i++) {
      DraftNode l = leaves[i];
      float[] r = l.readRows();
      if (r != null && (shared == null || r == shared)) {
        shared = r;
        at[i] = l.rowOffset();
        rows = Math.max(rows, at[i] / dim + 1);
      } else {
        at[i] = -1;
        out[i] = l.dot(q); // an array of its own, or another tree's rows
      }
    }
    int[] atRow = new int[rows]; // the leaf (plus one) at each row, 0 for none: a pass over the rows, not a sort
    for (int i = 0; i < n; i++) {
      if (at[i] >= 0) {
        int row = at[i] / dim;
        if (atRow[row] == 0) {
          atRow[row] = i + 1;
        } else {
          out[i] = Vectors.dot(shared, at[i], q, 0, dim); // a row read twice, which a tree's leaves never share
        }
      }
    }
    // The rows read, in order, many at a time (RowDots), and their leaves: at most one per leaf, however far apart
    // the node's leaves are among the tree's rows.
    int[] offsets = new int[n];
    int[] of = new int[n];
    int count = 0;
    for (int row = 0; row < rows; row++) {
      int i = atRow[row];
      if (i != 0) {
        offsets[count] = row * dim;
        of[count++] = i - 1;
      }
    }
    float[] products = new float[count];
    RowDots.dots(shared, offsets, count, q, products);
    for (int j = 0; j < count; j++) {
      out[of[j]] = products[j];
    }
    return out;
  }
}

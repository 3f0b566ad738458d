package dev.setree.internal.maintain;

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
  private static final int STORAGE_ORDER_FROM = 4096;

  private final DraftNode[] leaves;
  private final Passage[] made;

  LeafPassages(List<DraftNode> leaves) {
    this.leaves = leaves.toArray(new DraftNode[0]);
    this.made = new Passage[this.leaves.length];
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

  /** Leaf {@code i}'s id, without a passage made for it. */
  String id(int i) {
    return leaves[i].id;
  }

  /** Leaf {@code i}'s text, without a passage made for it. */
  String text(int i) {
    return leaves[i].text;
  }

  /** The dot product of leaf {@code i}'s embedding with {@code q}: the same float as with its passage's. */
  float dot(int i, float[] q) {
    return leaves[i].dot(q);
  }

  /**
   * Every leaf's dot product with {@code q}, by index. A large list is read in the order of the leaves' rows (the
   * leaves under a node are scattered over the tree's rows, and reading them so in list order took about three
   * times as long at 50,000 leaves), then the leaves with arrays of their own.
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
    long[] keyed = new long[n];
    for (int i = 0; i < n; i++) {
      int at = leaves[i].rowOffset();
      keyed[i] = ((long) (at < 0 ? Integer.MAX_VALUE : at) << 32) | i;
    }
    Arrays.sort(keyed);
    for (long k : keyed) {
      int i = (int) k;
      out[i] = leaves[i].dot(q);
    }
    return out;
  }
}

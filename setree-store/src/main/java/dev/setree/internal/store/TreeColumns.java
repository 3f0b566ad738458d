package dev.setree.internal.store;

import dev.setree.internal.core.Tree;
import java.nio.file.Path;

/**
 * The columns of a {@link Tree} as a reader fills them, row by row, before the tree is made: shared by the
 * readers of both store formats ({@link NodeRows}, {@link NodeTable}).
 */
final class TreeColumns {
  final int dim;
  final int leafCount;
  final String[] ids;
  final String[] texts;
  final String[] times;
  final String[] summarizers;
  final int[] tokens;
  final int[] level;
  final int[] parent;
  final float[] leafEmbeddings;
  final float[] internalEmbeddings;
  final float[] centroids;
  final int[] faithfulness;
  final int[][] sources;

  TreeColumns(int n, int leafCount, int dim) {
    this(n, leafCount, dim, leafCount * dim, null);
  }

  /**
   * @param leafLength the length of a new leaf-row array, at least {@code leafCount * dim} (longer: room for
   *     leaves added later, {@link dev.setree.internal.core.Vectors#lengthWithRoom})
   * @param leafEmbeddings the leaves' embeddings already decoded in tree order (at least {@code leafCount * dim}
   *     floats, taken as they are), or null for a new array of {@code leafLength} that the reader fills
   */
  TreeColumns(int n, int leafCount, int dim, int leafLength, float[] leafEmbeddings) {
    this.dim = dim;
    this.leafCount = leafCount;
    ids = new String[n];
    texts = new String[n];
    times = new String[n];
    summarizers = new String[n];
    tokens = new int[n];
    level = new int[n];
    parent = new int[n];
    if ((leafEmbeddings == null ? leafLength : leafEmbeddings.length) < leafCount * dim) {
      throw new IllegalArgumentException("leaf embeddings of " + (leafEmbeddings == null ? leafLength
          : leafEmbeddings.length) + " floats for " + leafCount + " leaves of dimension " + dim);
    }
    this.leafEmbeddings = leafEmbeddings != null ? leafEmbeddings : new float[leafLength];
    internalEmbeddings = new float[(n - leafCount) * dim];
    centroids = new float[(n - leafCount) * dim];
    faithfulness = new int[n];
    sources = new int[n][];
  }

  /** Decodes node v's embedding, and its centroid when it is an internal node; null blobs are corrupt. */
  void vectors(Path file, int v, String id, byte[] embedding, byte[] centroid) {
    if (v < leafCount) {
      NodeRowReader.decode(file, "embedding", id, embedding, leafEmbeddings, v * dim, dim);
    } else {
      NodeRowReader.decode(file, "embedding", id, embedding, internalEmbeddings, (v - leafCount) * dim, dim);
      NodeRowReader.decode(file, "centroid", id, centroid, centroids, (v - leafCount) * dim, dim);
    }
  }

  /** The tree, or a {@link StoreFormatException} naming the file when its invariants do not hold. */
  Tree toTree(Path file) {
    try {
      return new Tree(dim, leafCount, ids, texts, times, summarizers, tokens, level, parent, leafEmbeddings,
          internalEmbeddings, centroids, faithfulness, sources);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new StoreFormatException(file + " holds an inconsistent tree: " + e.getMessage(), e);
    }
  }
}

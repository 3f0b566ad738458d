package dev.setree.internal.maintain;

/**
 * A k-nearest-neighbour graph (exact, or NN-descent's approximation) in CSR form: row {@code i} lists
 * member {@code i}'s neighbours, nearest first, with their cosine similarities. Directed (i lists j does not
 * imply j lists i).
 *
 * @param offsets length {@code n + 1}
 * @param neighbors neighbour indexes
 * @param weights cosine similarities, parallel to {@code neighbors}
 */
public record KnnGraph(int[] offsets, int[] neighbors, float[] weights) {

  /** Number of members. */
  public int size() {
    return offsets.length - 1;
  }

  /** The graph with each row cut to its first {@code k} entries (rows of equal length {@code >= k}). */
  KnnGraph truncate(int k) {
    int n = size();
    int[] off = new int[n + 1];
    int[] nb = new int[n * k];
    float[] w = new float[n * k];
    for (int i = 0; i < n; i++) {
      off[i + 1] = (i + 1) * k;
      System.arraycopy(neighbors, offsets[i], nb, i * k, k);
      System.arraycopy(weights, offsets[i], w, i * k, k);
    }
    return new KnnGraph(off, nb, w);
  }

  /**
   * Recall against a reference graph of the same members: the mean fraction of each member's reference
   * neighbours that this graph lists too (1.0 for the exact graph against itself).
   */
  public double recallOf(KnnGraph reference) {
    long hit = 0;
    for (int i = 0; i < reference.size(); i++) {
      for (int e = reference.offsets[i]; e < reference.offsets[i + 1]; e++) {
        for (int f = offsets[i]; f < offsets[i + 1]; f++) {
          if (neighbors[f] == reference.neighbors[e]) {
            hit++;
            break;
          }
        }
      }
    }
    return hit / (double) Math.max(1, reference.neighbors.length);
  }

  /**
   * Recall that counts ties as hits (the "distance threshold" recall of ANN benchmarks): per member, the
   * fraction of the reference's neighbours matched by listed neighbours at least as similar as the
   * reference's last one, so that among equally similar members (duplicated texts) any choice counts.
   * Meaningful when both graphs carry exact similarities, as NN-descent's do.
   */
  public double tieAwareRecallOf(KnnGraph reference) {
    long hit = 0;
    for (int i = 0; i < reference.size(); i++) {
      int from = reference.offsets[i];
      int to = reference.offsets[i + 1];
      if (to == from) {
        continue;
      }
      float kth = reference.weights[to - 1];
      int h = 0;
      for (int f = offsets[i]; f < offsets[i + 1]; f++) {
        if (weights[f] >= kth) {
          h++;
        }
      }
      hit += Math.min(h, to - from);
    }
    return hit / (double) Math.max(1, reference.neighbors.length);
  }
}

package dev.setree.maintain;

/**
 * An exact k-nearest-neighbour graph in CSR form: row {@code i} lists member {@code i}'s neighbours,
 * nearest first, with their cosine similarities. Directed (i lists j does not imply j lists i).
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
}

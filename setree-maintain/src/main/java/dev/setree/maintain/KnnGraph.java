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
}

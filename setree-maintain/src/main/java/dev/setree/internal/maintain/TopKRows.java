package dev.setree.internal.maintain;

import java.util.Arrays;

/**
 * A bounded top-k list of (similarity, index) for every row of a kNN graph under construction, in flat
 * arrays (no object per row). Best = higher similarity, then smaller index: a total order, so the lists'
 * contents do not depend on the order of the offers. Not thread-safe; workers keep one each and merge.
 */
final class TopKRows {
  final int k;
  final float[] scores;
  final int[] idx;
  final int[] size;
  /** Slot of each full row's worst entry. */
  final int[] worst;

  TopKRows(int n, int k) {
    this.k = k;
    this.scores = new float[n * k];
    this.idx = new int[n * k];
    this.size = new int[n];
    this.worst = new int[n];
  }

  int rows() {
    return size.length;
  }

  /** Offers {@code (s, c)} to row {@code r}; returns whether it was taken. The caller avoids duplicates. */
  boolean offer(int r, float s, int c) {
    int base = r * k;
    int sz = size[r];
    if (sz < k) {
      scores[base + sz] = s;
      idx[base + sz] = c;
      size[r] = ++sz;
      if (sz == k) {
        worst[r] = findWorst(base);
      }
      return true;
    }
    int w = base + worst[r];
    if (!ExactKnn.TopK.better(s, c, scores[w], idx[w])) {
      return false;
    }
    scores[w] = s;
    idx[w] = c;
    worst[r] = findWorst(base);
    return true;
  }

  /** Whether row {@code r} already lists {@code c}. */
  boolean contains(int r, int c) {
    int base = r * k;
    for (int i = 0; i < size[r]; i++) {
      if (idx[base + i] == c) {
        return true;
      }
    }
    return false;
  }

  private int findWorst(int base) {
    int w = 0;
    for (int i = 1; i < k; i++) {
      if (ExactKnn.TopK.better(scores[base + w], idx[base + w], scores[base + i], idx[base + i])) {
        w = i;
      }
    }
    return w;
  }

  /** Offers every entry of {@code other} (same shape, disjoint candidates per row) to this one. */
  void mergeFrom(TopKRows other) {
    for (int r = 0; r < rows(); r++) {
      int base = r * k;
      for (int i = 0; i < other.size[r]; i++) {
        offer(r, other.scores[base + i], other.idx[base + i]);
      }
    }
  }

  /** The graph, rows sorted best first; every row must be full (or {@code k == 0}). */
  KnnGraph toGraph() {
    int n = rows();
    int[] offsets = new int[n + 1];
    for (int i = 0; i <= n; i++) {
      offsets[i] = i * k;
    }
    int[] nb = Arrays.copyOf(idx, n * k);
    float[] w = Arrays.copyOf(scores, n * k);
    for (int r = 0; r < n; r++) {
      if (size[r] != k) {
        throw new IllegalStateException("row " + r + " has " + size[r] + " of " + k + " neighbours");
      }
      sortBestFirst(nb, w, r * k, k);
    }
    return new KnnGraph(offsets, nb, w);
  }

  /** Insertion sort of {@code len} entries at {@code off}, best first (k is small). */
  static void sortBestFirst(int[] idx, float[] scores, int off, int len) {
    for (int i = off + 1; i < off + len; i++) {
      int c = idx[i];
      float s = scores[i];
      int j = i - 1;
      while (j >= off && ExactKnn.TopK.better(s, c, scores[j], idx[j])) {
        idx[j + 1] = idx[j];
        scores[j + 1] = scores[j];
        j--;
      }
      idx[j + 1] = c;
      scores[j + 1] = s;
    }
  }
}

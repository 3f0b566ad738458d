package dev.setree.internal.maintain;

import dev.setree.internal.core.Vectors;
import java.util.List;

/**
 * Each moved member's similarity ({@link Vectors#dot}, bit for bit) to any member, computed once: its own row's
 * exact query and every kept row's admission test need the same dot products. Without a mirror, one float pass
 * over the level gives them all (per moved member, while they fit {@link KnnPatch#SHARED_SIMILARITIES}; beyond, each
 * is computed when asked). With an {@link IntegerRows} mirror, one integer pass gives their bounds, and a float
 * dot product is computed only when a bound cannot decide, then kept.
 */
final class MovedSimilarities {
  private final float[] centroids;
  private final int dim;
  private final int m;
  private final IntegerRows integers;
  /** Per moved member, its similarities (NaN: not computed yet, with a mirror); null for other members. */
  private final float[][] exact;
  /** Per moved member, with a mirror, its integer approximations; else null. */
  private final float[][] approx;

  private MovedSimilarities(float[] centroids, int m, int dim, IntegerRows integers) {
    this.centroids = centroids;
    this.dim = dim;
    this.m = m;
    this.integers = integers;
    this.exact = new float[m][];
    this.approx = integers == null ? null : new float[m][];
  }

  static MovedSimilarities of(float[] centroids, int m, int dim, List<Integer> movedIdx, IntegerRows integers) {
    MovedSimilarities s = new MovedSimilarities(centroids, m, dim, integers);
    if ((long) movedIdx.size() * m > KnnPatch.SHARED_SIMILARITIES) {
      return s; // each one computed when asked
    }
    if (integers != null) {
      for (int j : movedIdx) {
        s.approx[j] = new float[m];
        integers.approximate(j, s.approx[j]);
        s.exact[j] = new float[m];
        java.util.Arrays.fill(s.exact[j], Float.NaN);
      }
    } else if (movedIdx.size() == 1) {
      // One row is scanned here, in a loop of its own: in ExactKnn.similarities, two members at a time or one,
      // it took 2.6-2.9 against 2.0-2.4 ms a run at 10,000 leaves (docs/benchmarks.md, "Five passes narrowed").
      int j = movedIdx.get(0);
      float[] sims = new float[m];
      for (int c = 0; c < m; c++) {
        sims[c] = Vectors.dot(centroids, c * dim, centroids, j * dim, dim);
      }
      s.exact[j] = sims;
    } else {
      int[] mv = movedIdx.stream().mapToInt(Integer::intValue).toArray();
      float[][] sims = ExactKnn.similarities(centroids, m, dim, mv); // one pass over the level for all of them
      for (int x = 0; x < mv.length; x++) {
        s.exact[mv[x]] = sims[x];
      }
    }
    return s;
  }

  /** Whether moved member {@code j}'s similarities were prepared (its row is then written by them). */
  boolean ofRow(int j) {
    return exact[j] != null;
  }

  /** The similarity of moved member {@code j} and member {@code c}. */
  float get(int j, int c) {
    float[] e = exact[j];
    if (e == null) {
      return Vectors.dot(centroids, c * dim, centroids, j * dim, dim);
    }
    float s = e[c];
    if (s != s) { // not computed yet
      s = Vectors.dot(centroids, c * dim, centroids, j * dim, dim);
      e[c] = s;
    }
    return s;
  }

  /** Whether moved member {@code j} is more similar to member {@code c} than {@code w} of member {@code wi}. */
  boolean beats(int j, int c, float w, int wi) {
    if (approx != null && approx[j] != null && approx[j][c] + integers.bound(j, c) < w) {
      return false; // its similarity is below w
    }
    return ExactKnn.TopK.better(get(j, c), j, w, wi);
  }

  /** Writes moved member {@code j}'s k nearest members, as a scan of the level finds them ({@link #ofRow}). */
  void writeNearest(int j, int k, int[] neighbors, float[] weights) {
    if (approx != null) {
      integers.nearest(j, approx[j], centroids, k, neighbors, weights);
    } else {
      KnnPatch.writeTop(exact[j], m, j, k, neighbors, weights);
    }
  }
}

package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.setree.internal.core.Vectors;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The tiled kNN kernel against a naive scan. */
class ExactKnnTest {

  static float[] randomUnit(int n, int dim, Random r) {
    float[] m = new float[n * dim];
    for (int i = 0; i < n; i++) {
      float[] v = new float[dim];
      for (int d = 0; d < dim; d++) {
        v[d] = (float) r.nextGaussian();
      }
      Vectors.normalize(v);
      System.arraycopy(v, 0, m, i * dim, dim);
    }
    return m;
  }

  /** Every row of the tiled all-pairs result equals a naive top-k scan, for sizes around the tile edges. */
  @Test
  void tiledAllPairsEqualsNaiveScan() {
    for (long seed = 1; seed <= 6; seed++) {
      Random r = new Random(seed);
      int n = new int[] {2, 31, 257, 300, 513, 700}[(int) seed - 1];
      int dim = 16;
      float[] m = randomUnit(n, dim, r);
      KnnGraph g = ExactKnn.allPairs(m, n, dim, 10);
      int k = Math.min(10, n - 1);
      for (int i = 0; i < n; i++) {
        float[] scores = new float[k];
        int[] naive = ExactKnn.query(m, n, dim, Vectors.row(m, i, dim), k, i, scores);
        int[] tiled = java.util.Arrays.copyOfRange(g.neighbors(), g.offsets()[i], g.offsets()[i + 1]);
        assertArrayEquals(naive, tiled, "seed=" + seed + " row " + i);
        for (int e = 0; e < k; e++) {
          assertEquals(scores[e], g.weights()[g.offsets()[i] + e], 0f);
          if (e > 0) {
            assertEquals(true, g.weights()[g.offsets()[i] + e - 1] >= g.weights()[g.offsets()[i] + e]);
          }
        }
      }
    }
  }

  /**
   * One pass over the members for one or several rows ({@code similarities}, two rows at a time) gives
   * {@link Vectors#dot}'s similarities bit for bit, at odd and even counts of rows, sizes and dimensions, with a
   * row repeated and with ties.
   */
  @Test
  void similaritiesOfRowsEqualVectorsDot() {
    for (long seed = 1; seed <= 12; seed++) {
      Random r = new Random(seed);
      int n = 1 + r.nextInt(90);
      int dim = 1 + r.nextInt(20);
      float[] m = randomUnit(n, dim, r);
      if (n > 3) {
        System.arraycopy(m, 0, m, 2 * dim, dim); // a tie
      }
      int[] rows = new int[1 + r.nextInt(5)]; // one row too (KnnPatch scans a single row in a loop of its own)
      for (int x = 0; x < rows.length; x++) {
        rows[x] = r.nextInt(n);
      }
      float[][] sims = ExactKnn.similarities(m, n, dim, rows);
      for (int x = 0; x < rows.length; x++) {
        for (int c = 0; c < n; c++) {
          assertEquals(Float.floatToRawIntBits(Vectors.dot(m, c * dim, m, rows[x] * dim, dim)),
              Float.floatToRawIntBits(sims[x][c]), "seed=" + seed + " row " + rows[x] + " member " + c);
        }
      }
    }
  }

  /**
   * The symmetric kernel against a naive reference (every pair, sorted by similarity then index), on
   * random data of odd dimensions and with many exact ties (duplicated and coarsely quantised vectors).
   */
  @Test
  void symmetricKernelEqualsNaiveReferenceWithTies() {
    for (long seed = 1; seed <= 8; seed++) {
      Random r = new Random(seed);
      int n = 1 + r.nextInt(400);
      int dim = 1 + r.nextInt(40);
      float[] m = randomUnit(n, dim, r);
      if (seed % 2 == 0) {
        for (int i = 0; i < m.length; i++) {
          m[i] = Math.round(m[i] * 2) / 2f; // few distinct values: many equal similarities
        }
        for (int i = 1; i < n; i += 3) {
          System.arraycopy(m, (i - 1) * dim, m, i * dim, dim); // exact duplicates
        }
      }
      int k = 1 + r.nextInt(12);
      KnnGraph g = ExactKnn.allPairs(m, n, dim, k);
      int kk = Math.min(k, n - 1);
      for (int i = 0; i < n; i++) {
        final int row = i;
        Integer[] all = new Integer[n - 1];
        for (int j = 0, t = 0; j < n; j++) {
          if (j != i) {
            all[t++] = j;
          }
        }
        java.util.Arrays.sort(all, (a, b) -> {
          float sa = Vectors.dot(m, row * dim, m, a * dim, dim);
          float sb = Vectors.dot(m, row * dim, m, b * dim, dim);
          return sa > sb ? -1 : sa < sb ? 1 : Integer.compare(a, b); // -0.0 ties 0.0, as in the kernel
        });
        for (int e = 0; e < kk; e++) {
          assertEquals(all[e], g.neighbors()[g.offsets()[i] + e], "seed=" + seed + " row " + i + " rank " + e);
          assertEquals(Vectors.dot(m, i * dim, m, all[e] * dim, dim), g.weights()[g.offsets()[i] + e], 0f);
        }
      }
    }
  }

  /** A single member has no neighbours; k is capped at n - 1. */
  @Test
  void degenerateSizes() {
    KnnGraph one = ExactKnn.allPairs(new float[] {1, 0}, 1, 2, 10);
    assertEquals(0, one.neighbors().length);
    KnnGraph three = ExactKnn.allPairs(randomUnit(3, 4, new Random(3)), 3, 4, 10);
    assertEquals(6, three.neighbors().length);
  }
}

package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.Fact;
import dev.setree.internal.core.Vectors;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The approximate kNN graph: recall of the exact 10-NN, exact weights, determinism. */
class NnDescentTest {

  static float[] embed(List<Fact> facts, HashEmbedder embedder) {
    float[][] rows = embedder.embed(facts.stream().map(Fact::text).toList());
    float[] m = new float[rows.length * embedder.dimension()];
    for (int i = 0; i < rows.length; i++) {
      System.arraycopy(rows[i], 0, m, i * embedder.dimension(), embedder.dimension());
    }
    return m;
  }

  static double recall(KnnGraph exact, KnnGraph approx) {
    return approx.recallOf(exact);
  }

  /** 3,000 hash-embedded sentences: recall of the exact 10-NN >= 0.95; weights are the exact cosines. */
  @Test
  void recallOnHashEmbeddedSentences() {
    HashEmbedder embedder = new HashEmbedder(64);
    int n = 3000;
    int dim = embedder.dimension();
    float[] m = embed(Corpora.synthetic(n, 5), embedder);
    KnnGraph exact = ExactKnn.allPairs(m, n, dim, 10);
    KnnGraph approx = NnDescent.build(m, n, dim, 10, 42);
    double recall = recall(exact, approx);
    assertTrue(recall >= 0.95, "recall " + recall);
    checkRows(approx, m, dim, 10);
  }

  /** Random unit vectors (no cluster structure: the hard case), recall still >= 0.95. */
  @Test
  void recallOnRandomVectors() {
    for (long seed = 1; seed <= 3; seed++) {
      int n = 2000;
      int dim = 16;
      float[] m = ExactKnnTest.randomUnit(n, dim, new Random(seed));
      double recall = recall(ExactKnn.allPairs(m, n, dim, 10), NnDescent.build(m, n, dim, 10, seed));
      assertTrue(recall >= 0.95, "seed=" + seed + " recall " + recall);
    }
  }

  /** Same seed, same graph (bit for bit); tiny inputs fall back to the exact graph. */
  @Test
  void deterministicAndExactWhenTiny() {
    float[] m = ExactKnnTest.randomUnit(1500, 12, new Random(9));
    KnnGraph a = NnDescent.build(m, 1500, 12, 10, 7);
    KnnGraph b = NnDescent.build(m, 1500, 12, 10, 7);
    assertArrayEquals(a.neighbors(), b.neighbors());
    assertArrayEquals(a.weights(), b.weights());
    float[] tiny = ExactKnnTest.randomUnit(11, 12, new Random(9));
    KnnGraph t = NnDescent.build(tiny, 11, 12, 10, 7);
    assertArrayEquals(ExactKnn.allPairs(tiny, 11, 12, 10).neighbors(), t.neighbors());
  }

  /** Every row: k distinct neighbours, not itself, best first, weights equal to the dot products. */
  static void checkRows(KnnGraph g, float[] m, int dim, int k) {
    for (int i = 0; i < g.size(); i++) {
      assertEquals(k, g.offsets()[i + 1] - g.offsets()[i]);
      java.util.Set<Integer> seen = new java.util.HashSet<>();
      for (int e = g.offsets()[i]; e < g.offsets()[i + 1]; e++) {
        int j = g.neighbors()[e];
        assertTrue(j != i && seen.add(j), "row " + i);
        assertEquals(Vectors.dot(m, i * dim, m, j * dim, dim), g.weights()[e], 0f);
        if (e > g.offsets()[i]) {
          assertTrue(g.weights()[e - 1] >= g.weights()[e]);
        }
      }
    }
  }
}

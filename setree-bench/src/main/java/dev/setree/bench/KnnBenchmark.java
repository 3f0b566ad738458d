package dev.setree.bench;

import dev.setree.internal.core.Vectors;
import dev.setree.internal.maintain.ExactKnn;
import dev.setree.internal.maintain.KnnGraph;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The exact kNN kernel: one query against {@code n} 384-dimensional unit vectors (the flat scan a retrieve
 * pays per prompt), and the cache-tiled all-pairs top-10 a build pays per level.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class KnnBenchmark {
  static final int DIM = 384;

  @Param({"10000", "50000"})
  int n;

  float[] vectors;
  float[] query;
  float[] scores = new float[10];

  @Setup
  public void setup() {
    vectors = randomUnit(n, DIM, new Random(1));
    query = randomUnit(1, DIM, new Random(2));
  }

  /** One prompt against every vector, top 10. */
  @Benchmark
  public int[] query() {
    return ExactKnn.query(vectors, n, DIM, query, 10, -1, scores);
  }

  /** All pairs, top 10 each, on the first 5,000 vectors (the full 50,000 takes minutes: see bench ladder). */
  @Benchmark
  @Warmup(iterations = 1, time = 1)
  @Measurement(iterations = 3, time = 1)
  public KnnGraph allPairs5000() {
    return ExactKnn.allPairs(vectors, 5000, DIM, 10);
  }

  static float[] randomUnit(int n, int dim, Random r) {
    float[] m = new float[n * dim];
    float[] v = new float[dim];
    for (int i = 0; i < n; i++) {
      for (int d = 0; d < dim; d++) {
        v[d] = (float) r.nextGaussian();
      }
      Vectors.normalize(v);
      System.arraycopy(v, 0, m, i * dim, dim);
    }
    return m;
  }
}

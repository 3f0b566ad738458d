package dev.setree.cli;

import dev.setree.spi.Embedder;
import dev.setree.internal.maintain.ExactKnn;
import dev.setree.internal.maintain.KnnGraph;
import dev.setree.internal.maintain.NnDescent;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code setree bench knn}: the level-0 kNN graph alone, on corpus sentences: per size the exact all-pairs
 * kernel's time, NN-descent's time and its recall of the exact 10-NN. The embeddings can be cached in a file,
 * so MiniLM embeds the corpus once across runs.
 */
@Command(name = "knn", mixinStandardHelpOptions = true,
    description = "Exact kNN vs NN-descent on corpus sentences: time and recall of the exact 10-NN.")
final class BenchKnn implements Callable<Integer> {
  @Option(names = "--sizes", split = ",", defaultValue = "5000,20000", description = "Numbers of sentences.")
  List<Integer> sizes;

  @Mixin
  BenchEmbedderOptions embedderOptions = new BenchEmbedderOptions();

  @Option(names = "--corpus", defaultValue = "corpus/sotu-sentences.txt", description = "Sentences, one per line.")
  Path corpus;

  @Option(names = "--cache", description = "Embeddings file: read when it holds enough rows, else written.")
  Path cache;

  @Option(names = "--k", defaultValue = "10", description = "Neighbours per member.")
  int k;

  @Option(names = "--seed", defaultValue = "42", description = "NN-descent's seed.")
  long seed;

  @Override
  public Integer call() throws Exception {
    int max = sizes.stream().mapToInt(Integer::intValue).max().orElse(0);
    float[][] rows = cached(max);
    if (rows == null) {
      List<String> sentences = BenchLadder.synthetic(BenchCommand.corpus(corpus), max).stream()
          .map(dev.setree.spi.Fact::text).toList(); // the corpus first, then its synthetic variations
      long t0 = System.nanoTime();
      try (BenchEmbedderOptions.Opened opened = embedderOptions.open()) {
        Embedder e = opened.embedder();
        rows = new float[max][];
        for (int s = 0; s < max; s += 2048) {
          float[][] part = e.embed(sentences.subList(s, Math.min(max, s + 2048)));
          System.arraycopy(part, 0, rows, s, part.length);
        }
      }
      System.out.printf(Locale.ROOT, "embedded %d sentences with %s in %.1f s%n", max, embedderOptions.name,
          (System.nanoTime() - t0) / 1e9);
      if (cache != null) {
        write(rows);
      }
    }
    int dim = rows[0].length;
    for (int n : sizes) {
      float[] m = new float[n * dim];
      for (int i = 0; i < n; i++) {
        System.arraycopy(rows[i], 0, m, i * dim, dim);
      }
      long t0 = System.nanoTime();
      KnnGraph exact = ExactKnn.allPairs(m, n, dim, k);
      long t1 = System.nanoTime();
      KnnGraph approx = NnDescent.build(m, n, dim, k, seed);
      long t2 = System.nanoTime();
      System.out.printf(Locale.ROOT, "n %7d dim %3d: exact %.2f s, NN-descent %.2f s (%.2fx), recall@%d %.4f (ties counted %.4f)%n",
          n, dim, (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t1 - t0) / (double) (t2 - t1), k, approx.recallOf(exact),
          approx.tieAwareRecallOf(exact));
    }
    return 0;
  }

  private float[][] cached(int n) throws java.io.IOException {
    if (cache == null || !Files.exists(cache)) {
      return null;
    }
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(cache)))) {
      String id = in.readUTF();
      int rows = in.readInt();
      int dim = in.readInt();
      if (!id.equals(embedderOptions.name) || rows < n) {
        return null;
      }
      float[][] out = new float[n][dim];
      for (int i = 0; i < n; i++) {
        for (int d = 0; d < dim; d++) {
          out[i][d] = in.readFloat();
        }
      }
      return out;
    }
  }

  private void write(float[][] rows) throws java.io.IOException {
    try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(cache)))) {
      out.writeUTF(embedderOptions.name);
      out.writeInt(rows.length);
      out.writeInt(rows[0].length);
      for (float[] r : rows) {
        for (float x : r) {
          out.writeFloat(x);
        }
      }
    }
  }
}

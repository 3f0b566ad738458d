package dev.setree.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code setree bench ladder} end to end, small, on the hash embedder: the columns of {@code results.csv} that
 * issue #13 and earlier runs rely on, in their order, with the warm-up's count added last.
 */
class BenchLadderCommandTest {
  /** The columns before the warm-up was added, in order: other tools read them by position too. */
  private static final String KEPT = "leaves,build_s,embed_s,knn_s,clustering_s,summaries_s,db_bytes,peak_heap_mb,"
      + "depth,mean_arity,root_arity,retrieve_p50_ms,retrieve_p99_ms,flat_p50_ms,embed_p50_ms,retrieve_path,"
      + "exact_p50_ms,exact_p99_ms,exact_agreement,java,simd,embed_p99_ms";

  @Test
  void writesEveryRungWithItsWarmUpCountAfterTheKeptColumns(@TempDir Path dir) throws Exception {
    Path corpus = corpus(dir, 100);
    Path out = dir.resolve("out");
    CommandLineTest.Run r = CommandLineTest.run("bench", "ladder", "--embedder", "hash", "--rungs", "30,60",
        "--prompts", "8", "--warmup", "12", "--corpus", corpus.toString(), "--out", out.toString());
    assertEquals(0, r.code(), r.err());
    List<String> csv = Files.readAllLines(out.resolve("results.csv"));
    assertEquals(KEPT + ",warmup_prompts", csv.get(0));
    assertEquals(3, csv.size(), String.join("\n", csv));
    for (int i = 1; i < csv.size(); i++) {
      String[] row = csv.get(i).split(",");
      assertEquals(csv.get(0).split(",").length, row.length, csv.get(i));
      assertEquals(i == 1 ? "30" : "60", row[0]);
      assertEquals("12", row[row.length - 1], "warm-up prompts: " + csv.get(i));
      assertEquals("exact", row[15], "below the candidate path's size: " + csv.get(i));
      assertEquals("1.0000", row[18], "the exact path agrees with itself: " + csv.get(i));
    }
  }

  @Test
  void aNegativeWarmUpIsRefused(@TempDir Path dir) throws Exception {
    CommandLineTest.Run r = CommandLineTest.run("bench", "ladder", "--embedder", "hash", "--rungs", "30",
        "--warmup", "-1", "--corpus", corpus(dir, 50).toString(), "--out", dir.resolve("out").toString());
    assertTrue(r.code() != 0, r.out());
    assertTrue(r.err().contains("--warmup must be 0 or more, got -1"), r.err());
  }

  /** Distinct sentences about a few topics, so that the hash embedder and BM25 have words to work with. */
  private static Path corpus(Path dir, int n) throws Exception {
    String[] topics = {"tariffs", "schools", "railroads", "veterans", "banks", "harbors", "mail", "forests"};
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      lines.add("Sentence " + i + " of the message speaks of " + topics[i % topics.length] + " and "
          + topics[(i * 3 + 1) % topics.length] + " in the year " + (1800 + i) + ".");
    }
    return Files.write(dir.resolve("corpus.txt"), lines);
  }
}

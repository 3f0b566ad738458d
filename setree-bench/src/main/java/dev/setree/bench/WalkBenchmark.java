package dev.setree.bench;

import dev.setree.internal.core.CapabilityScore;
import dev.setree.internal.core.ContextFormat;
import dev.setree.internal.core.Cover;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeCoverWalk;
import java.util.ArrayList;
import java.util.List;
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
 * The tree-cover walk alone (no prompt embedding, no relevance scan) on a random tree of arity ~8 over
 * {@code leaves} leaves, at budgets 512 and 4096.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WalkBenchmark {
  static final int DIM = 384;

  @Param({"1000", "50000"})
  int leaves;

  @Param({"512", "4096"})
  int budget;

  Tree tree;
  float[] relevance;
  float[] query;
  TreeCoverWalk walk;

  @Setup
  public void setup() {
    Random r = new Random(7);
    tree = randomTree(leaves, r);
    relevance = new float[leaves];
    for (int i = 0; i < leaves; i++) {
      relevance[i] = (float) r.nextGaussian();
    }
    query = KnnBenchmark.randomUnit(1, DIM, r);
    walk = new TreeCoverWalk(new CapabilityScore(0f, 0f), 0.15f, 0.05f, new ContextFormat(text -> text.split(" ").length));
  }

  @Benchmark
  public Cover walk() {
    return walk.walk(tree, relevance, query, budget);
  }

  /** A random tree: groups of 4 to 12 members per level until one root; texts of 8 to 30 tokens. */
  static Tree randomTree(int leaves, Random r) {
    List<String> ids = new ArrayList<>();
    List<Integer> parent = new ArrayList<>();
    List<Integer> level = new ArrayList<>();
    List<Integer> tokens = new ArrayList<>();
    List<Integer> members = new ArrayList<>();
    for (int i = 0; i < leaves; i++) {
      ids.add("l" + i);
      parent.add(-1);
      level.add(0);
      tokens.add(8 + r.nextInt(23));
      members.add(i);
    }
    int lvl = 1;
    while (members.size() > 1) {
      List<Integer> next = new ArrayList<>();
      int i = 0;
      while (i < members.size()) {
        int size = Math.min(members.size() - i, members.size() <= 12 ? members.size() : 4 + r.nextInt(9));
        int p = ids.size();
        ids.add("n" + p);
        parent.add(-1);
        level.add(lvl);
        tokens.add(lvl <= 1 ? 24 : 12);
        for (int k = 0; k < size; k++) {
          parent.set(members.get(i + k), p);
        }
        next.add(p);
        i += size;
      }
      members = next;
      lvl++;
    }
    int n = ids.size();
    String[] texts = new String[n];
    int[] tok = new int[n];
    for (int v = 0; v < n; v++) {
      tok[v] = tokens.get(v);
      texts[v] = "w ".repeat(tok[v]).strip();
    }
    float[] emb = KnnBenchmark.randomUnit(n, DIM, r);
    float[] centroids = KnnBenchmark.randomUnit(n - leaves, DIM, r);
    int[] faith = new int[n];
    return new Tree(DIM, leaves, ids.toArray(String[]::new), texts, null, null, tok,
        level.stream().mapToInt(Integer::intValue).toArray(), parent.stream().mapToInt(Integer::intValue).toArray(),
        emb, centroids, faith, null);
  }
}

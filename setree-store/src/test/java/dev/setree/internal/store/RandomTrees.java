package dev.setree.internal.store;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.Vectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Builds random but valid trees and hierarchy oracles for the store tests. */
final class RandomTrees {
  static final int DIM = 8;

  private RandomTrees() {}

  /** A random tree of 50 leaves and dimension {@link #DIM}. */
  static Tree tree(long seed) {
    return tree(seed, 50, DIM, "n");
  }

  /**
   * A random valid tree: leaves {@code 0..leaves-1}, internal nodes created bottom-up over 1 to 4
   * parentless nodes each, so every parent index exceeds its children's and the root is last. Ids start
   * with {@code prefix + "-"}; some ids and texts hold newlines, NULs and non-BMP characters; about a
   * third of the leaves have no time; one internal node has unknown faithfulness and one no summariser;
   * every third internal node quotes some of its leaves.
   */
  static Tree tree(long seed, int leaves, int dim, String prefix) {
    if (leaves == 0) {
      return Tree.empty(dim);
    }
    Random r = new Random(seed);
    List<String> ids = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    List<String> times = new ArrayList<>();
    List<String> summarizers = new ArrayList<>();
    List<Integer> levels = new ArrayList<>();
    List<Integer> parents = new ArrayList<>();
    List<float[]> embeddings = new ArrayList<>();
    List<float[]> leafSums = new ArrayList<>();
    List<List<Integer>> leavesUnder = new ArrayList<>();
    for (int i = 0; i < leaves; i++) {
      String id = prefix + "-leaf-" + i;
      if (i == 3) {
        id += "\nwith a newline";
      } else if (i == 4) {
        id += "-ünïcödé-\uD83D\uDE00";
      }
      ids.add(id);
      texts.add(i == 5 ? "a NUL \0 inside,\r\ntabs\tand \uD83C\uDF0D" : "fact " + i + " says " + r.nextLong());
      times.add(i % 3 == 0 ? null : "2024-0" + (1 + r.nextInt(9)) + "-1" + r.nextInt(10) + "T10:00:00Z");
      summarizers.add(null);
      levels.add(0);
      parents.add(-1);
      float[] e = randomUnit(r, dim);
      embeddings.add(e);
      leafSums.add(e.clone());
      leavesUnder.add(List.of(i));
    }
    List<Integer> orphans = new ArrayList<>();
    for (int i = 0; i < leaves; i++) {
      orphans.add(i);
    }
    List<int[]> sources = new ArrayList<>();
    for (int i = 0; i < leaves; i++) {
      sources.add(null);
    }
    while (orphans.size() > 1) {
      int k = r.nextInt(20) == 0 ? 1 : 2 + r.nextInt(Math.min(3, orphans.size() - 1));
      int v = ids.size();
      float[] sum = new float[dim];
      int level = 0;
      List<Integer> under = new ArrayList<>();
      for (int j = 0; j < k; j++) {
        int child = orphans.remove(r.nextInt(orphans.size()));
        parents.set(child, v);
        level = Math.max(level, levels.get(child) + 1);
        Vectors.addScaled(sum, leafSums.get(child), 0, dim, 1f);
        under.addAll(leavesUnder.get(child));
      }
      orphans.add(v);
      int internal = v - leaves;
      ids.add(prefix + "-node-" + internal);
      texts.add("summary " + internal + " of " + under.size() + " facts");
      times.add(null);
      summarizers.add(internal == 1 ? null : internal % 2 == 0 ? "extractive" : "llm:test-model");
      levels.add(level);
      parents.add(-1);
      embeddings.add(randomUnit(r, dim));
      leafSums.add(sum);
      leavesUnder.add(under);
      if (internal % 3 == 0) {
        int n = 1 + r.nextInt(Math.min(3, under.size()));
        int[] quoted = new int[n];
        for (int j = 0; j < n; j++) {
          quoted[j] = under.get(r.nextInt(under.size()));
        }
        sources.add(quoted);
      } else {
        sources.add(null);
      }
    }
    int n = ids.size();
    int[] tokens = new int[n];
    int[] level = new int[n];
    int[] parent = new int[n];
    int[] faithfulness = new int[n];
    float[] emb = new float[n * dim];
    float[] centroids = new float[(n - leaves) * dim];
    for (int v = 0; v < n; v++) {
      tokens[v] = 1 + r.nextInt(200);
      level[v] = levels.get(v);
      parent[v] = parents.get(v);
      System.arraycopy(embeddings.get(v), 0, emb, v * dim, dim);
      if (v < leaves) {
        faithfulness[v] = 100;
      } else {
        float[] c = Vectors.normalize(leafSums.get(v).clone());
        System.arraycopy(c, 0, centroids, (v - leaves) * dim, dim);
        faithfulness[v] = v == leaves ? Tree.UNKNOWN_FAITHFULNESS
            : Math.round(100 * Vectors.dot(c, embeddings.get(v)));
      }
    }
    if (n > 1) {
      emb[dim + 2] = -0.0f; // a negative zero must survive bit for bit
    }
    return canonical(new Tree(dim, leaves, ids.toArray(String[]::new), texts.toArray(String[]::new),
        times.toArray(String[]::new), summarizers.toArray(String[]::new), tokens, level, parent, emb,
        centroids, faithfulness, sources.toArray(int[][]::new)));
  }

  /**
   * The same tree numbered as the builder numbers trees and the store loads them: leaves in order, then
   * internal nodes by level and creation order (so the root, of the highest level, is last).
   */
  static Tree canonical(Tree t) {
    int n = t.size();
    int leaves = t.leafCount();
    List<Integer> order = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      order.add(v);
    }
    order.subList(leaves, n).sort(java.util.Comparator.comparingInt(t::level).thenComparingInt(v -> v));
    int[] newIndex = new int[n];
    for (int i = 0; i < n; i++) {
      newIndex[order.get(i)] = i;
    }
    int dim = t.dimension();
    String[] ids = new String[n];
    String[] texts = new String[n];
    String[] times = new String[n];
    String[] kinds = new String[n];
    int[] tokens = new int[n];
    int[] level = new int[n];
    int[] parent = new int[n];
    int[] faith = new int[n];
    float[] emb = new float[n * dim];
    float[] cen = new float[(n - leaves) * dim];
    int[][] sources = new int[n][];
    for (int i = 0; i < n; i++) {
      int v = order.get(i);
      ids[i] = t.id(v);
      texts[i] = t.text(v);
      times[i] = t.time(v);
      kinds[i] = t.summarizerKind(v);
      tokens[i] = t.tokens(v);
      level[i] = t.level(v);
      parent[i] = t.parent(v) < 0 ? -1 : newIndex[t.parent(v)];
      faith[i] = t.faithfulness(v);
      System.arraycopy(t.embedding(v), 0, emb, i * dim, dim);
      if (i >= leaves) {
        System.arraycopy(t.centroid(v), 0, cen, (i - leaves) * dim, dim);
      }
      if (t.sourceCount(v) > 0) {
        int[] src = new int[t.sourceCount(v)];
        for (int s = 0; s < src.length; s++) {
          src[s] = newIndex[t.source(v, s)];
        }
        sources[i] = src;
      }
    }
    return new Tree(dim, leaves, ids, texts, times, kinds, tokens, level, parent, emb, cen, faith, sources);
  }

  /**
   * A random two-level oracle over {@code tree}: level 0 holds the leaves, level 1 the nodes of level 1;
   * each member's parent id, a random assignment and a random kNN graph of varying out-degree (at least 1
   * on level 0). One weight is a NaN with a payload, one a negative zero. Needs at least two leaves.
   */
  static HierarchyState hierarchy(Tree tree, long seed) {
    Random r = new Random(seed);
    List<Integer> level0 = new ArrayList<>();
    List<Integer> level1 = new ArrayList<>();
    for (int v = 0; v < tree.size(); v++) {
      if (tree.level(v) == 0) {
        level0.add(v);
      } else if (tree.level(v) == 1) {
        level1.add(v);
      }
    }
    HierarchyState.Level l0 = level(tree, level0, r, 1, 3);
    l0.knnWeights()[0] = Float.intBitsToFloat(0x7fc00123);
    l0.knnWeights()[1] = -0.0f;
    return new HierarchyState(List.of(l0, level(tree, level1, r, 0, 2)));
  }

  private static HierarchyState.Level level(Tree tree, List<Integer> members, Random r, int minK, int maxK) {
    int m = members.size();
    int dim = tree.dimension();
    String[] memberIds = new String[m];
    String[] parentIds = new String[m];
    float[] centroids = new float[m * dim];
    int[] assignment = new int[m];
    int[] offsets = new int[m + 1];
    List<Integer> neighbors = new ArrayList<>();
    for (int i = 0; i < m; i++) {
      int v = members.get(i);
      memberIds[i] = tree.id(v);
      parentIds[i] = tree.parent(v) < 0 ? tree.id(v) : tree.id(tree.parent(v));
      System.arraycopy(tree.centroid(v), 0, centroids, i * dim, dim);
      assignment[i] = r.nextInt(5);
      int k = m > 1 ? minK + r.nextInt(maxK - minK + 1) : 0;
      for (int j = 0; j < k; j++) {
        neighbors.add((i + 1 + r.nextInt(m - 1)) % m);
      }
      offsets[i + 1] = neighbors.size();
    }
    int[] nb = neighbors.stream().mapToInt(Integer::intValue).toArray();
    float[] weights = new float[nb.length];
    for (int i = 0; i < weights.length; i++) {
      weights[i] = r.nextFloat() * 2 - 1;
    }
    return new HierarchyState.Level(memberIds, centroids, parentIds, assignment, offsets, nb, weights,
        r.nextBoolean() ? Double.NaN : r.nextDouble());
  }

  private static float[] randomUnit(Random r, int dim) {
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = (float) r.nextGaussian();
    }
    return Vectors.normalize(v);
  }
}

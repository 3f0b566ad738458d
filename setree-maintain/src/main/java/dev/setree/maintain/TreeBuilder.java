package dev.setree.maintain;

import dev.setree.core.Embedder;
import dev.setree.core.Fact;
import dev.setree.core.HierarchyState;
import dev.setree.core.Summarizer;
import dev.setree.core.TokenCounter;
import dev.setree.core.Tree;
import dev.setree.core.Vectors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds a knowledge base's summary hierarchy from its leaf facts (SPEC "Index time"):
 *
 * <ol>
 *   <li>embed every leaf, in batches;
 *   <li>cluster bottom-up over leaf-centroids: at each level the exact kNN graph of the members'
 *       centroids ({@link ExactKnn}), Leiden on it ({@link LeidenClustering}), a new parent for every
 *       community of two or more members, singletons carried forward unchanged; repeat until one node
 *       remains. When a level merges nothing, or when few enough members remain to be the root's children
 *       (at most 1.5 x the target arity), they are wrapped under one root;
 *   <li>write every summary in one deferred bottom-up pass ({@link SummaryPass}).
 * </ol>
 *
 * <p>Thread-safe if its embedder and summariser are; a builder holds no state between builds.
 */
public final class TreeBuilder {
  /** Prefix of internal node ids. */
  public static final String INTERNAL_ID_PREFIX = "_n";

  private final Embedder embedder;
  private final TokenCounter counter;
  private final Summarizer summarizer;
  private final BuildOptions options;

  /** A builder with its parts; see {@link BuildOptions#DEFAULTS}. */
  public TreeBuilder(Embedder embedder, TokenCounter counter, Summarizer summarizer, BuildOptions options) {
    this.embedder = embedder;
    this.counter = counter;
    this.summarizer = summarizer;
    this.options = options;
  }

  /**
   * Builds the tree of {@code facts}.
   *
   * @throws IllegalArgumentException with fewer than two facts, duplicate ids, or an id that collides with
   *     internal node ids ({@value #INTERNAL_ID_PREFIX}...)
   */
  public BuildResult build(List<Fact> facts, BuildProgress progress) {
    if (facts.size() < 2) {
      throw new IllegalArgumentException("a build needs at least 2 facts, got " + facts.size()
          + " (add a single fact with insert)");
    }
    Set<String> seen = new HashSet<>();
    for (Fact f : facts) {
      if (!seen.add(f.id())) {
        throw new IllegalArgumentException("duplicate fact id '" + f.id() + "'");
      }
      if (f.id().startsWith(INTERNAL_ID_PREFIX)) {
        throw new IllegalArgumentException("fact id '" + f.id() + "' uses the reserved prefix "
            + INTERNAL_ID_PREFIX);
      }
    }
    int dim = embedder.dimension();
    int leaves = facts.size();
    long t0 = System.nanoTime();
    float[] leafEmb = new float[leaves * dim];
    int batch = 64;
    for (int start = 0; start < leaves; start += batch) {
      int end = Math.min(leaves, start + batch);
      List<String> texts = new ArrayList<>(end - start);
      for (int i = start; i < end; i++) {
        texts.add(facts.get(i).text());
      }
      float[][] vecs = embedder.embed(texts);
      for (int i = start; i < end; i++) {
        System.arraycopy(vecs[i - start], 0, leafEmb, i * dim, dim);
      }
      progress.update("embed", end, leaves);
    }
    long t1 = System.nanoTime();
    Hierarchy h = cluster(facts, leafEmb, dim, progress);
    long t2 = System.nanoTime();
    SummaryPass pass = new SummaryPass(embedder, counter, summarizer, options);
    SummaryPass.Output out = pass.run(facts, h.ids, leafEmb, h.parent, h.level, h.sums, progress);
    long t3 = System.nanoTime();
    String[] times = new String[h.ids.size()];
    for (int i = 0; i < leaves; i++) {
      times[i] = facts.get(i).time();
    }
    Tree tree = new Tree(dim, leaves, h.ids.toArray(String[]::new), out.texts(), times, out.kinds(), out.tokens(),
        h.level.stream().mapToInt(Integer::intValue).toArray(),
        h.parent.stream().mapToInt(Integer::intValue).toArray(),
        out.embeddings(), out.centroids(), out.faithfulness(), out.sources());
    return new BuildResult(tree, new HierarchyState(List.copyOf(h.levels)),
        new BuildResult.Stats(t1 - t0, h.knnNanos, t2 - t1 - h.knnNanos, t3 - t2, h.levels.size(),
            out.fallbacks()));
  }

  /** The node structure while clustering: parallel lists indexed by node. */
  static final class Hierarchy {
    final List<String> ids = new ArrayList<>();
    final List<Integer> level = new ArrayList<>();
    final List<Integer> parent = new ArrayList<>();
    final List<float[]> sums = new ArrayList<>();
    final List<HierarchyState.Level> levels = new ArrayList<>();
    long knnNanos;

    int add(String id, int lvl, float[] sum) {
      ids.add(id);
      level.add(lvl);
      parent.add(-1);
      sums.add(sum);
      return ids.size() - 1;
    }
  }

  private Hierarchy cluster(List<Fact> facts, float[] leafEmb, int dim, BuildProgress progress) {
    Hierarchy h = new Hierarchy();
    for (int i = 0; i < facts.size(); i++) {
      h.add(facts.get(i).id(), 0, Vectors.row(leafEmb, i, dim));
    }
    LeidenClustering leiden = new LeidenClustering(options.targetArity(), options.seed());
    int[] members = new int[facts.size()];
    for (int i = 0; i < members.length; i++) {
      members[i] = i;
    }
    int rootArity = options.targetArity() + options.targetArity() / 2;
    int nextId = 0;
    for (int lvl = 0; ; lvl++) {
      int m = members.length;
      float[] centroids = new float[m * dim];
      for (int i = 0; i < m; i++) {
        float[] c = Vectors.normalize(h.sums.get(members[i]).clone());
        System.arraycopy(c, 0, centroids, i * dim, dim);
      }
      long k0 = System.nanoTime();
      KnnGraph knn = ExactKnn.allPairs(centroids, m, dim, options.k());
      h.knnNanos += System.nanoTime() - k0;
      int[] assignment;
      if (m <= rootArity) {
        assignment = new int[m];
      } else {
        assignment = leiden.cluster(knn).assignment();
        boolean merged = false;
        int[] size = new int[m];
        for (int a : assignment) {
          merged |= ++size[a] >= 2;
        }
        if (!merged) {
          assignment = new int[m];
        }
      }
      progress.update("cluster", lvl + 1, lvl + 1 + (m > rootArity ? 1 : 0));
      int communities = 0;
      for (int a : assignment) {
        communities = Math.max(communities, a + 1);
      }
      int[] size = new int[communities];
      for (int a : assignment) {
        size[a]++;
      }
      int[] parentOf = new int[communities];
      List<Integer> next = new ArrayList<>();
      String[] parentIds = new String[m];
      for (int c = 0; c < communities; c++) {
        parentOf[c] = -1;
      }
      for (int i = 0; i < m; i++) {
        int c = assignment[i];
        int node = members[i];
        if (size[c] == 1) {
          parentIds[i] = h.ids.get(node);
          next.add(node);
          continue;
        }
        if (parentOf[c] < 0) {
          parentOf[c] = h.add(INTERNAL_ID_PREFIX + (nextId++), lvl + 1, new float[dim]);
          next.add(parentOf[c]);
        }
        int p = parentOf[c];
        h.parent.set(node, p);
        Vectors.addScaled(h.sums.get(p), h.sums.get(node), 0, dim, 1f);
        parentIds[i] = h.ids.get(p);
      }
      String[] memberIds = new String[m];
      for (int i = 0; i < m; i++) {
        memberIds[i] = h.ids.get(members[i]);
      }
      h.levels.add(new HierarchyState.Level(memberIds, centroids, parentIds, assignment, knn.offsets(),
          knn.neighbors(), knn.weights()));
      members = next.stream().mapToInt(Integer::intValue).toArray();
      if (members.length == 1) {
        return h;
      }
    }
  }
}

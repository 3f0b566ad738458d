package dev.setree.internal.maintain;

import dev.setree.spi.Embedder;
import dev.setree.spi.Fact;
import dev.setree.internal.core.HierarchyState;
import dev.setree.spi.Summarizer;
import dev.setree.spi.TokenCounter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds a knowledge base's summary hierarchy from its leaf facts (SPEC "Index time"):
 *
 * <ol>
 *   <li>embed every leaf, in batches;
 *   <li>cluster bottom-up over leaf-centroids: at each level the kNN graph of the members' centroids
 *       (exact, {@link ExactKnn}, up to {@link BuildOptions#exactKnnLimit()} members; NN-descent,
 *       {@code NnDescent}, above), Leiden on it ({@link LeidenClustering}), a new parent for every
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
      checkId(f.id());
    }
    long t0 = System.nanoTime();
    float[][] emb = embed(embedder, facts, progress);
    long t1 = System.nanoTime();
    DraftTree draft = new DraftTree(embedder.dimension());
    int[] tokens = new int[facts.size()];
    // Token counters are thread-safe (the SPI's contract); a million WordPiece counts take minutes on one core.
    java.util.stream.IntStream.range(0, tokens.length).parallel()
        .forEach(i -> tokens[i] = counter.count(facts.get(i).text()));
    for (int i = 0; i < facts.size(); i++) {
      Fact f = facts.get(i);
      draft.addLeaf(f.id(), f.text(), f.time(), emb[i], tokens[i]);
    }
    long[] knnNanos = new long[1];
    List<HierarchyState.Level> levels = cluster(draft, new ArrayList<>(draft.leaves), new IdSource(0),
        options, knnNanos, progress);
    long t2 = System.nanoTime();
    SummaryPass.Result sr = new SummaryPass(embedder, counter, summarizer, options)
        .run(draft, Integer.MIN_VALUE, progress);
    long t3 = System.nanoTime();
    return new BuildResult(draft.toTree(), new HierarchyState(List.copyOf(levels)),
        new BuildResult.Stats(t1 - t0, knnNanos[0], t2 - t1 - knnNanos[0], t3 - t2, levels.size(),
            sr.fallbacks(), sr.summarized()));
  }

  static void checkId(String id) {
    if (id.startsWith(INTERNAL_ID_PREFIX)) {
      throw new IllegalArgumentException("fact id '" + id + "' uses the reserved prefix " + INTERNAL_ID_PREFIX);
    }
  }

  /** Embeds the facts' texts in batches of 64, reporting progress. */
  static float[][] embed(Embedder embedder, List<Fact> facts, BuildProgress progress) {
    float[][] out = new float[facts.size()][];
    // Large calls: the embedder sorts each call's texts by length before it batches them, so the larger the
    // call, the less its batches are padded (issue #14); the progress bar moves once per call.
    int batch = EMBED_CALL;
    for (int start = 0; start < facts.size(); start += batch) {
      int end = Math.min(facts.size(), start + batch);
      List<String> texts = new ArrayList<>(end - start);
      for (int i = start; i < end; i++) {
        texts.add(facts.get(i).text());
      }
      float[][] vecs = embedder.embed(texts);
      System.arraycopy(vecs, 0, out, start, end - start);
      progress.update("embed", end, facts.size());
    }
    return out;
  }

  /** Facts per embedder call during a build. */
  static final int EMBED_CALL = 2048;

  /** Allocates internal node ids {@code _n0, _n1, ...}. */
  static final class IdSource {
    private long next;

    IdSource(long next) {
      this.next = next;
    }

    String next() {
      return INTERNAL_ID_PREFIX + (next++);
    }

    /** The number the next id will carry: above every number given so far and every one it started after. */
    long peek() {
      return next;
    }

    /**
     * As {@link #after}, for a tree no internal id of which carries a number above {@code bound}, looked up once
     * ({@code bound}'s id): when the tree holds it, the source continues after it without reading every internal
     * node's id (about 7,000 at 50,000 leaves, a cache miss or two each); else as {@link #after}.
     */
    static IdSource afterAtMost(dev.setree.internal.core.Tree tree, long bound) {
      if (bound >= 0 && tree.indexOf(INTERNAL_ID_PREFIX + bound) >= tree.leafCount()) {
        assert after(tree).next == bound + 1 : "an internal id above " + bound;
        return new IdSource(bound + 1);
      }
      return after(tree);
    }

    /**
     * An id source continuing after the highest internal id among the ids of {@code tree}'s nodes. Reads the
     * internal nodes' ids only: no leaf id carries {@value #INTERNAL_ID_PREFIX} (a build, the intake of a
     * mutation and a maintenance run each refuse such a fact id), so reading every leaf's id per run, a cache
     * miss each, would find nothing (checked under assertions).
     */
    static IdSource after(dev.setree.internal.core.Tree tree) {
      long max = -1;
      for (int v = tree.leafCount(); v < tree.size(); v++) {
        max = Math.max(max, internalNumber(tree.id(v)));
      }
      assert noLeafLooksInternal(tree) : "a leaf id with the reserved prefix " + INTERNAL_ID_PREFIX;
      return new IdSource(max + 1);
    }

    private static boolean noLeafLooksInternal(dev.setree.internal.core.Tree tree) {
      for (int v = 0; v < tree.leafCount(); v++) {
        if (internalNumber(tree.id(v)) >= 0) {
          return false;
        }
      }
      return true;
    }

    /**
     * The number of an internal id ({@value #INTERNAL_ID_PREFIX} and decimal digits, as {@link #next} makes
     * them), or -1 for any other id. Reads the digits in place: a run looks at every node's id.
     */
    static long internalNumber(String id) {
      int p = INTERNAL_ID_PREFIX.length();
      if (id.length() <= p || id.length() > p + 18 || !id.startsWith(INTERNAL_ID_PREFIX)) {
        return -1;
      }
      long n = 0;
      for (int i = p; i < id.length(); i++) {
        char c = id.charAt(i);
        if (c < '0' || c > '9') {
          return -1;
        }
        n = 10 * n + (c - '0');
      }
      return n;
    }
  }

  /**
   * Clusters {@code members} (at level {@code firstLevel}'s numbering: level of the members' new parents is
   * {@code startLevel + 1}) bottom-up until one root remains, creating internal nodes in {@code draft}.
   *
   * @return the oracle levels, one per clustering level
   */
  static List<HierarchyState.Level> cluster(DraftTree draft, List<DraftNode> members, IdSource ids,
      BuildOptions options, long[] knnNanos, BuildProgress progress) {
    return clusterFrom(draft, members, 0, ids, options, knnNanos, progress);
  }

  static List<HierarchyState.Level> clusterFrom(DraftTree draft, List<DraftNode> members, int startLevel,
      IdSource ids, BuildOptions options, long[] knnNanos, BuildProgress progress) {
    List<HierarchyState.Level> levels = new ArrayList<>();
    LeidenClustering leiden = new LeidenClustering(options.targetArity(), options.seed());
    int dim = draft.dim;
    int rootArity = rootArity(options);
    for (int lvl = startLevel; members.size() > 1; lvl++) {
      int m = members.size();
      float[] centroids = centroids(draft, members);
      long k0 = System.nanoTime();
      KnnGraph knn = options.knnGraph(centroids, m, dim);
      knnNanos[0] += System.nanoTime() - k0;
      int[] assignment = new int[m];
      double resolution = Double.NaN;
      if (m > rootArity) {
        LeidenClustering.Result res = leiden.cluster(knn);
        if (mergesAnything(res.assignment())) {
          assignment = res.assignment();
          resolution = res.resolution();
        }
      }
      progress.update("cluster", lvl + 1, lvl + 1 + (m > rootArity ? 1 : 0));
      Grouping g = group(draft, members, assignment, lvl + 1, ids);
      levels.add(new HierarchyState.Level(ids(members), centroids, g.parentIds, assignment, knn.offsets(),
          knn.neighbors(), knn.weights(), resolution));
      members = g.next;
    }
    return levels;
  }

  static int rootArity(BuildOptions options) {
    return options.targetArity() + options.targetArity() / 2;
  }

  static boolean mergesAnything(int[] assignment) {
    for (int s : communitySizes(assignment)) {
      if (s >= 2) {
        return true;
      }
    }
    return false;
  }

  /** Members per community id (ids are non-negative, not necessarily dense). */
  static int[] communitySizes(int[] assignment) {
    int[] size = new int[Communities.count(assignment)];
    for (int a : assignment) {
      size[a]++;
    }
    return size;
  }

  /**
   * The members' leaf-centroids, row by row; when the members are the draft's leaves in order (level 0), the
   * draft's leaf rows, shared with the frozen tree ({@link DraftTree#leafRows()}), not a copy.
   */
  static float[] centroids(DraftTree draft, List<DraftNode> members) {
    boolean leaves = members.size() == draft.leaves.size();
    for (int i = 0; i < members.size() && leaves; i++) {
      leaves = members.get(i) == draft.leaves.get(i);
    }
    return leaves ? draft.leafRows() : centroids(members, draft.dim);
  }

  static float[] centroids(List<DraftNode> members, int dim) {
    float[] c = new float[members.size() * dim];
    for (int i = 0; i < members.size(); i++) {
      members.get(i).copyCentroidInto(c, i * dim, dim);
    }
    return c;
  }

  static String[] ids(List<DraftNode> members) {
    String[] out = new String[members.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = members.get(i).id;
    }
    return out;
  }

  /** The outcome of turning one level's assignment into parents. */
  record Grouping(List<DraftNode> next, String[] parentIds) {}

  /** Creates a new parent for every community of >= 2 members; singletons are carried forward. */
  static Grouping group(DraftTree draft, List<DraftNode> members, int[] assignment, int parentLevel,
      IdSource ids) {
    int[] size = communitySizes(assignment);
    int communities = size.length;
    DraftNode[] parentOf = new DraftNode[communities];
    List<DraftNode> next = new ArrayList<>();
    String[] parentIds = new String[members.size()];
    for (int i = 0; i < members.size(); i++) {
      DraftNode node = members.get(i);
      int c = assignment[i];
      if (size[c] == 1) {
        parentIds[i] = node.id;
        next.add(node);
        continue;
      }
      if (parentOf[c] == null) {
        parentOf[c] = draft.addInternal(ids.next(), parentLevel);
        next.add(parentOf[c]);
      }
      DraftTree.attach(node, parentOf[c]);
      parentIds[i] = parentOf[c].id;
    }
    for (DraftNode p : parentOf) {
      if (p != null) {
        p.sum = draft.canonicalSum(p);
        p.touch();
      }
    }
    return new Grouping(next, parentIds);
  }
}

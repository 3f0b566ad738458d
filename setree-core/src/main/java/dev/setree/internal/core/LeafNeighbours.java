package dev.setree.internal.core;

import java.util.Arrays;

/**
 * Approximate nearest leaves of a prompt without scanning every leaf: a beam descent through the tree's
 * leaf-centroids finds the region of the prompt (as the hierarchical k-means tree of Muja and Lowe, "Fast
 * Approximate Nearest Neighbors with Automatic Algorithm Configuration", VISAPP 2009, does), and its best
 * leaves seed a beam search over the level-0 kNN graph the tree keeps for clustering (Hajebi et al., "Fast
 * Approximate Nearest-Neighbor Search with k-Nearest Neighbor Graphs", IJCAI 2011), made undirected.
 *
 * <p>The graph is the one the build and every maintenance run already keep up to date and persist (the
 * oracle's level 0), so this index costs no build and no file of its own; the undirected adjacency
 * ({@link LeafGraph}) is derived once per snapshot, from the previous snapshot's when the leaves only grew. Without a graph (a read-only open does not load the oracle) the
 * descent alone answers, with a wider beam. Thread-safe: per-thread scratch, nothing sized by the knowledge
 * base allocated per query.
 */
public final class LeafNeighbours {
  /** Internal nodes kept per level of the descent. */
  public static final int DESCENT_BEAM = 16;
  /** Neighbours kept per leaf in the undirected graph (the strongest). */
  public static final int MAX_DEGREE = 24;

  /** The descent's beam when there is no graph to refine its result. */
  public static final int DESCENT_ONLY_BEAM = 64;

  private final Tree tree;
  private final int dim;
  private final float[] emb;
  /** The undirected kNN graph, or null without one. */
  final LeafGraph graph;
  /**
   * Its adjacency over leaf indexes, or null without a graph: leaf v's row is {@code neighbours[s, e)}, with {@code s}
   * and {@code e} at {@link RangeRows#at}{@code (v)} of page {@code v >>> RangeRows.SHIFT} ({@link RangeRows}).
   */
  private final int[][] ranges;
  private final int[] neighbours;
  /** Per thread, shared by every index (it grows to the largest knowledge base searched). */
  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private LeafNeighbours(Tree tree, LeafGraph graph) {
    this.tree = tree;
    this.dim = tree.dimension();
    this.emb = tree.leafEmbeddings();
    this.graph = graph;
    this.ranges = graph == null ? null : graph.out.pages();
    this.neighbours = graph == null ? null : graph.out.entries();
  }

  /** The index of {@code tree}'s leaves, with the level-0 kNN graph of {@code hierarchy} when it has one. */
  public static LeafNeighbours of(Tree tree, HierarchyState hierarchy) {
    return new LeafNeighbours(tree, LeafGraph.of(tree, hierarchy));
  }

  /**
   * The index of the next snapshot ({@code tree} with {@code hierarchy}): its graph derived from this one's
   * when the leaves only grew ({@link LeafGraph#next}), equal to {@link #of} of the same snapshot.
   */
  public LeafNeighbours next(Tree tree, HierarchyState hierarchy) {
    return new LeafNeighbours(tree, graph == null ? LeafGraph.of(tree, hierarchy) : graph.next(tree, hierarchy));
  }

  /** The tree whose leaves this index finds. */
  public Tree tree() {
    return tree;
  }

  /** True when a kNN graph refines the descent. */
  public boolean hasGraph() {
    return ranges != null;
  }

  /**
   * The (approximately) {@code k} nearest leaves of unit vector {@code q} by cosine, best first.
   *
   * @param ef the graph search's beam (>= k): larger finds more of the true nearest, slower
   */
  public Hits search(float[] q, int k, int ef) {
    return search(q, k, ef, null, 0f);
  }

  /**
   * The (approximately) {@code k} leaves of unit vector {@code q} with the best {@code cosine + weight x
   * prior[leaf]}, best first: a static per-leaf prior (such as the leaf's substance) searched for with the
   * cosine, so that the k-th hit's score stays a bound of the leaves not found.
   *
   * @param prior a value per leaf, or null for none
   * @param weight its weight
   */
  public Hits search(float[] q, int k, int ef, float[] prior, float weight) {
    Scratch s = SCRATCH.get();
    s.prior = weight != 0f ? prior : null;
    s.weight = weight;
    s.begin(tree.leafCount());
    int width = Math.max(ef, k);
    TopList best = new TopList(width);
    descend(q, s, best, hasGraph() ? DESCENT_BEAM : Math.max(DESCENT_ONLY_BEAM, DESCENT_BEAM * width / 32));
    if (hasGraph()) {
      graphSearch(q, s, best);
    }
    return best.top(k);
  }

  /** Level by level from the root, keeping the {@code beam} internal nodes nearest by centroid. */
  private void descend(float[] q, Scratch s, TopList leaves, int beam) {
    int[] frontier = {tree.root()};
    int size = 1;
    if (tree.isLeaf(tree.root())) {
      score(tree.root(), q, s, leaves);
      return;
    }
    while (size > 0) {
      TopList next = new TopList(beam);
      for (int i = 0; i < size; i++) {
        int v = frontier[i];
        for (int c = 0, m = tree.childCount(v); c < m; c++) {
          int child = tree.child(v, c);
          if (tree.isLeaf(child)) {
            score(child, q, s, leaves);
          } else {
            next.offer(tree.centroidDot(child, q), child);
          }
        }
      }
      frontier = next.nodes();
      size = frontier.length;
    }
  }

  /** Best-first search over the graph from the leaves found so far, until no candidate can improve them. */
  private void graphSearch(float[] q, Scratch s, TopList best) {
    TreeCoverWalk.Heap open = s.open;
    open.clear();
    for (int i = 0; i < best.size(); i++) {
      open.push(best.score(i), best.node(i));
    }
    while (!open.isEmpty()) {
      float sv = open.topScore();
      int v = open.popNode();
      if (best.isFull() && sv < best.worst()) {
        break;
      }
      int[] range = ranges[v >>> RangeRows.SHIFT];
      int at = RangeRows.at(v);
      for (int e = range[at], to = range[at + 1]; e < to; e++) {
        int u = neighbours[e];
        if (s.visited[u] == s.stamp) {
          continue;
        }
        s.visited[u] = s.stamp;
        float su = SimdDot.dot(emb, u * dim, q, 0, dim) + s.prior(u);
        if (best.offer(su, u)) {
          open.push(su, u);
        }
      }
    }
  }

  private void score(int leaf, float[] q, Scratch s, TopList out) {
    if (s.visited[leaf] != s.stamp) {
      s.visited[leaf] = s.stamp;
      out.offer(SimdDot.dot(emb, leaf * dim, q, 0, dim) + s.prior(leaf), leaf);
    }
  }

  /** Leaves and their cosines (plus the weighted prior, when the search had one), best first. */
  public record Hits(int[] leaves, float[] cosines) {
    /** Number of hits. */
    public int size() {
      return leaves.length;
    }
  }

  /** Per-thread: visit stamps over the leaves and the graph search's open list. */
  private static final class Scratch {
    int[] visited = new int[0];
    final TreeCoverWalk.Heap open = new TreeCoverWalk.Heap(1024);
    int stamp;
    /** The current search's per-leaf prior (null for none) and its weight. */
    float[] prior;
    float weight;

    /** The current search's weighted prior of {@code leaf} (0 without one). */
    float prior(int leaf) {
      return prior == null ? 0f : weight * prior[leaf];
    }

    void begin(int n) {
      if (visited.length < n) {
        visited = new int[Math.max(n, visited.length + (visited.length >> 1))];
        stamp = 0;
      }
      if (++stamp == Integer.MAX_VALUE) {
        Arrays.fill(visited, 0);
        stamp = 1;
      }
    }
  }

  /** The best {@code capacity} (score, node) pairs offered, as a min-heap. */
  static final class TopList {
    private final float[] scores;
    private final int[] nodes;
    private int size;

    TopList(int capacity) {
      scores = new float[Math.max(1, capacity)];
      nodes = new int[scores.length];
    }

    int size() {
      return size;
    }

    boolean isFull() {
      return size == scores.length;
    }

    /** The lowest score kept (only meaningful when full). */
    float worst() {
      return scores[0];
    }

    float score(int i) {
      return scores[i];
    }

    int node(int i) {
      return nodes[i];
    }

    /** Offers a pair; true if it was kept. Ties keep the smaller node. */
    boolean offer(float score, int node) {
      if (size < scores.length) {
        int i = size++;
        while (i > 0) {
          int p = (i - 1) >>> 1;
          if (!worse(score, node, scores[p], nodes[p])) {
            break;
          }
          scores[i] = scores[p];
          nodes[i] = nodes[p];
          i = p;
        }
        scores[i] = score;
        nodes[i] = node;
        return true;
      }
      if (!worse(scores[0], nodes[0], score, node)) {
        return false;
      }
      int i = 0;
      while (true) {
        int l = 2 * i + 1;
        if (l >= size) {
          break;
        }
        int r = l + 1;
        int w = r < size && worse(scores[r], nodes[r], scores[l], nodes[l]) ? r : l;
        if (!worse(scores[w], nodes[w], score, node)) {
          break;
        }
        scores[i] = scores[w];
        nodes[i] = nodes[w];
        i = w;
      }
      scores[i] = score;
      nodes[i] = node;
      return true;
    }

    private static boolean worse(float s1, int n1, float s2, int n2) {
      return s1 < s2 || (s1 == s2 && n1 > n2);
    }

    /** The kept nodes, in no particular order. */
    int[] nodes() {
      return Arrays.copyOf(nodes, size);
    }

    /** The best {@code k} kept, best first. */
    Hits top(int k) {
      long[] keyed = new long[size];
      for (int i = 0; i < size; i++) {
        keyed[i] = Ranking.key(scores[i], nodes[i]); // score descending, then node ascending
      }
      Arrays.sort(keyed);
      int m = Math.min(k, size);
      int[] leaves = new int[m];
      float[] cos = new float[m];
      for (int i = 0; i < m; i++) {
        leaves[i] = Ranking.index(keyed[i]);
        cos[i] = Ranking.score(keyed[i]);
      }
      return new Hits(leaves, cos);
    }
  }
}

package dev.setree;

import dev.setree.internal.core.ContextFormat;
import dev.setree.internal.core.Cover;
import dev.setree.internal.core.LeafNeighbours;
import dev.setree.internal.core.LeafRelevance;
import dev.setree.internal.core.Ranking;
import dev.setree.internal.core.SimdDot;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeCoverWalk;
import dev.setree.internal.core.Vectors;
import dev.setree.internal.core.WalkTables;
import dev.setree.spi.Embedder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The query path after the prompt is embedded: leaf relevance (cosine and BM25), then the tree-cover walk
 * or one of the flat baselines, then rendering. Reads only the immutable snapshot; never writes.
 */
final class Retriever {
  private Retriever() {}

  /** Nearest leaves by cosine scored on the candidate path. */
  static final int COSINE_CANDIDATES = 256;
  /** The graph search's beam on the candidate path. */
  static final int SEARCH_BEAM = 256;
  /** Best BM25 hits scored on the candidate path. */
  static final int LEXICAL_CANDIDATES = 512;

  static Context retrieve(Snapshot s, String prompt, float[] q, int budget, Strategy strategy, Baseline baseline,
      double tau, int secondHop, ClusterSelection clustering, Embedder embedder, TreeCoverWalk walk,
      ContextFormat format, boolean approximate, Words words, LeafNeighbours.Hits near, LeafPrior prior, long t0) {
    Tree tree = s.tree();
    if (baseline == Baseline.COLLAPSED) {
      return collapsed(tree, q, budget, format, t0);
    }
    if (baseline == Baseline.RECENCY) {
      return recency(tree, budget, format, t0);
    }
    if (approximate && strategy == Strategy.TREE_COVER) {
      LeafRelevance own = candidates(s, prompt, q, tau, budget, s.walkTables(format), words, near, prior);
      LeafRelevance rel = own;
      if (secondHop > 0 && tree.leafCount() > secondHop) {
        rel = SecondHop.interleave(s, prompt, q, own, secondHop, embedder,
            (p2, q2) -> candidates(s, p2, q2, tau, budget, s.walkTables(format), null, null, prior));
      }
      if (clustering != null) {
        rel = clustering.promoteRepresentatives(tree, rel);
      }
      return context(tree, walk.walk(tree, rel, own, q, budget, s.walkTables(format)), budget, format, t0);
    }
    int leaves = tree.leafCount();
    float[] relevance = relevance(s, prompt, q, strategy, tau, prior);
    float[] ownRelevance = relevance;
    if (secondHop > 0 && leaves > secondHop) {
      relevance = SecondHop.interleave(s, prompt, q, relevance, secondHop, embedder,
          (p2, q2) -> relevance(s, p2, q2, strategy, tau, prior));
    }
    if (strategy != Strategy.TREE_COVER) {
      int[] order = clustering == null ? byScore(relevance, leaves)
          : clustering.packOrder(tree, relevance, budget, format);
      return pack(tree, order, strategy == Strategy.BM25 ? relevance : null, budget, format, t0);
    }
    if (clustering != null) {
      relevance = clustering.promoteRepresentatives(tree, relevance);
    }
    LeafRelevance order = LeafRelevance.of(relevance);
    LeafRelevance own = ownRelevance == relevance ? order : LeafRelevance.of(ownRelevance);
    return context(tree, walk.walk(tree, order, own, q, budget, s.walkTables(format)), budget, format, t0);
  }

  private static Context context(Tree tree, Cover cover, int budget, ContextFormat format, long t0) {
    List<Context.Item> items = new ArrayList<>(cover.items().size());
    for (Cover.Item it : cover.items()) {
      items.add(new Context.Item(tree, it.node(), it.depth(), it.cost()));
    }
    return new Context(format.render(tree, cover.items()), items, cover.tokensUsed(), budget, cover.complete(),
        new Context.Stats(cover.pops(), cover.nodesScored(), System.nanoTime() - t0));
  }

  /**
   * Candidate-driven leaf relevance (docs/adr/0018): the approximate nearest leaves by cosine and the best
   * BM25 hits get the exact blend {@code cosine + tau x BM25 / max BM25}; every other leaf is bounded by
   * the last nearest leaf's cosine plus the last hit's BM25 share (capped by {@link #budgetFloor}), and
   * gets the same exact blend if the walk reaches it. With a {@link LeafPrior}, every value and the bound
   * include it: the nearest-leaf search looks for the best cosine plus weighted substance, and the leaves of
   * the prompt's period are candidates too (up to {@link LeafPrior#PERIOD_CANDIDATES}; beyond, the bound
   * includes the period boost). Nothing here is sized by the knowledge base.
   */
  static LeafRelevance candidates(Snapshot s, String prompt, float[] q, double tau, int budget,
      WalkTables tables, Words words, LeafNeighbours.Hits near, LeafPrior prior) {
    return candidates(s, q, tau, budget, tables,
        words != null ? words : tau > 0 ? words(s, prompt, LEXICAL_CANDIDATES) : null,
        near != null ? near : nearest(s, q, prior), prior);
  }

  /**
   * The candidate path's nearest leaves: the {@value #COSINE_CANDIDATES} best by cosine plus weighted substance
   * (a static per-leaf prior, so that the last hit's score still bounds every leaf not found); none when
   * {@code q} is zero (a retrieve cut short). Found on the embedder's thread while the caller looks up the
   * prompt's words, or by the second hop.
   */
  static LeafNeighbours.Hits nearest(Snapshot s, float[] q, LeafPrior prior) {
    if (!(Vectors.dot(q, 0, q, 0, q.length) > 0f)) {
      return new LeafNeighbours.Hits(new int[0], new float[0]);
    }
    float[] substance = prior == null ? null : prior.leafSubstance();
    return s.neighbours().search(q, COSINE_CANDIDATES, SEARCH_BEAM, substance,
        substance == null ? 0f : prior.substanceWeight());
  }

  /** The lexical side of the candidate path for a prompt: its terms looked up, and its best BM25 hits. */
  record Words(LexicalIndex.Prompt prompt, BestHits top) {}

  /** {@link Words} of a prompt, with the default number of BM25 hits (done while the prompt is embedded). */
  static Words words(Snapshot s, String prompt) {
    return words(s, prompt, LEXICAL_CANDIDATES);
  }

  static Words words(Snapshot s, String prompt, int hits) {
    LexicalIndex.Prompt p = s.lexical().prompt(prompt);
    return new Words(p, p.top(hits));
  }

  /**
   * {@link #candidates(Snapshot, String, float[], double, int, WalkTables, Words, LeafNeighbours.Hits,
   * LeafPrior)} from the prompt's lexical side and its nearest leaves ({@link #nearest}), both found.
   */
  static LeafRelevance candidates(Snapshot s, float[] q, double tau, int budget, WalkTables tables,
      Words lexicalSide, LeafNeighbours.Hits near, LeafPrior prior) {
    Tree tree = s.tree();
    boolean meaning = Vectors.dot(q, 0, q, 0, q.length) > 0f; // a retrieve cut short has no embedding
    float[] substance = prior == null ? null : prior.leafSubstance();
    float substanceWeight = substance == null ? 0f : prior.substanceWeight();
    LexicalIndex.Prompt lexical = tau > 0 && lexicalSide != null ? lexicalSide.prompt() : null;
    BestHits words = lexical != null ? lexicalSide.top() : BestHits.NONE;
    float w = words.max() > 0f ? (float) (tau / words.max()) : 0f;
    LeafScorer bm25 = w > 0f ? lexical.leafScorer() : null;
    LeafRelevance.LeafScore exact = new LeafRelevance.LeafScore() {
      @Override
      public float of(int v) {
        return of(v, meaning ? tree.embeddingDot(v, q) : 0f);
      }

      @Override
      public float of(int v, float cosine) { // the walk computed the leaf's cosine for its capability score
        return (meaning ? cosine : 0f) + (bm25 == null ? 0f : w * bm25.score(v)) + (prior == null ? 0f : prior.of(v));
      }
    };
    int[] periodLeaves = prior == null ? new int[0] : prior.periodLeaves();
    int[] extra = periodLeaves == null ? new int[0] : periodLeaves;
    int[] leaves = Arrays.copyOf(near.leaves(), near.size() + words.leaves().length + extra.length);
    int m = near.size();
    int[] sorted = Arrays.copyOf(leaves, m); // the nearest leaves, to skip BM25 hits among them
    Arrays.sort(sorted);
    for (int v : words.leaves()) {
      if (Arrays.binarySearch(sorted, v) < 0) {
        leaves[m++] = v;
      }
    }
    int hitsEnd = m;
    if (extra.length > 0) { // the period's leaves not found yet
      sorted = Arrays.copyOf(leaves, m);
      Arrays.sort(sorted);
      for (int v : extra) {
        if (Arrays.binarySearch(sorted, v) < 0) {
          leaves[m++] = v;
        }
      }
    }
    leaves = Arrays.copyOf(leaves, m);
    float[] values = new float[m];
    int hit = 0;
    for (int i = 0; i < m; i++) {
      int v = leaves[i];
      if (i < near.size()) { // a nearest leaf: its cosine came with it
        values[i] = near.cosines()[i] + (bm25 == null ? 0f : w * bm25.score(v))
            + (prior == null ? 0f : prior.period(v));
      } else if (i < hitsEnd) { // a BM25 hit: its score came with it (the hits keep their order here)
        while (words.leaves()[hit] != v) {
          hit++;
        }
        values[i] = (meaning ? tree.embeddingDot(v, q) : 0f) + w * words.scores()[hit++]
            + (prior == null ? 0f : prior.of(v));
      } else {
        values[i] = exact.of(v);
      }
    }
    float others;
    if (m >= tree.leafCount()) {
      others = Float.NEGATIVE_INFINITY; // every leaf is a candidate
    } else {
      float cosineBound = !meaning ? substanceWeight : near.size() > 0 ? near.cosines()[near.size() - 1]
          : 1f + substanceWeight;
      float priorBound = prior == null ? 0f : prior.periodBoundOfOthers(periodLeaves != null);
      others = Math.min(cosineBound + w * words.floor() + priorBound, budgetFloor(leaves, values, budget, tables));
    }
    return LeafRelevance.candidates(leaves, values, others, exact);
  }

  /**
   * The value below which the best candidates alone would fill twice the budget ({@code +infinity} when
   * they cannot). The bound of the other leaves is capped there: when a prompt's relevance is flat, the bound
   * is above most candidates, and a walk taking it at its word would open every subtree holding a
   * non-candidate, all of them, before showing the candidates that fill the budget anyway.
   */
  static float budgetFloor(int[] leaves, float[] values, int budget, WalkTables tables) {
    int[] order = Ranking.descending(values);
    long filled = 0;
    for (int i : order) {
      filled += tables.cost(leaves[i]);
      if (filled >= 2L * budget) {
        return values[i];
      }
    }
    return Float.POSITIVE_INFINITY;
  }

  /**
   * Leaf relevance for one prompt: cosine, BM25, or cosine + tau x BM25 / max BM25; plus the prior when there is
   * one (the tree cover's).
   */
  static float[] relevance(Snapshot s, String prompt, float[] q, Strategy strategy, double tau, LeafPrior prior) {
    Tree tree = s.tree();
    int leaves = tree.leafCount();
    if (strategy == Strategy.BM25) {
      float[] bm25 = new float[leaves];
      s.lexical().scores(prompt, bm25);
      return bm25;
    }
    float[] relevance = cosines(tree, q, leaves);
    if (strategy != Strategy.FLAT) {
      float[] bm25 = new float[leaves];
      float max = s.lexical().scores(prompt, bm25);
      if (max > 0f && tau > 0) {
        float w = (float) (tau / max);
        for (int v = 0; v < leaves; v++) {
          relevance[v] += w * bm25[v];
        }
      }
    }
    if (prior != null) {
      prior.addTo(relevance, leaves);
    }
    return relevance;
  }

  private static float[] cosines(Tree tree, float[] q, int n) {
    float[] cos = new float[n];
    float[] emb = tree.leafEmbeddings();
    int dim = tree.dimension();
    int leaves = Math.min(n, tree.leafCount());
    for (int v = 0; v < leaves; v++) {
      cos[v] = SimdDot.dot(emb, v * dim, q, 0, dim);
    }
    for (int v = leaves; v < n; v++) {
      cos[v] = tree.embeddingDot(v, q);
    }
    return cos;
  }

  /** The first {@code n} nodes, best score first (no boxes: at 50,000 leaves they were 0.8 MB per list). */
  private static int[] byScore(float[] score, int n) {
    return Ranking.descending(n == score.length ? score : Arrays.copyOf(score, n));
  }

  /** RAPTOR's collapsed tree: every node by cosine (summary embedding for internal nodes), packed. */
  private static Context collapsed(Tree tree, float[] q, int budget, ContextFormat format, long t0) {
    float[] cos = cosines(tree, q, tree.size());
    return pack(tree, byScore(cos, tree.size()), null, budget, format, t0);
  }

  /** The most recent leaves first: by time stamp (ISO-8601 sorts as text), then by insertion order. */
  private static Context recency(Tree tree, int budget, ContextFormat format, long t0) {
    Integer[] order = new Integer[tree.leafCount()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Comparator<Integer> byTime = Comparator.comparing((Integer v) -> tree.time(v),
        Comparator.nullsFirst(Comparator.naturalOrder()));
    Arrays.sort(order, byTime.thenComparingInt(v -> v).reversed());
    return pack(tree, Arrays.stream(order).mapToInt(Integer::intValue).toArray(), null, budget, format, t0);
  }

  /** Packs nodes in the given order, skipping what does not fit; {@code positive} drops non-positive scores. */
  private static Context pack(Tree tree, int[] order, float[] positive, int budget, ContextFormat format,
      long t0) {
    List<Cover.Item> chosen = new ArrayList<>();
    int used = 0;
    for (int v : order) {
      if (positive != null && positive[v] <= 0f) {
        break;
      }
      int c = format.cost(tree, v);
      if (used + c <= budget) {
        chosen.add(new Cover.Item(v, 0, c));
        used += c;
      }
      if (budget - used < 2) {
        break;
      }
    }
    List<Context.Item> items = new ArrayList<>(chosen.size());
    for (Cover.Item it : chosen) {
      items.add(new Context.Item(tree, it.node(), 0, it.cost()));
    }
    return new Context(format.render(tree, chosen), items, used, budget, false,
        new Context.Stats(0, order.length, System.nanoTime() - t0));
  }
}

package dev.setree;

import dev.setree.internal.core.LeafRelevance;
import dev.setree.internal.core.Ranking;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.Vectors;
import dev.setree.spi.Embedder;
import java.util.function.BiFunction;

/**
 * The second hop for multi-fact prompts: a prompt's second fact is often findable only through the first.
 * The prompt is re-queried together with its best one or two leaves, and the two rankings are interleaved:
 * first list's #1, second list's #1, first's #2, ... The result is a rank-based relevance the walk (or a
 * flat list) consumes unchanged. FINDINGS.md, third round: +0.02 to +0.03 multi-hop recall at 1024 on the
 * dev data without hurting single-hop.
 *
 * <p>The second query's embedding is either the embedding of the prompt and the leaves' text together (one
 * more model call, {@link Mode#REEMBED}), or the normalised sum of the prompt's and the leaves' embeddings
 * ({@link Mode#COMPOSE}: no model call; the leaves' embeddings are already in the snapshot). Its BM25 side
 * always uses the prompt and the leaves' text.
 */
final class SecondHop {
  /** How the second query is embedded. */
  enum Mode {
    /** Embed prompt + leaf texts with the model. */
    REEMBED,
    /** Normalised sum of the prompt's and the leaves' embeddings. */
    COMPOSE
  }

  /** The mode in use; the system property {@code setree.secondHop.mode} selects the other for experiments. */
  static final Mode MODE = Mode.valueOf(System.getProperty("setree.secondHop.mode", "COMPOSE"));

  private SecondHop() {}

  /**
   * @param hops how many of the best leaves join the second query (1 or 2)
   * @param relevanceFor leaf relevance of a (prompt, embedding) pair, as for the first query
   * @return relevance that orders leaves by their interleaved rank (higher is better), on the first query's scale
   */
  static float[] interleave(Snapshot s, String prompt, float[] q, float[] first, int hops, Embedder embedder,
      BiFunction<String, float[], float[]> relevanceFor) {
    Tree tree = s.tree();
    int n = first.length;
    int[] order1 = Ranking.descending(first);
    int[] best = java.util.Arrays.copyOf(order1, Math.min(hops, n));
    String prompt2 = secondPrompt(tree, prompt, best);
    float[] second = relevanceFor.apply(prompt2, secondQuery(tree, q, best, prompt2, embedder));
    int[] order2 = Ranking.descending(second);
    // Interleave: first #1, second #1, first #2, ... skipping leaves already placed. The k-th leaf of that
    // order gets the k-th best first-query relevance, so the values keep their scale (the capability score
    // reads them) while the order is the interleaved one.
    boolean[] placed = new boolean[n];
    float[] out = new float[n];
    int k = 0;
    for (int i = 0; i < 2 * n; i++) {
      int v = (i & 1) == 0 ? order1[i >> 1] : order2[i >> 1];
      if (!placed[v]) {
        placed[v] = true;
        out[v] = first[order1[k++]];
      }
    }
    return out;
  }

  /** The second prompt: the prompt followed by the texts of its best leaves. */
  private static String secondPrompt(Tree tree, String prompt, int[] best) {
    StringBuilder p2 = new StringBuilder(prompt);
    for (int v : best) {
      p2.append(' ').append(tree.text(v));
    }
    return p2.toString();
  }

  /** The second query's embedding, as {@link #MODE} says. */
  private static float[] secondQuery(Tree tree, float[] q, int[] best, String prompt2, Embedder embedder) {
    if (MODE == Mode.REEMBED) {
      return embedder.embed(prompt2);
    }
    float[] q2 = q.clone();
    int dim = tree.dimension();
    for (int v : best) {
      Vectors.addScaled(q2, tree.leafEmbeddings(), v * dim, dim, 1f); // the best leaves
    }
    return Vectors.normalize(q2);
  }

  /**
   * {@link #interleave} on candidate-driven relevance: the two candidate lists are interleaved, and the
   * k-th leaf placed gets the k-th best first-query value; leaves in neither list keep their own relevance,
   * under the first query's bound.
   */
  static LeafRelevance interleave(Snapshot s, String prompt, float[] q, LeafRelevance first, int hops,
      Embedder embedder, BiFunction<String, float[], LeafRelevance> relevanceFor) {
    int[] l1 = first.candidateLeaves();
    if (l1.length == 0) {
      return first;
    }
    float[] v1 = first.candidateValues();
    int[] r1 = Ranking.descending(v1);
    int[] best = new int[Math.min(hops, l1.length)];
    for (int i = 0; i < best.length; i++) {
      best[i] = l1[r1[i]];
    }
    String prompt2 = secondPrompt(s.tree(), prompt, best);
    LeafRelevance second = relevanceFor.apply(prompt2, secondQuery(s.tree(), q, best, prompt2, embedder));
    int[] l2 = second.candidateLeaves();
    int[] r2 = Ranking.descending(second.candidateValues());
    java.util.Set<Integer> placed = new java.util.HashSet<>();
    int[] leaves = new int[l1.length + l2.length];
    float[] values = new float[leaves.length];
    int m = 0;
    float floor = Float.isFinite(first.others()) ? Math.min(first.others(), v1[r1[r1.length - 1]])
        : v1[r1[r1.length - 1]];
    for (int i = 0; i < 2 * Math.max(l1.length, l2.length); i++) {
      int j = i >> 1;
      boolean fromFirst = (i & 1) == 0;
      if (fromFirst ? j >= l1.length : j >= l2.length) {
        continue;
      }
      int v = fromFirst ? l1[r1[j]] : l2[r2[j]];
      if (placed.add(v)) {
        leaves[m] = v;
        values[m] = m < r1.length ? v1[r1[m]] : floor;
        m++;
      }
    }
    return first.recandidate(java.util.Arrays.copyOf(leaves, m), java.util.Arrays.copyOf(values, m));
  }
}

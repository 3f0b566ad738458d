package dev.setree;

import dev.setree.core.Embedder;
import dev.setree.core.Ranking;
import dev.setree.core.Tree;
import dev.setree.core.Vectors;
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
    StringBuilder p2 = new StringBuilder(prompt);
    for (int i = 0; i < hops && i < n; i++) {
      p2.append(' ').append(tree.text(order1[i]));
    }
    String prompt2 = p2.toString();
    float[] q2;
    if (MODE == Mode.REEMBED) {
      q2 = embedder.embed(prompt2);
    } else {
      q2 = q.clone();
      int dim = tree.dimension();
      for (int i = 0; i < hops && i < n; i++) {
        Vectors.addScaled(q2, tree.embeddings(), order1[i] * dim, dim, 1f);
      }
      Vectors.normalize(q2);
    }
    float[] second = relevanceFor.apply(prompt2, q2);
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
}

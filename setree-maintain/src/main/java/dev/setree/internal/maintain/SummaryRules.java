package dev.setree.internal.maintain;

import dev.setree.internal.core.Tree;
import dev.setree.internal.core.Vectors;
import java.util.List;

/**
 * What decides whether an internal node needs a summary, besides the node itself: the token caps (the top one for
 * the root and its children, the other below) and the faithfulness threshold. A draft whose last
 * {@link SummaryPass} ran under the same rules needs only its changed nodes looked at ({@link SummaryWaves#changed}).
 *
 * <p>A node needs a summary when its children changed, when it has no summary or no embedding, when its summary
 * breaks its cap ({@code min(level cap, tokens of its children)}), when its faithfulness is unknown, or when its
 * leaf-centroid changed and its faithfulness fell: it is now below the threshold and lower than before.
 *
 * @param faithfulnessThreshold {@code Integer.MIN_VALUE} turns the faithfulness rules off
 */
record SummaryRules(int topSummaryTokens, int summaryTokens, int faithfulnessThreshold) {

  /** The rules of {@code options}' caps and {@code faithfulnessThreshold}. */
  static SummaryRules of(BuildOptions options, int faithfulnessThreshold) {
    return new SummaryRules(options.topSummaryTokens(), options.summaryTokens(), faithfulnessThreshold);
  }

  /** Whether {@code v}, at {@code depth} under the root, needs a (new) summary. */
  boolean needsSummary(DraftNode v, int depth) {
    if (v.structural || v.text == null || v.embedding == null) {
      return true;
    }
    if (v.tokens > cap(v, depth)) {
      return true;
    }
    if (faithfulnessThreshold == Integer.MIN_VALUE) {
      return false;
    }
    if (v.faithfulness == Tree.UNKNOWN_FAITHFULNESS) {
      return true;
    }
    if (!v.centroidChanged) {
      return false;
    }
    // Only a fall is a reason: a node whose summary was below the threshold already (a high node is about
    // its many leaves only loosely) would otherwise be re-summarised by every run that touches its path,
    // for the same summary.
    int now = faithfulness(v);
    return now < faithfulnessThreshold && now < v.faithfulness;
  }

  /** The cap on {@code v}'s summary at {@code depth}: its level's cap, or its children's tokens when fewer. */
  int cap(DraftNode v, int depth) {
    int levelCap = depth <= 1 ? topSummaryTokens : summaryTokens;
    int childTokens = 0;
    for (DraftNode c : v.children) {
      childTokens += c.tokens;
    }
    return Math.min(levelCap, childTokens);
  }

  /** {@code round(100 * cos(summary embedding, leaf-centroid))}, clamped to [-100, 100]. */
  static int faithfulness(DraftNode v) {
    float cos = Vectors.dot(v.embedding, v.centroidShared());
    return Math.round(100f * Math.max(-1f, Math.min(1f, cos)));
  }

  /**
   * Looks at every internal node of {@code draft}, a copy of a tree ({@link DraftTree#of}) no pass went through yet,
   * and when none needs a summary under these rules, leaves the draft as a pass that wrote nothing would: every
   * node's depth and wave set, and the rules claimed. The draft's first run then looks at its changed nodes only
   * ({@link SummaryWaves#changed}), as every later run does, and writes the same summaries a pass over every node
   * would. A writer does this ahead of its first run, on open (docs/adr/0040): a pass over the 6,000 internal nodes
   * of a 50,000-leaf tree took that run about 35 ms before it was compiled.
   *
   * @return whether the draft is settled under these rules (false when a node needs a summary, or the draft was
   *     settled under other rules: the first run then looks at every node)
   */
  boolean settle(DraftTree draft) {
    if (equals(draft.summaryRules)) {
      return true;
    }
    DraftNode root = draft.root();
    if (root == null || root.leaf || draft.summaryRules != null) {
      return false;
    }
    for (List<DraftNode> wave : SummaryWaves.all(draft, root)) {
      for (DraftNode v : wave) {
        if (v.centroidChanged || needsSummary(v, v.depth)) {
          return false;
        }
      }
    }
    draft.summaryShallow = SummaryWaves.shallow(root);
    draft.summaryRules = this;
    return true;
  }
}

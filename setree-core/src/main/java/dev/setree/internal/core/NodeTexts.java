package dev.setree.internal.core;

import java.util.Arrays;

/**
 * The ids, texts, time stamps and token counts of a {@link Tree}'s nodes: the leaves' in {@link LeafTexts}, which a
 * maintenance run shares between versions (ADR 0050), the internal nodes' in arrays of their own, internal node v's
 * at {@code v - leafCount}. Immutable once made.
 */
final class NodeTexts {
  private final int leafCount;
  private final LeafTexts leaves;
  private final String[] ids;
  private final String[] texts;
  /** Null when no internal node has a time stamp (a maintenance run gives them none). */
  private final String[] times;
  private final int[] tokens;

  /**
   * The columns of {@code leafCount} leaves and of internal nodes (arrays taken over, not copied).
   *
   * @throws IllegalArgumentException when the leaves' arrays are shorter than the leaves, or the internal nodes'
   *     arrays are not equally long; the message names the array
   */
  NodeTexts(int leafCount, LeafTexts leaves, String[] ids, String[] texts, String[] times, int[] tokens) {
    if (leaves.capacity() < leafCount) {
      throw new IllegalArgumentException("leaf texts have room for " + leaves.capacity() + " leaves, expected at least "
          + leafCount);
    }
    TreeChecks.length("internal texts", texts.length, ids.length);
    TreeChecks.length("internal tokens", tokens.length, ids.length);
    if (times != null) {
      TreeChecks.length("internal times", times.length, ids.length);
    }
    this.leafCount = leafCount;
    this.leaves = leaves;
    this.ids = ids;
    this.texts = texts;
    this.times = times;
    this.tokens = tokens;
  }

  /**
   * The columns of per-node arrays, each checked to be as long as {@code ids} ({@code times} may be null), as
   * {@code parent} is: the leaves' entries are read from the arrays given, the internal nodes' copied out of them.
   *
   * @throws IllegalArgumentException for an array of another length, or a leaf count that does not fit
   */
  static NodeTexts perNode(int leafCount, String[] ids, String[] texts, String[] times, int[] tokens, int[] parent) {
    int n = ids.length;
    TreeChecks.columns(n, texts, times, tokens, parent);
    TreeChecks.leafCount(n, leafCount);
    String[] allTimes = times == null ? new String[n] : times;
    String[] innerTimes = null;
    for (int v = leafCount; v < n && innerTimes == null; v++) {
      if (allTimes[v] != null) {
        innerTimes = Arrays.copyOfRange(allTimes, leafCount, n);
      }
    }
    return new NodeTexts(leafCount, LeafTexts.of(ids, texts, allTimes, tokens),
        Arrays.copyOfRange(ids, leafCount, n), Arrays.copyOfRange(texts, leafCount, n), innerTimes,
        Arrays.copyOfRange(tokens, leafCount, n));
  }

  /** Number of nodes. */
  int size() {
    return leafCount + ids.length;
  }

  int leafCount() {
    return leafCount;
  }

  /** The leaves' columns, shared: read only the first {@link #leafCount()} entries. */
  LeafTexts leaves() {
    return leaves;
  }

  /** The internal nodes' ids, internal node v's at {@code v - leafCount}. */
  String[] internalIds() {
    return ids;
  }

  /** Whether nodes {@code 0..count-1} have the ids {@code ids[0..count-1]}, in that order. */
  boolean startsWith(String[] ids, int count) {
    int leaves = Math.min(count, leafCount);
    if (count > size() || !NodeIds.samePrefix(ids, this.leaves.ids, leaves)) {
      return false;
    }
    for (int v = leaves; v < count; v++) {
      if (!ids[v].equals(this.ids[v - leafCount])) {
        return false;
      }
    }
    return true;
  }

  String id(int v) {
    return v < leafCount ? leaves.ids[v] : ids[v - leafCount];
  }

  String text(int v) {
    return v < leafCount ? leaves.texts[v] : texts[v - leafCount];
  }

  String time(int v) {
    return v < leafCount ? leaves.times[v] : times == null ? null : times[v - leafCount];
  }

  int tokens(int v) {
    return v < leafCount ? leaves.tokens[v] : tokens[v - leafCount];
  }

  /**
   * Copies the ids, texts and token counts of internal nodes {@code from..from+count-1} into the arrays given, from
   * their index {@code at} (internal positions, {@code v - leafCount}, on both sides).
   */
  void copyInternal(int from, int count, int at, String[] ids, String[] texts, int[] tokens) {
    System.arraycopy(this.ids, from, ids, at, count);
    System.arraycopy(this.texts, from, texts, at, count);
    System.arraycopy(this.tokens, from, tokens, at, count);
  }
}

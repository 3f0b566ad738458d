package dev.setree.internal.core;

/**
 * The leaves' ids, texts, time stamps and token counts, leaf v's at index v of each array: the columns of a
 * {@link Tree}'s leaves, which a maintenance run shares with the trees it freezes after (ADR 0050). A leaf's own
 * fields never change, and a run that only inserts keeps every old leaf at its index, so the run writes its new
 * leaves into spare room at the arrays' ends and hands the same arrays to its tree, as the leaves' embedding rows are
 * shared (ADR 0029). A tree reads only the entries of its own leaves; the entries after them belong to whoever
 * extends the arrays next, and the entries of leaves a tree holds are never written again. At a million leaves a
 * run's freeze had made and filled four arrays as long as the leaves for these columns, about 18 MB a run.
 */
public final class LeafTexts {
  final String[] ids;
  final String[] texts;
  /** Null entries for leaves without a time stamp. */
  final String[] times;
  final int[] tokens;

  private LeafTexts(String[] ids, String[] texts, String[] times, int[] tokens) {
    this.ids = ids;
    this.texts = texts;
    this.times = times;
    this.tokens = tokens;
  }

  /**
   * The columns of these arrays (taken over, not copied), leaf v's at index v of each.
   *
   * @throws IllegalArgumentException naming an array that is not as long as {@code ids}
   */
  static LeafTexts of(String[] ids, String[] texts, String[] times, int[] tokens) {
    TreeChecks.length("texts", texts.length, ids.length);
    TreeChecks.length("times", times.length, ids.length);
    TreeChecks.length("tokens", tokens.length, ids.length);
    return new LeafTexts(ids, texts, times, tokens);
  }

  /** Empty columns with room for {@code capacity} leaves. */
  public static LeafTexts ofCapacity(int capacity) {
    return new LeafTexts(new String[capacity], new String[capacity], new String[capacity], new int[capacity]);
  }

  /** How many leaves the arrays have room for. */
  public int capacity() {
    return ids.length;
  }

  /** A copy of the first {@code count} leaves' entries, in arrays with room for {@code capacity} leaves. */
  public LeafTexts copy(int count, int capacity) {
    LeafTexts c = ofCapacity(capacity);
    System.arraycopy(ids, 0, c.ids, 0, count);
    System.arraycopy(texts, 0, c.texts, 0, count);
    System.arraycopy(times, 0, c.times, 0, count);
    System.arraycopy(tokens, 0, c.tokens, 0, count);
    return c;
  }

  /** Writes leaf {@code v}'s entries: into spare room, or into arrays no tree holds yet. */
  public void set(int v, String id, String text, String time, int tokenCount) {
    ids[v] = id;
    texts[v] = text;
    times[v] = time;
    tokens[v] = tokenCount;
  }

  /** Room for {@code leaves} leaves and an eighth more (at least 64), as the leaves' rows get. */
  public static int capacityFor(int leaves) {
    return Vectors.lengthWithRoom(leaves, 1);
  }

  @Override
  public String toString() {
    return "LeafTexts[capacity " + ids.length + "]";
  }
}

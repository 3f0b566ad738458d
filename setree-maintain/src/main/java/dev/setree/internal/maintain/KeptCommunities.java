package dev.setree.internal.maintain;

import java.util.HashMap;
import java.util.Map;

/**
 * The partition a re-clustering falls back to when Leiden's improvement of a level's affected communities is worth
 * less than the re-clustering margin (docs/adr/0047-re-clustering-margin.md): every old member stays in the
 * community it started in, and every new member goes where Leiden put it, named by the old community most of
 * the old members Leiden put with it started in, or, when Leiden put it with new members only, in a community of
 * those new members. So a change that improves a level by little moves no old member, and therefore gives no
 * parent above new children, while new members are placed as Leiden would place them.
 */
final class KeptCommunities {
  /**
   * The least gain in CPM quality (normalised, as {@code calcQuality} gives it) for which a re-clustering moves old
   * members, by default: none ({@code -Infinity}), every improvement is kept. A margin of 0.01 cut the summaries
   * one-fact runs wrote by 57% at 50,000 MiniLM leaves and 88% at a million hash leaves, with LoCoMo's maintained
   * figures within 0.011, but over 150 runs into 2,000 leaves it kept a level of about 35 members near the
   * modularity of its first build, where the runs without it reached a full build's (ADR 0047). Not the default
   * until a margin holds on both.
   */
  static final double MARGIN = Double.NEGATIVE_INFINITY;

  private KeptCommunities() {}

  /**
   * {@link #MARGIN}, or the system property {@code setree.reclusterMargin} when it is set (for measurements, as
   * {@code -Dsetree.reclusterMargin=0.01}).
   */
  static double margin() {
    return Double.parseDouble(System.getProperty("setree.reclusterMargin", Double.toString(MARGIN)));
  }

  /**
   * The fallback partition.
   *
   * @param initial Leiden's start: old members' communities numbered {@code 0..firstNew-1}, new members'
   *     singletons from {@code firstNew} on
   * @param firstNew the first community of {@code initial} that holds a new member
   * @param improved Leiden's partition of the same members (any non-negative ids)
   * @return a community per member, old members' as in {@code initial}
   */
  static int[] of(int[] initial, int firstNew, int[] improved) {
    int n = initial.length;
    // For each of Leiden's communities, the old community that most of its old members started in (ties to the
    // lower number), counted over (Leiden's community, old community) pairs.
    Map<Long, Integer> pairs = new HashMap<>();
    for (int i = 0; i < n; i++) {
      if (initial[i] < firstNew) {
        pairs.merge(((long) improved[i] << 32) | initial[i], 1, Integer::sum);
      }
    }
    Map<Integer, int[]> majority = new HashMap<>(); // Leiden's community -> {old community, count}
    for (Map.Entry<Long, Integer> e : pairs.entrySet()) {
      int leiden = (int) (e.getKey() >>> 32);
      int oldCommunity = (int) (long) e.getKey();
      int count = e.getValue();
      int[] best = majority.get(leiden);
      if (best == null || count > best[1] || count == best[1] && oldCommunity < best[0]) {
        majority.put(leiden, new int[] {oldCommunity, count});
      }
    }
    int[] out = initial.clone();
    Map<Integer, Integer> fresh = new HashMap<>(); // Leiden's communities of new members only -> their number
    for (int i = 0; i < n; i++) {
      if (initial[i] >= firstNew) {
        int[] best = majority.get(improved[i]);
        out[i] = best != null ? best[0] : fresh.computeIfAbsent(improved[i], c -> firstNew + fresh.size());
      }
    }
    return out;
  }
}

package dev.setree;

import dev.setree.internal.core.Tree;
import java.util.Arrays;

/**
 * The day of every leaf's time stamp, and the timed leaves sorted by day, so that the leaves of a
 * {@link PromptPeriod} are found by two binary searches. Derived once per snapshot; immutable.
 */
final class LeafDays {
  /** A leaf without a (parsable) time stamp. */
  static final long NONE = Long.MIN_VALUE;

  private final long[] day;
  /** Timed leaves, by day then index. */
  private final int[] byDay;
  private final long[] sortedDays;

  private LeafDays(long[] day, int[] byDay) {
    this.day = day;
    this.byDay = byDay;
    this.sortedDays = new long[byDay.length];
    for (int i = 0; i < byDay.length; i++) {
      sortedDays[i] = day[byDay[i]];
    }
  }

  static LeafDays of(Tree tree) {
    int n = tree.leafCount();
    long[] day = new long[n];
    int timed = 0;
    for (int v = 0; v < n; v++) {
      day[v] = PromptPeriod.epochDay(tree.time(v));
      if (day[v] != NONE) {
        timed++;
      }
    }
    long[] keys = new long[timed]; // day above, leaf index below: one primitive sort, ties by index
    int k = 0;
    for (int v = 0; v < n; v++) {
      if (day[v] != NONE) {
        keys[k++] = (day[v] << 32) | v;
      }
    }
    Arrays.sort(keys);
    int[] byDay = new int[timed];
    for (int i = 0; i < timed; i++) {
      byDay[i] = (int) keys[i];
    }
    return new LeafDays(day, byDay);
  }

  /** True when leaf {@code v} has a time stamp inside the period. */
  boolean in(int v, PromptPeriod p) {
    return day[v] != NONE && p.contains(day[v]);
  }

  /** The leaves whose day lies in the period, by day. */
  int[] leavesIn(PromptPeriod p) {
    int lo = lowerBound(p.fromDay());
    int hi = lowerBound(p.untilDay());
    return Arrays.copyOfRange(byDay, lo, hi);
  }

  /** How many leaves have a day in the period. */
  int countIn(PromptPeriod p) {
    return lowerBound(p.untilDay()) - lowerBound(p.fromDay());
  }

  private int lowerBound(long d) {
    int lo = 0;
    int hi = sortedDays.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sortedDays[mid] < d) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}

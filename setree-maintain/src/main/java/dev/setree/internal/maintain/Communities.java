package dev.setree.internal.maintain;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The communities of an assignment: numbered in order of first appearance, their members (indexes into the
 * assignment) grouped by a counting sort, in member order within each.
 */
final class Communities {
  /** Community {@code k}'s members are {@code members[start[k] .. start[k + 1])}. */
  final int[] start;
  final int[] members;

  private Communities(int[] start, int[] members) {
    this.start = start;
    this.members = members;
  }

  int count() {
    return start.length - 1;
  }

  static Communities of(int[] assignment) {
    int[] number = new int[assignment.length];
    return ofNumbered(number, firstAppearance(assignment, number));
  }

  /**
   * The communities of an assignment already numbered densely in order of first appearance ({@link
   * #firstAppearance}), with {@code count} communities.
   */
  static Communities ofNumbered(int[] number, int count) {
    int m = number.length;
    int[] start = new int[count + 1];
    for (int k : number) {
      start[k + 1]++;
    }
    for (int k = 0; k < count; k++) {
      start[k + 1] += start[k];
    }
    int[] fill = Arrays.copyOf(start, count);
    int[] members = new int[m];
    for (int i = 0; i < m; i++) {
      members[fill[number[i]]++] = i;
    }
    return new Communities(start, members);
  }

  /**
   * The communities by size, largest first, equal sizes in order of first appearance; without the communities
   * {@code k} with {@code skip[k]}.
   */
  int[] bySizeDescending(boolean[] skip) {
    int count = count();
    long[] keyed = new long[count];
    int n = 0;
    for (int k = 0; k < count; k++) {
      if (!skip[k]) {
        keyed[n++] = ((long) -(start[k + 1] - start[k]) << 32) | k;
      }
    }
    Arrays.sort(keyed, 0, n);
    int[] out = new int[n];
    for (int x = 0; x < n; x++) {
      out[x] = (int) keyed[x];
    }
    return out;
  }

  /**
   * One more than the largest community number of {@code assignment} (0 when it has none above -1): how many
   * communities a dense assignment has. Written without {@code Math.max}, which a process's first maintenance run
   * calls once per member of a level before the loop is compiled.
   */
  static int count(int[] assignment) {
    int count = 0;
    for (int c : assignment) {
      if (c >= count) {
        count = c + 1;
      }
    }
    return count;
  }

  /** Each member's community, numbered densely in order of first appearance. */
  static int[] firstAppearance(int[] assignment) {
    int[] out = new int[assignment.length];
    firstAppearance(assignment, out);
    return out;
  }

  /** Writes {@link #firstAppearance} of {@code assignment} into {@code out}; returns how many communities it has. */
  static int firstAppearance(int[] assignment, int[] out) {
    int min = 0;
    int max = -1;
    // no Math.min and max: a call per member in a first run, before they are inlined
    for (int c : assignment) {
      if (c < min) {
        min = c;
      }
      if (c > max) {
        max = c;
      }
    }
    long range = (long) max - min + 1;
    if (range > 4L * assignment.length + 16) { // sparse labels: number them through a map
      Map<Integer, Integer> number = new HashMap<>();
      for (int i = 0; i < assignment.length; i++) {
        out[i] = number.computeIfAbsent(assignment[i], c -> number.size());
      }
      return number.size();
    }
    return number(assignment, out, min, (int) range);
  }

  /**
   * {@link #firstAppearance(int[], int[])} of an assignment whose communities are known to be numbered from 0 to
   * {@code labels - 1} (not all of them used): no pass to find the range.
   */
  static int firstAppearance(int[] assignment, int[] out, int labels) {
    return number(assignment, out, 0, labels);
  }

  private static int number(int[] assignment, int[] out, int min, int range) {
    int[] number = new int[range];
    Arrays.fill(number, -1);
    int next = 0;
    for (int i = 0; i < assignment.length; i++) {
      int c = assignment[i] - min;
      if (number[c] < 0) {
        number[c] = next++;
      }
      out[i] = number[c];
    }
    return next;
  }
}

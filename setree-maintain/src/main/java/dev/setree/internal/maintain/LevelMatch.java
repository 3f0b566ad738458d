package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Indexes;
import dev.setree.internal.core.Passes;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * A level's members matched to the oracle's, the first step of an {@link IncrementalRebuild} level: each member's
 * index in the oracle's level and back (-1: new, or removed), and which members moved (new members and members
 * whose centroid changed). The first {@code inPlace} members are known to be the old level's first members, at
 * their old indexes, none moved (0: none known), so that passes over the level can skip them.
 */
record LevelMatch(int[] newToOld, int[] oldToNew, boolean[] moved, int inPlace) {

  /** A match with no member known to be in place. */
  LevelMatch(int[] newToOld, int[] oldToNew, boolean[] moved) {
    this(newToOld, oldToNew, moved, 0);
  }

  /**
   * Matches; the first {@code shared} members are {@code old}'s first members, with the same rows of
   * {@code centroids} (neither looked up nor compared): a level 0 whose leaves were only added to since the oracle
   * was recorded from them, or since the run's check found the oracle's level 0 listing the tree's leaves in order.
   * When they are all of {@code old}'s members, the others are new.
   */
  static LevelMatch of(HierarchyState.Level old, List<DraftNode> members, float[] centroids,
      int dim, int shared) {
    int m = members.size();
    int[] newToOld = new int[m];
    int[] oldToNew = new int[old.size()];
    Arrays.fill(oldToNew, -1);
    Indexes.identity(newToOld, 0, shared);
    Indexes.identity(oldToNew, 0, shared);
    // Members keep their old relative order: each is first looked for where the previous one was found, plus
    // one, then in the old level's member index. When every old member is among the shared ones, the others are
    // new (a draft's ids are unique): none is looked up, and the old level's index is not built for them.
    int next = shared;
    for (int i = shared; i < m; i++) {
      int o = shared == old.size() ? -1 : old.indexOf(members.get(i).id, next);
      assert o >= 0 || old.indexOf(members.get(i).id, -1) < 0 : members.get(i).id + " is an old member";
      newToOld[i] = o;
      if (o >= 0) {
        oldToNew[o] = i;
        next = o + 1;
      }
    }
    boolean[] moved = new boolean[m];
    for (int i = shared; i < m; i++) {
      int o = newToOld[i];
      moved[i] = o < 0 || !rowEquals(centroids, i, old.centroids(), o, dim);
    }
    return new LevelMatch(newToOld, oldToNew, moved, shared);
  }

  /**
   * The members below {@code oldSize} that moved, when each of the old level's {@code oldSize} members kept its
   * index (members only added after them); null otherwise. Every other old member's centroid row is the old one:
   * the log a level keeps for the save's plan ({@link HierarchyState.Level#withChangesSince}).
   */
  int[] movedInPlace(int oldSize) {
    if (newToOld.length < oldSize) {
      return null;
    }
    int count = 0;
    for (int i = inPlace; i < oldSize; i++) { // the first inPlace members are in place, none moved
      if (newToOld[i] != i) {
        return null;
      }
      if (moved[i]) {
        count++;
      }
    }
    int[] out = new int[count];
    for (int i = inPlace, n = 0; n < count; i++) {
      if (moved[i]) {
        out[n++] = i;
      }
    }
    return out;
  }

  private static boolean rowEquals(float[] a, int i, float[] b, int j, int dim) {
    return Arrays.equals(a, i * dim, (i + 1) * dim, b, j * dim, (j + 1) * dim);
  }

  /**
   * The level's member ids: {@code old}'s for the members {@code match} matched to its (the same ids; the first
   * {@link #inPlace} copied at once), the others read from the members. A member read costs a node read from
   * anywhere in the heap: at level 1 of a million leaves, reading each of about 125,000 members' ids took a run
   * about 8 ms.
   */
  static String[] memberIds(HierarchyState.Level old, List<DraftNode> members, LevelMatch match) {
    String[] out = new String[members.size()];
    match.byOldIndex(old.memberIds(), members, out);
    return out;
  }

  /**
   * Fills {@code out} with the entry of {@code old} (an array of the old level by member) at each member's old index,
   * the first {@link #inPlace} by one copy; a member without one gets its own id from {@code members}, or null when
   * {@code members} is null.
   */
  void byOldIndex(String[] old, List<DraftNode> members, String[] out) {
    System.arraycopy(old, 0, out, 0, inPlace);
    Passes.range(inPlace, newToOld.length, new ByOldIndex(out, members, newToOld, old));
  }

  /**
   * {@link #byOldIndex}'s pass: a class of its own, not a lambda, so that a writer loads it on open, and a call per
   * member in the loop {@link Passes} shares (ADR 0045).
   */
  private record ByOldIndex(String[] out, List<DraftNode> members, int[] newToOld, String[] old)
      implements IntConsumer {
    @Override
    public void accept(int i) {
      int o = newToOld[i];
      out[i] = o >= 0 ? old[o] : members == null ? null : members.get(i).id;
      assert members == null || out[i].equals(members.get(i).id) : "member " + i + " matched to " + old[o];
    }
  }
}

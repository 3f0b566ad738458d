package dev.setree.internal.maintain;

/**
 * What {@link ParentPreservation} asks of a level's old communities, one pass over the members each: how many of
 * each one's members are members still, whether one of those moved, and whether it lost any. Communities are
 * numbered as in the oracle's level ({@code oldCommunityOf}: each member's old community, -1 for a new one).
 */
final class OldCommunities {
  private OldCommunities() {}

  /** Per old community, whether a member that is a member still moved. */
  static boolean[] movedIn(boolean[] moved, int inPlace, int[] oldCommunityOf, int communities) {
    boolean[] out = new boolean[communities];
    for (int i = inPlace; i < moved.length; i++) { // the first inPlace members did not move
      if (moved[i] && oldCommunityOf[i] >= 0) {
        out[oldCommunityOf[i]] = true;
      }
    }
    return out;
  }

  /** Per old community, whether fewer of its members are members still than it had. */
  static boolean[] lostMembers(int[] oldAssignment, int[] stayed) {
    int[] had = new int[stayed.length];
    for (int c : oldAssignment) {
      if (c >= 0 && c < had.length) {
        had[c]++;
      }
    }
    boolean[] lost = new boolean[had.length];
    for (int c = 0; c < had.length; c++) {
      lost[c] = had[c] != stayed[c];
    }
    return lost;
  }

  /** Per old community, how many of its members are members still. */
  static int[] stayed(int[] oldCommunityOf) {
    int communities = Communities.count(oldCommunityOf);
    int[] count = new int[communities];
    for (int c : oldCommunityOf) {
      if (c >= 0) {
        count[c]++;
      }
    }
    return count;
  }
}

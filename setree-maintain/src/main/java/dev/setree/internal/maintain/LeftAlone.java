package dev.setree.internal.maintain;

import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * {@link ParentPreservation}'s pass over the communities the re-clustering left alone (assignments below
 * {@code unaffected}): community {@code k} keeps its old parent when its family is whole ({@link #untouchedFamily}),
 * which is then claimed, named and listed, and the community marked done. With the last run's parents
 * ({@code recorded}) the parent is not read, and when the members are named already ({@code keptOld} given) not
 * written either: it is noted in {@code parentOf} and its old community in {@code keptOld}. It is listed by its
 * index among the next level's old members where {@code recordedNext} names it there; so is a member the last run
 * carried up alone too ({@link #carriedAgain}). A class of its own, not a lambda, so that a writer loads it on open
 * (ADR 0045); the arrays are read once, not per community.
 */
record LeftAlone(DraftTree draft, Communities comms, List<DraftNode> mem, int[] assignment,
    int unaffected, String[] oldParentIds, int[] newToOld, int[] oldCommunityOf, boolean[] movedIn, boolean[] lost,
    long claimed, String[] parentIds, List<DraftNode> parents, boolean[] done, OldParents oldParent, boolean[] moved,
    int[] stayed, DraftNode[] recorded, DraftNode[] parentOf, int[] nextIndex, DraftNode[] recordedNext,
    int[] keptAt, boolean[] keptOld) implements IntConsumer {
  @Override
  public void accept(int k) {
    int first = comms.members[comms.start[k]];
    if (comms.start[k + 1] - comms.start[k] == 1) {
      if (assignment[first] < unaffected && recordedNext != null) {
        carriedAgain(k, first);
      }
    } else if (assignment[first] < unaffected) {
      int c = oldCommunityOf[first];
      DraftNode kept;
      String id;
      if (recorded != null) {
        // The parent the last run gave old community c, and its id as the level recorded it, the same string: the
        // parent is not read. A community left alone lost no member (at level 0 a lost leaf would have flagged the
        // parent and made the community affected; above, lost tells), and is all that stayed of an old community of
        // its own, so no other community has that parent as its members' old one: nothing else claims it, and with
        // the members named already it is not written to either. No pass before this one gives a member of this
        // level a parent or takes it from one, so the parent the last run gave is the members' parent still.
        kept = c < 0 || movedIn[c] || lost != null && lost[c] ? null : recorded[c];
        id = kept == null ? null : oldParentIds[newToOld[first]];
        assert kept == null || kept.id == id && !kept.structural && kept.claimedBy != claimed
            : "community " + k + ": the recorded parent " + kept.id + " is not the one to keep";
      } else {
        kept = lost != null && c >= 0 && lost[c] ? null
            : untouchedFamily(comms, k, mem, oldParentIds, newToOld, oldCommunityOf, movedIn, claimed);
        id = kept == null ? null : kept.id;
      }
      // The full check, which reads every member, keeps the same parent, but for a community that lost a member
      // unmarked: the regroup then compares its parent's sum.
      assert kept == ParentPreservation.keptFamily(comms, k, mem, oldParent, moved, oldCommunityOf, stayed,
          claimed)
          || kept == null && lost != null && c >= 0 && lost[c]
          : "community " + k + ": the full check keeps another parent";
      assert kept == null || Arrays.equals(draft.canonicalSum(kept), kept.sum)
          : "community " + k + ": " + kept.id + " is kept with a sum other than its children's";
      if (kept != null) {
        if (keptOld != null) { // members named already: the parent is noted, and its old community
          parentOf[k] = kept;
          keptOld[c] = true;
          assert allNamed(parentIds, comms, k, id) : "community " + k + ": members not named " + id;
        } else {
          kept.claimedBy = claimed;
          ParentPreservation.name(parentIds, comms, k, kept, id, parentOf);
        }
        int o = nextIndex == null ? -1 : nextIndex[c];
        if (o >= 0 && o < recordedNext.length && recordedNext[o] == kept) {
          keptAt[o] = k + 1; // a next member already, at o: NextMembers lists it without reading it
        } else {
          parents.add(kept);
        }
        done[k] = true;
      }
    }
  }

  /**
   * Community {@code k}, whose one member is {@code first}, is listed at its place among the next level's old members
   * without being read when the last run carried it up alone too and nothing of it changed: none of it moved or was
   * reread, it lost nothing, and the record of the next level names the member itself at the index that run listed
   * for its old community (for one given a parent, the parent's). It has no parent at this level to leave (the last
   * run gave its old community none), and is named with none. At level 0 of a million leaves about 13,700 leaves are
   * carried up alone, and each was read, its old parent looked up by id and read again when the next members were
   * listed.
   */
  private void carriedAgain(int k, int first) {
    int c = oldCommunityOf[first];
    if (c < 0 || movedIn[c] || lost != null && lost[c]) {
      return;
    }
    int o = nextIndex[c];
    if (o >= 0 && o < recordedNext.length && recordedNext[o] == mem.get(first)) {
      // All that stayed of its old community, which lost nothing: a community of one, which the last run carried up
      // alone (given no parent, and listed at o).
      assert recorded[c] == null : "community " + k + " of one member had the parent " + recorded[c].id;
      assert oldParent.of(first) == null || oldParent.of(first) == mem.get(first)
          : "member " + first + " carried alone had the parent " + oldParent.of(first).id;
      parentIds[first] = null;
      keptAt[o] = k + 1;
      done[k] = true;
    }
  }

  /**
   * {@link ParentPreservation#keptFamily} for a community the re-clustering left alone: it is exactly what stayed of
   * its old community, so only whether a member moved, the first member and its parent are looked at. The first
   * member's parent is its old one when its id is the one recorded (the same string when a run recorded it: no
   * characters compared). The members share their old parent as every old community's members do (the oracle
   * records one parent per community); the caller checks it against the full test under assertions. Not called with
   * the parents the last run gave the level's old communities ({@link CommunityParents}): that run gave the parent the
   * old community's members, a member taken from it since makes the community affected at level 0 and lost above
   * (so not kept), and none has been given to it (new members get parents after this pass), so neither a member nor
   * the parent is read.
   */
  private static DraftNode untouchedFamily(Communities comms, int k, List<DraftNode> mem, String[] oldParentIds,
      int[] newToOld, int[] oldCommunity, boolean[] movedIn, long claimed) {
    int from = comms.start[k];
    int first = comms.members[from];
    int c = oldCommunity[first];
    if (c < 0 || movedIn[c]) {
      return null;
    }
    String pid = oldParentIds[newToOld[first]];
    DraftNode p = mem.get(first).parent;
    return p == null || pid == null || p.id != pid && !p.id.equals(pid) || p.claimedBy == claimed || p.structural
        || p.children.size() != comms.start[k + 1] - from ? null : p;
  }

  /** Whether every member of community {@code k} is named {@code id} (called under assertions). */
  private static boolean allNamed(String[] parentIds, Communities comms, int k, String id) {
    for (int x = comms.start[k]; x < comms.start[k + 1]; x++) {
      if (parentIds[comms.members[x]] != id) {
        return false;
      }
    }
    return true;
  }
}

package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Parent preservation on arrays ({@link ParentPreservation}) against the first, boxed form
 * ({@link ReferenceParentPreservation}): the same parents, children, flags, sums and next members, level by
 * level, after random inserts and deletes and random changes of the communities (kept, split, merged, new
 * members joining or alone), with the oracle's parent ids shared or loaded as separate strings.
 */
class ParentPreservationTest {
  private final HashEmbedder embedder = new HashEmbedder(32);
  private final SimpleTokenCounter counter = new SimpleTokenCounter();

  @Test
  void equalsTheReferenceOnRandomChanges() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    List<Fact> base = Corpora.synthetic(1500, seed);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(base, BuildProgress.NONE);
    List<Fact> pool = Corpora.synthetic(200, seed + 1);
    int changedParents = 0;
    int newParents = 0;
    int untouched = 0;
    int rereadNot = 0;
    int recordedKept = 0;
    int recordedAbove = 0;
    int indexedKept = 0;
    int placedKept = 0;
    int placedAlone = 0;
    int replacedMoved = 0;
    for (int round = 0; round < 40; round++) {
      String ctx = "seed=" + seed + " round " + round;
      Scenario s = new Scenario(built.tree(), r, pool, round);
      // A quarter of the rounds give each level the parents a last run would have recorded (CommunityParents), above
      // level 0 when it says which members were reread: the oracle is then the one that run made, its ids the nodes'
      // own strings.
      boolean recordedParents = round % 4 == 0;
      HierarchyState oracle = recordedParents || r.nextBoolean() ? built.hierarchy() : loaded(built.hierarchy());
      DraftTree a = s.draft(embedder, counter);
      DraftTree b = s.draft(embedder, counter);
      // Each node's sum when the round starts: above level 0, a member whose sum array is another by its level's
      // turn is reread, as RecordedRows says of a member whose sum is not the one its row was taken from. A leaf
      // replaced under its id is another node than the one the row was taken from, so it has none: a replaced leaf
      // carried up alone is reread above level 0 too, as RecordedRows rereads a member that is not its record's.
      Map<DraftNode, float[]> sumAtStart = new java.util.IdentityHashMap<>();
      b.byId.values().forEach(n -> {
        if (!(n.leaf && s.replaced.contains(n.id))) {
          sumAtStart.put(n, n.sum);
        }
      });
      TreeBuilder.IdSource idsA = TreeBuilder.IdSource.after(built.tree());
      TreeBuilder.IdSource idsB = TreeBuilder.IdSource.after(built.tree());
      List<DraftNode> membersA = new ArrayList<>(a.leaves);
      List<DraftNode> membersB = new ArrayList<>(b.leaves);
      for (int lvl = 0; lvl < oracle.levels().size() && membersA.size() > 1; lvl++) {
        HierarchyState.Level old = oracle.levels().get(lvl);
        HierarchyState.Level nextOld = lvl + 1 < oracle.levels().size() ? oracle.levels().get(lvl + 1) : null;
        int[] newToOld = newToOld(old, membersA);
        assertArrayEquals(newToOld, newToOld(old, membersB), ctx);
        int[] assignment = changedAssignment(old, newToOld, r);
        int before = a.internal.size();
        List<DraftNode> nextA = ReferenceParentPreservation.regroup(a, membersA, newToOld,
            assignment.clone(), old, a.byId, lvl + 1, idsA, nextOld);
        String[] parentIds = new String[membersB.size()];
        int[] oldToNew = new int[old.size()];
        java.util.Arrays.fill(oldToNew, -1);
        // The new members moved, and at level 0 a leaf given another text under its id; now and then a member that
        // stayed is said to have moved with its row unchanged, as a leaf's ancestor may be, which must not change
        // what is kept.
        boolean[] moved = new boolean[newToOld.length];
        int[] oldCommunityOf = AffectedCommunities.oldCommunityOf(old, newToOld);
        for (int i = 0; i < moved.length; i++) {
          moved[i] = newToOld[i] < 0 || r.nextInt(40) == 0 || lvl == 0 && !java.util.Arrays.equals(
              membersB.get(i).sum(), java.util.Arrays.copyOfRange(old.centroids(), newToOld[i] * b.dim,
              (newToOld[i] + 1) * b.dim));
          replacedMoved += lvl == 0 && newToOld[i] >= 0 && s.replaced.contains(membersB.get(i).id) && moved[i] ? 1 : 0;
          if (newToOld[i] >= 0) {
            oldToNew[newToOld[i]] = i;
          }
        }
        // Above level 0, half the rounds say which members were reread (now and then one whose sum did not
        // change, which must not change what is kept); the others do not know.
        boolean[] reread = null;
        if (lvl > 0 && round % 4 < 2) {
          reread = new boolean[membersB.size()];
          for (int i = 0; i < reread.length; i++) {
            DraftNode m = membersB.get(i);
            reread[i] = newToOld[i] < 0 || sumAtStart.get(m) != m.sum || r.nextInt(40) == 0;
            rereadNot += reread[i] ? 0 : 1;
          }
        }
        // Half the rounds number the communities that are all that stayed of an old one first, as the
        // re-clustering numbers those it leaves alone, and say so; the others say nothing of them.
        // With recorded parents, as in a run, a community that lost a leaf is not among them: a removed leaf makes
        // its community affected (AffectedCommunities). Above level 0 one that lost a member may be: the pass
        // must see that it did.
        int[] labels = assignment.clone();
        boolean recordedHere = recordedParents && (lvl == 0 || reread != null);
        int unaffected = round % 2 == 0
            ? untouchedFirst(labels, oldCommunityOf, recordedHere && lvl == 0 ? lostLeaves(old, newToOld) : null) : 0;
        if (recordedHere) {
          // Most such rounds also give each parent's index among the next level's members, with the draft's record
          // of that level, so that a parent kept is listed by its index.
          DraftNode[] recorded = recordedParents(old, b);
          boolean indexed = nextOld != null && round % 8 == 0;
          b.records.keepParents(lvl, new CommunityParents(old.assignment(), recorded,
              indexed ? nextIndexes(old, recorded, nextOld) : null));
          b.records.keepRows(lvl + 1, indexed ? RecordedRows.of(nextOld, b) : null);
          recordedKept += unaffected;
          recordedAbove += lvl > 0 ? unaffected : 0;
          indexedKept += indexed ? unaffected : 0;
        }
        Communities comms = Communities.of(labels);
        CommunityParents made = CommunityParents.toFill(labels, comms.count());
        untouched += unaffected;
        String at = ctx + " level " + lvl;
        NextMembers.Listed listed;
        try {
          listed = ParentPreservation.regroup(b, membersB, new LevelMatch(newToOld, oldToNew, moved), reread,
              oldCommunityOf, labels, comms, unaffected, old, b.byId, lvl + 1, idsB, nextOld, parentIds, made);
        } catch (AssertionError e) { // the pass's own checks: say which seed, round and level to run again
          throw new AssertionError(at + ": " + e.getMessage(), e);
        }
        List<DraftNode> nextB = listed.members();
        // Each next member's index in the oracle's next level, as a lookup by id finds it; one placed by index is
        // the node kept by a community left alone, with the sum it had when the round started.
        int[] expectedFromOld = nextOld == null ? new int[nextB.size()] : newToOld(nextOld, nextB);
        if (nextOld == null) {
          java.util.Arrays.fill(expectedFromOld, -1);
        }
        assertArrayEquals(expectedFromOld, listed.fromOld(), at + ": next members' old indexes");
        for (int i = 0; listed.placed() != null && i < nextB.size(); i++) {
          DraftNode p = nextB.get(i);
          placedKept += listed.placed()[i] ? 1 : 0;
          placedAlone += listed.placed()[i] && membersB.contains(p) ? 1 : 0; // a member carried up alone again
          // A leaf (carried up alone again) has its embedding as its sum: the row the next level recorded for it.
          int o = listed.fromOld()[i];
          assertTrue(!listed.placed()[i] || (p.leaf ? java.util.Arrays.equals(p.embeddingToRead(),
              java.util.Arrays.copyOfRange(nextOld.centroids(), o * b.dim, (o + 1) * b.dim))
              : sumAtStart.get(p) == p.sum && !p.structural), at + ": placed " + p.id);
        }
        for (int i = 0; i < parentIds.length; i++) { // each member's parent, or null for one carried up alone
          DraftNode m = membersB.get(i);
          assertTrue(parentIds[i] == null ? nextB.contains(m)
              : m.parent != null && parentIds[i].equals(m.parent.id), at + ": parent id of " + m);
        }
        assertEquals(ids(nextA), ids(nextB), at + ": next members");
        for (int k = 0; made != null && k < comms.count(); k++) { // each parent given, and where it is listed
          DraftNode p = made.parentOf()[k];
          DraftNode first = membersB.get(comms.members[comms.start[k]]);
          assertEquals(nextB.indexOf(p == null ? first : p), made.nextIndex()[k], at + ": community " + k);
          assertEquals(comms.start[k + 1] - comms.start[k] == 1 ? null : first.parent, p, at + ": community " + k);
        }
        assertSameDrafts(a, b, at);
        newParents += a.internal.size() - before;
        for (DraftNode n : a.internal) {
          changedParents += n.structural ? 1 : 0;
        }
        membersA = nextA;
        membersB = nextB;
      }
    }
    // The rounds must have exercised the paths that change something, not only kept communities.
    assertTrue(newParents > 0 && changedParents > 0 && untouched > 0 && rereadNot > 0 && recordedKept > 0
        && recordedAbove > 0 && indexedKept > 0 && placedKept > 0 && placedAlone > 0 && replacedMoved > 0,
        "seed=" + seed + ": " + newParents + " new parents, "
        + changedParents + " changed, " + untouched + " said untouched, " + rereadNot + " members above level 0 said"
        + " not reread, " + recordedKept + " communities left alone with recorded parents (" + recordedAbove
        + " above level 0, " + indexedKept
        + " with their indexes, " + placedKept + " placed by them, " + placedAlone + " of them carried up alone), "
        + replacedMoved + " replaced leaves moved");
  }

  /**
   * One round's mutations: leaves deleted and facts inserted, applied alike to every draft made; some leaves are
   * replaced, deleted and inserted again under their id with another text, as a batch may do.
   */
  private static final class Scenario {
    final Tree tree;
    final Set<String> deletes = new HashSet<>();
    final Set<String> replaced = new HashSet<>();
    final List<Fact> inserts = new ArrayList<>();

    Scenario(Tree tree, Random r, List<Fact> pool, int round) {
      this.tree = tree;
      int dels = r.nextInt(4) == 0 ? 0 : r.nextInt(40);
      for (int i = 0; i < dels; i++) {
        deletes.add(tree.id(r.nextInt(tree.leafCount())));
      }
      int adds = r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(20);
      for (int i = 0; i < adds; i++) {
        Fact f = pool.get(r.nextInt(pool.size()));
        inserts.add(new Fact("new-" + round + "-" + i, f.text(), null));
      }
      int replaces = r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(6);
      for (int i = 0; i < replaces; i++) {
        String id = tree.id(r.nextInt(tree.leafCount()));
        if (!deletes.contains(id) && replaced.add(id)) {
          deletes.add(id);
          inserts.add(new Fact(id, pool.get(r.nextInt(pool.size())).text() + " (replaced)", null));
        }
      }
    }

    DraftTree draft(HashEmbedder embedder, SimpleTokenCounter counter) {
      DraftTree d = DraftTree.of(tree);
      d.removeLeaves(deletes);
      for (Fact f : inserts) {
        d.addLeaf(f.id(), f.text(), null, embedder.embed(f.text()), counter.count(f.text()));
      }
      return d;
    }
  }

  /** The oracle as a file gives it: every id its own string. */
  private static HierarchyState loaded(HierarchyState h) {
    List<HierarchyState.Level> levels = new ArrayList<>();
    for (HierarchyState.Level l : h.levels()) {
      String[] members = new String[l.size()];
      String[] parents = new String[l.size()];
      for (int i = 0; i < l.size(); i++) {
        members[i] = new String(l.memberIds()[i]);
        parents[i] = new String(l.parentIds()[i]);
      }
      levels.add(new HierarchyState.Level(members, l.centroids(), parents, l.assignment(), l.knnOffsets(),
          l.knnNeighbors(), l.knnWeights(), l.resolution()));
    }
    return new HierarchyState(levels);
  }

  private static int[] newToOld(HierarchyState.Level old, List<DraftNode> members) {
    Map<String, Integer> index = new HashMap<>();
    for (int o = 0; o < old.size(); o++) {
      index.put(old.memberIds()[o], o);
    }
    int[] out = new int[members.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = index.getOrDefault(members.get(i).id, -1);
    }
    return out;
  }

  /**
   * The old communities, some split in two, some merged into another, new members joining a random
   * community or alone; labels shuffled so that they are not in order of first appearance.
   */
  private static int[] changedAssignment(HierarchyState.Level old, int[] newToOld, Random r) {
    int communities = 0;
    for (int c : old.assignment()) {
      communities = Math.max(communities, c + 1);
    }
    int[] relabel = new int[communities];
    int[] splitTo = new int[communities];
    int fresh = communities;
    for (int c = 0; c < communities; c++) {
      int dice = r.nextInt(20);
      relabel[c] = dice == 0 ? r.nextInt(communities) : c; // merged into another
      splitTo[c] = dice == 1 ? fresh++ : -1; // split: half its members go to a new community
    }
    int[] out = new int[newToOld.length];
    for (int i = 0; i < out.length; i++) {
      int o = newToOld[i];
      if (o >= 0) {
        int c = old.assignment()[o];
        out[i] = splitTo[c] >= 0 && r.nextBoolean() ? splitTo[c] : relabel[c];
      } else {
        out[i] = r.nextBoolean() && communities > 0 ? r.nextInt(communities) : fresh++;
      }
    }
    int[] shuffle = new int[fresh];
    for (int c = 0; c < fresh; c++) {
      shuffle[c] = c * 7 + r.nextInt(3) * fresh * 7; // distinct, out of order, with gaps
    }
    for (int i = 0; i < out.length; i++) {
      out[i] = shuffle[out[i]];
    }
    return out;
  }

  /**
   * Relabels {@code assignment} in place: the communities that are exactly the members that stayed of one old
   * community get 0, 1, ... in order of their first member, the others the numbers after; returns how many there
   * are of the first kind.
   */
  private static int untouchedFirst(int[] assignment, int[] oldCommunityOf, Set<Integer> excluded) {
    Map<Integer, Integer> stayed = new HashMap<>();
    for (int c : oldCommunityOf) {
      stayed.merge(c, 1, Integer::sum);
    }
    Map<Integer, Integer> size = new HashMap<>();
    Map<Integer, Integer> oldOf = new HashMap<>();
    Set<Integer> mixed = new HashSet<>();
    for (int i = 0; i < assignment.length; i++) {
      size.merge(assignment[i], 1, Integer::sum);
      Integer was = oldOf.putIfAbsent(assignment[i], oldCommunityOf[i]);
      if (oldCommunityOf[i] < 0 || was != null && was != oldCommunityOf[i]
          || excluded != null && excluded.contains(oldCommunityOf[i])) {
        mixed.add(assignment[i]);
      }
    }
    Map<Integer, Integer> label = new LinkedHashMap<>();
    for (int a : assignment) {
      if (!mixed.contains(a) && size.get(a).equals(stayed.get(oldOf.get(a)))) {
        label.putIfAbsent(a, label.size());
      }
    }
    int untouched = label.size();
    for (int a : assignment) {
      label.putIfAbsent(a, label.size());
    }
    for (int i = 0; i < assignment.length; i++) {
      assignment[i] = label.get(assignment[i]);
    }
    return untouched;
  }

  /** The old communities of level 0 that lost a leaf: one of their members is no member now. */
  private static Set<Integer> lostLeaves(HierarchyState.Level old, int[] newToOld) {
    boolean[] stays = new boolean[old.size()];
    for (int o : newToOld) {
      if (o >= 0) {
        stays[o] = true;
      }
    }
    Set<Integer> lost = new HashSet<>();
    for (int o = 0; o < old.size(); o++) {
      if (!stays[o]) {
        lost.add(old.assignment()[o]);
      }
    }
    return lost;
  }

  /** The parent each old community of {@code old} has in {@code draft}, as the run that made the level recorded it. */
  private static DraftNode[] recordedParents(HierarchyState.Level old, DraftTree draft) {
    int communities = 0;
    for (int c : old.assignment()) {
      communities = Math.max(communities, c + 1);
    }
    DraftNode[] parentOf = new DraftNode[communities];
    for (int o = 0; o < old.size(); o++) {
      if (!old.parentIds()[o].equals(old.memberIds()[o])) {
        parentOf[old.assignment()[o]] = draft.byId.get(old.parentIds()[o]);
      }
    }
    return parentOf;
  }

  /**
   * Each recorded parent's index among {@code nextOld}'s members, or for a community of {@code old} without one (its
   * member carried up alone) the member's, -1 for none.
   */
  private static int[] nextIndexes(HierarchyState.Level old, DraftNode[] recorded, HierarchyState.Level nextOld) {
    List<String> ids = List.of(nextOld.memberIds());
    int[] out = new int[recorded.length];
    for (int c = 0; c < out.length; c++) {
      out[c] = recorded[c] == null ? -1 : ids.indexOf(recorded[c].id);
    }
    for (int o = 0; o < old.size(); o++) {
      int c = old.assignment()[o];
      if (recorded[c] == null) {
        out[c] = ids.indexOf(old.memberIds()[o]);
      }
    }
    return out;
  }

  private static List<String> ids(List<DraftNode> nodes) {
    List<String> out = new ArrayList<>();
    for (DraftNode n : nodes) {
      out.add(n.id);
    }
    return out;
  }

  private static void assertSameDrafts(DraftTree a, DraftTree b, String at) {
    assertEquals(ids(a.internal), ids(b.internal), at + ": internal nodes");
    assertEquals(ids(a.leaves), ids(b.leaves), at + ": leaves");
    List<DraftNode> all = new ArrayList<>(a.leaves);
    all.addAll(a.internal);
    for (DraftNode x : all) {
      DraftNode y = b.byId.get(x.id);
      String where = at + ", node " + x.id;
      assertEquals(x.parent == null ? null : x.parent.id, y.parent == null ? null : y.parent.id, where);
      assertEquals(ids(x.children), ids(y.children), where + ": children");
      assertEquals(x.structural, y.structural, where + ": structural");
      assertEquals(x.centroidChanged, y.centroidChanged, where + ": centroid changed");
      assertEquals(x.level, y.level, where + ": level");
      assertArrayEquals(x.sum(), y.sum(), where + ": sum");
    }
  }
}

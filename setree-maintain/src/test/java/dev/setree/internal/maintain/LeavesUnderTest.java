package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link LeavesUnder} against a walk of the subtree written here: random drafts whose summaries quote leaves under
 * them and elsewhere (strays), gathered with parts kept from several sizes, some nodes summarised in a pass and others
 * only gathered as their ancestors' children, then changed (a leaf moved, a quote changed) with the parts forgotten
 * where the maintenance run forgets them. Also that keeping a node's parts changes
 * neither the leaves a summary request was offered nor the parts its children keep.
 */
class LeavesUnderTest {
  private static final int DIM = 4;

  @Test
  void everyGatheringIsTheWalkOfTheSubtree() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    for (int round = 0; round < 200; round++) {
      String ctx = "seed=" + seed + " round " + round;
      DraftTree d = new DraftTree(DIM);
      List<DraftNode> leaves = new ArrayList<>();
      List<DraftNode> internal = new ArrayList<>();
      DraftNode root = randomTree(d, r, leaves, internal);
      int keptFrom = 1 + r.nextInt(12);
      for (int pass = 0; pass < 6; pass++) {
        for (DraftNode v : internal) { // children before parents, as the summary pass
          if (v != root && r.nextInt(3) == 0) {
            continue; // not summarised in this pass: gathered as an ancestor's child, when its parts are not kept
          }
          List<DraftNode[]> keptBefore = contents(keptParts(v));
          LeavesUnder under = LeavesUnder.of(v, keptFrom);
          List<DraftNode> all = new ArrayList<>();
          List<DraftNode> offered = new ArrayList<>();
          walk(v, all, offered);
          DraftNode[] offeredBefore = under.offered().array().clone();
          assertEquals(all.size(), under.size(), ctx + " pass " + pass + ": leaves under " + v.id);
          assertArrayEquals((offered.isEmpty() ? all : offered).toArray(), offeredBefore,
              ctx + " pass " + pass + ": leaves offered by " + v.id);
          LeavesUnder.Parts[] keptBelow = keptParts(v);
          v.sources = quotes(r, leaves, all); // the summary written, quoting leaves under it and maybe others
          under.keep(v);
          assertArrayEquals(offeredBefore, under.offered().array(), ctx + ": keeping " + v.id + " changed its offer");
          LeavesUnder.Parts[] after = keptParts(v);
          List<DraftNode[]> keptAfter = contents(after);
          for (int i = 0; i < after.length; i++) {
            assertSame(keptBelow[i], after[i], ctx + ": keeping " + v.id + " replaced a child's parts");
          }
          for (int i = 0; i < keptAfter.size(); i++) {
            if (keptBefore.get(i) != null) { // parts a child kept before the gathering are as they were
              assertArrayEquals(keptBefore.get(i), keptAfter.get(i), ctx + ": gathering " + v.id
                  + " changed the parts of child " + i / 3 + " (" + (i % 3) + ")");
            }
          }
        }
        change(d, r, leaves, internal, root);
      }
    }
  }

  /**
   * A tree over 5-60 leaves, each internal node over 1-4 nodes of the level below (a chain of single children now and
   * then) until one root, its internal nodes in the order children before parents.
   */
  private static DraftNode randomTree(DraftTree d, Random r, List<DraftNode> leaves, List<DraftNode> internal) {
    List<DraftNode> level = new ArrayList<>();
    int n = 5 + r.nextInt(56);
    for (int i = 0; i < n; i++) {
      DraftNode l = d.addLeaf("l" + i, "leaf " + i, null, new float[] {1, i, 0, 0}, 3);
      leaves.add(l);
      level.add(l);
    }
    int lvl = 1;
    while (level.size() > 1) {
      List<DraftNode> next = new ArrayList<>();
      for (int i = 0; i < level.size(); ) {
        int take = level.size() - i <= 4 ? level.size() - i : 1 + r.nextInt(4);
        DraftNode p = d.addInternal("n" + lvl + "." + next.size(), lvl);
        for (int j = 0; j < take; j++) {
          DraftTree.attach(level.get(i + j), p);
        }
        i += take;
        internal.add(p);
        next.add(p);
      }
      level = next;
      lvl++;
    }
    return level.get(0);
  }

  /** Some leaves a summary of the node whose leaves are {@code under} quotes: mostly among them, sometimes not. */
  private static List<DraftNode> quotes(Random r, List<DraftNode> leaves, List<DraftNode> under) {
    List<DraftNode> out = new ArrayList<>();
    int count = r.nextInt(4);
    for (int i = 0; i < count; i++) {
      DraftNode q = r.nextInt(5) == 0 ? leaves.get(r.nextInt(leaves.size())) : under.get(r.nextInt(under.size()));
      if (!out.contains(q)) {
        out.add(q);
      }
    }
    return out;
  }

  /**
   * A run's change: a leaf moved under another level-1 node (its quotes now strays where they were), or a node's
   * quotes replaced; the parts of the nodes touched and above them forgotten, as the summary pass forgets them.
   */
  private static void change(DraftTree d, Random r, List<DraftNode> leaves, List<DraftNode> internal,
      DraftNode root) {
    if (r.nextBoolean()) {
      DraftNode l = leaves.get(r.nextInt(leaves.size()));
      List<DraftNode> ones = new ArrayList<>();
      for (DraftNode v : internal) {
        if (v.level == 1 && v != l.parent) {
          ones.add(v);
        }
      }
      if (!ones.isEmpty() && l.parent.children.size() > 1) {
        DraftNode from = l.parent;
        DraftNode to = ones.get(r.nextInt(ones.size()));
        DraftTree.attach(l, to);
        LeavesUnder.changed(from);
        LeavesUnder.changed(to);
      }
    } else {
      DraftNode v = internal.get(r.nextInt(internal.size()));
      List<DraftNode> all = new ArrayList<>();
      walk(v, all, new ArrayList<>());
      v.sources = quotes(r, leaves, all);
      LeavesUnder.changed(v);
    }
  }

  /** The parts {@code v}'s children keep, by child (null for a leaf or none kept). */
  private static LeavesUnder.Parts[] keptParts(DraftNode v) {
    LeavesUnder.Parts[] out = new LeavesUnder.Parts[v.children.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = v.children.get(i).below;
    }
    return out;
  }

  /** Copies of the three arrays of each of {@code parts} (null entries for none kept). */
  private static List<DraftNode[]> contents(LeavesUnder.Parts[] parts) {
    List<DraftNode[]> out = new ArrayList<>();
    for (LeavesUnder.Parts p : parts) {
      out.add(p == null ? null : p.leaves().clone());
      out.add(p == null ? null : p.unquoted().clone());
      out.add(p == null ? null : p.strays().clone());
    }
    return out;
  }

  /** Every leaf under {@code v} in order, and those no summary strictly below {@code v} quotes. */
  private static void walk(DraftNode v, List<DraftNode> all, List<DraftNode> offered) {
    Set<DraftNode> quoted = Collections.newSetFromMap(new IdentityHashMap<>());
    for (DraftNode c : v.children) {
      collect(c, all, quoted);
    }
    for (DraftNode l : all) {
      if (!quoted.contains(l)) {
        offered.add(l);
      }
    }
  }

  private static void collect(DraftNode v, List<DraftNode> leaves, Set<DraftNode> quoted) {
    if (v.leaf) {
      leaves.add(v);
      return;
    }
    quoted.addAll(v.sources);
    for (DraftNode c : v.children) {
      collect(c, leaves, quoted);
    }
  }
}

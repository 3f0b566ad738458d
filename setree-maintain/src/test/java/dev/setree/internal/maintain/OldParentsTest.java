package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.setree.internal.core.HierarchyState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link OldParents} against each member's parent read by id, members asked in random order and again: few of them
 * (kept in a map) and most of them (moved to arrays on the way); new members, members carried alone and members whose
 * node has another parent now.
 */
class OldParentsTest {
  @Test
  void answersEachMemberAsItsOldParentById() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    for (int round = 0; round < 100; round++) {
      String ctx = "seed=" + seed + " round " + round;
      DraftTree d = new DraftTree(2);
      int m = 20 + r.nextInt(300);
      List<DraftNode> mem = new ArrayList<>();
      List<DraftNode> parents = new ArrayList<>();
      String[] memberIds = new String[m];
      String[] parentIds = new String[m];
      int[] assignment = new int[m];
      int communities = 0;
      for (int i = 0; i < m; ) {
        int size = 1 + r.nextInt(6);
        boolean carried = size == 1 && r.nextBoolean();
        DraftNode p = carried ? null : d.addInternal("p" + communities, 1);
        for (int j = 0; j < size && i < m; j++, i++) {
          DraftNode x = d.addLeaf("m" + i, "member " + i, null, new float[] {1, i}, 2);
          mem.add(x);
          memberIds[i] = x.id;
          parentIds[i] = carried ? x.id : p.id;
          assignment[i] = communities;
          if (p != null) {
            DraftTree.attach(x, p);
          }
        }
        parents.add(p);
        communities++;
      }
      HierarchyState.Level old = new HierarchyState.Level(memberIds, new float[2 * m], parentIds, assignment,
          new int[m + 1], new int[0], new float[0], Double.NaN);
      int[] newToOld = new int[m];
      for (int i = 0; i < m; i++) {
        newToOld[i] = r.nextInt(10) == 0 ? -1 : i; // some members new
      }
      Map<String, DraftNode> byId = new HashMap<>();
      for (DraftNode p : parents) {
        if (p != null) {
          byId.put(p.id, p);
        }
      }
      for (int i = 0; i < m; i++) { // some members moved under another node since: their old parent is found by id
        if (r.nextInt(8) == 0 && mem.get(i).parent != null) {
          DraftTree.attach(mem.get(i), d.addInternal("q" + i, 1));
        }
      }
      OldParents of = new OldParents(mem, newToOld, old, byId);
      int asks = r.nextBoolean() ? 1 + r.nextInt(m / 8 + 1) : 3 * m; // within the map, or past its limit
      for (int a = 0; a < asks; a++) {
        int i = r.nextInt(m);
        DraftNode expected = newToOld[i] < 0 || parentIds[i].equals(memberIds[i]) ? null : byId.get(parentIds[i]);
        assertSame(expected, of.of(i), ctx + ": member " + i + " asked (" + a + " of " + asks + ")");
      }
      List<DraftNode> listed = of.resolved();
      for (int j = 0; j < listed.size(); j++) {
        DraftNode p = listed.get(j);
        assertEquals(Integer.parseInt(p.id.substring(1)), of.resolvedFor(j), ctx + ": resolved " + j);
      }
    }
  }
}

package dev.setree.internal.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Whether a level's assignment is stored: the check without a map agrees with numbering the parent ids; a level is
 * checked once, its answer kept with it.
 */
class DerivedAssignmentTest {

  @Test
  void aLevelIsCheckedOnce() {
    String[] ids = {"a", "b", "c"};
    String[] parents = {"p", "p", "q"};
    HierarchyState.Level derived = new HierarchyState.Level(ids, new float[3], parents, new int[] {0, 0, 1},
        new int[4], new int[0], new float[0], Double.NaN);
    HierarchyState.Level other = new HierarchyState.Level(ids, new float[3], parents, new int[] {0, 1, 1},
        new int[4], new int[0], new float[0], Double.NaN);
    int before = DerivedAssignment.CHECKED.get();
    assertNull(DerivedAssignment.stored(derived, null));
    assertNull(DerivedAssignment.stored(derived, null));
    assertArrayEquals(new int[] {0, 1, 1}, DerivedAssignment.stored(other, null));
    assertArrayEquals(new int[] {0, 1, 1}, DerivedAssignment.stored(other, null));
    assertEquals(before + 2, DerivedAssignment.CHECKED.get(), "each level checked once");
    assertEquals(Boolean.TRUE, derived.assignmentDerived());
    assertEquals(Boolean.FALSE, other.assignmentDerived());
  }

  @Test
  void theCheckAgreesWithTheNumberingOnRandomLevels() {
    Random r = new Random(11);
    int derivable = 0;
    for (int round = 0; round < 3_000; round++) {
      int n = 1 + r.nextInt(40);
      int parents = 1 + r.nextInt(n);
      String[] parentIds = new String[n];
      for (int i = 0; i < n; i++) {
        parentIds[i] = new String("_n" + r.nextInt(parents)); // equal ids, not always the same object
      }
      int[] assignment = DerivedAssignment.of(parentIds);
      switch (r.nextInt(5)) {
        case 0 -> assignment[r.nextInt(n)] = r.nextInt(parents + 1); // maybe another community
        case 1 -> { // two communities' numbers swapped
          int a = r.nextInt(parents);
          int b = r.nextInt(parents);
          for (int i = 0; i < n; i++) {
            assignment[i] = assignment[i] == a ? b : assignment[i] == b ? a : assignment[i];
          }
        }
        case 2 -> assignment[r.nextInt(n)] = -1;
        default -> { } // as derived
      }
      boolean expected = Arrays.equals(DerivedAssignment.of(parentIds), assignment);
      assertEquals(expected, DerivedAssignment.holds(parentIds, assignment, null),
          Arrays.toString(parentIds) + " " + Arrays.toString(assignment));
      derivable += expected ? 1 : 0;
    }
    assertTrue(derivable > 1_000 && derivable < 2_900, "both answers were tried: " + derivable);
  }

  /**
   * Levels of thousands of communities (the check's arrays grow as communities appear): by ids and by nodes, the
   * answers of the numbering.
   */
  @Test
  void levelsOfThousandsOfCommunities() {
    dev.setree.internal.core.Tree tree = RandomTrees.tree(17, 3_000, 4, "p");
    Random r = new Random(19);
    int derivable = 0;
    for (int round = 0; round < 40; round++) {
      int n = tree.leafCount();
      String[] parentIds = new String[n];
      for (int i = 0; i < n; i++) {
        int p = tree.parent(i);
        parentIds[i] = p < 0 || r.nextInt(3) == 0 ? tree.id(i) : tree.id(p); // carried alone, or its parent's
      }
      int[] assignment = DerivedAssignment.of(parentIds);
      switch (r.nextInt(3)) {
        case 0 -> assignment[1_500 + r.nextInt(n - 1_500)] = r.nextInt(n); // late, after many communities
        case 1 -> parentIds[2_000 + r.nextInt(n - 2_000)] = tree.id(r.nextInt(tree.size())); // another parent
        default -> { } // as derived
      }
      boolean expected = Arrays.equals(DerivedAssignment.of(parentIds), assignment);
      assertTrue(Arrays.stream(assignment).max().orElse(0) > 1_024, "round " + round + ": too few communities");
      assertEquals(expected, DerivedAssignment.holds(parentIds, assignment, null), "round " + round + " by ids");
      assertEquals(expected, DerivedAssignment.holds(parentIds, assignment, tree), "round " + round + " by nodes");
      derivable += expected ? 1 : 0;
    }
    assertTrue(derivable > 5 && derivable < 35, "both answers were tried: " + derivable);
  }

  /**
   * With the tree the parent ids name, the parents are told apart by node: the same answers, also when an id is an
   * equal copy of a node's, or no node's at all (the check falls back to a set).
   */
  @Test
  void theCheckByNodesAgreesWithTheCheckByIds() {
    dev.setree.internal.core.Tree tree = RandomTrees.tree(5, 60, 4, "p");
    Random r = new Random(13);
    int byNodes = 0;
    for (int round = 0; round < 3_000; round++) {
      int n = 1 + r.nextInt(40);
      int parents = 1 + r.nextInt(n);
      boolean foreign = r.nextInt(4) == 0; // one parent id that is no node of the tree
      String[] ids = new String[parents];
      for (int p = 0; p < parents; p++) {
        int v = r.nextInt(tree.size());
        ids[p] = r.nextBoolean() ? tree.id(v) : new String(tree.id(v)); // an equal copy, not the same object
      }
      if (foreign) {
        ids[r.nextInt(parents)] = "no node";
      }
      String[] parentIds = new String[n];
      for (int i = 0; i < n; i++) {
        parentIds[i] = ids[r.nextInt(parents)];
      }
      int[] assignment = DerivedAssignment.of(parentIds);
      if (r.nextBoolean()) {
        assignment[r.nextInt(n)] = r.nextInt(parents + 1);
      }
      boolean expected = DerivedAssignment.holds(parentIds, assignment, null);
      assertEquals(expected, DerivedAssignment.holds(parentIds, assignment, tree),
          Arrays.toString(parentIds) + " " + Arrays.toString(assignment));
      byNodes += expected && !foreign ? 1 : 0;
    }
    assertTrue(byNodes > 300, "too few derivable levels decided by nodes: " + byNodes);
  }

  /**
   * A level shaped as level 0 is: the tree's leaves as members, each under its parent or carried alone (its own id as
   * its parent's, the same string), now and then one community more under a parent another has, or under a leaf
   * carried alone, and numbers changed: the same answers by nodes as by ids.
   */
  @Test
  void aLevelOfLeavesSomeCarriedAloneIsCheckedByNodes() {
    Random r = new Random(17);
    int derivable = 0;
    int refused = 0;
    for (int round = 0; round < 300; round++) {
      dev.setree.internal.core.Tree tree = RandomTrees.tree(round, 2 + r.nextInt(80), 4, "p");
      int n = tree.leafCount();
      String[] parentIds = new String[n];
      for (int i = 0; i < n; i++) {
        int p = tree.parent(i);
        parentIds[i] = p < 0 || r.nextInt(5) == 0 ? tree.id(i) : tree.id(p);
      }
      switch (r.nextInt(4)) {
        case 0 -> parentIds[r.nextInt(n)] = parentIds[r.nextInt(n)]; // maybe a parent or a leaf named twice
        case 1 -> parentIds[r.nextInt(n)] = tree.id(r.nextInt(n)); // maybe a leaf another member is under
        default -> { }
      }
      int[] assignment = DerivedAssignment.of(parentIds);
      if (r.nextInt(4) == 0) {
        assignment[r.nextInt(n)] = r.nextInt(n);
      }
      boolean expected = DerivedAssignment.holds(parentIds, assignment, null);
      assertEquals(expected, DerivedAssignment.holds(parentIds, assignment, tree),
          "round " + round + ": " + Arrays.toString(parentIds) + " " + Arrays.toString(assignment));
      derivable += expected ? 1 : 0;
      refused += expected ? 0 : 1;
    }
    assertTrue(derivable > 100 && refused > 30, "both answers were tried: " + derivable + " and " + refused);
  }

  @Test
  void twoCommunitiesUnderOneParentAreNotDerivable() {
    assertFalse(DerivedAssignment.holds(new String[] {"p", "p"}, new int[] {0, 1}, null));
    assertFalse(DerivedAssignment.holds(new String[] {"p", "q"}, new int[] {0, 0}, null));
    assertFalse(DerivedAssignment.holds(new String[] {"p"}, null, null));
    assertTrue(DerivedAssignment.holds(new String[] {"p", "q", "p"}, new int[] {0, 1, 0}, null));
  }
}

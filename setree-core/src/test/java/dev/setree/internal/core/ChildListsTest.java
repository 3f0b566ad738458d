package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The child lists of a tree with leaves appended, made from the tree before's ({@link ChildLists#appended}), are the
 * lists a counting sort of the new tree gives; a tree in which anything else changed is left to the sort.
 */
class ChildListsTest {
  @Test
  void listsOfATreeWithLeavesAppendedAreTheSortedOnes() {
    Random r = new Random(7);
    for (int round = 0; round < 200; round++) {
      int leaves = 2 + r.nextInt(300);
      int[] base = randomTree(r, leaves);
      int added = r.nextInt(6);
      int[] next = appended(r, base, leaves, added);
      ChildLists lists = ChildLists.appended(ChildLists.inTreeOrder(base, leaves), base, leaves, next,
          leaves + added);
      assertNotNull(lists, "round " + round);
      ChildLists sorted = ChildLists.inTreeOrder(next, leaves + added);
      assertArrayEquals(sorted.offsets(), lists.offsets(), "round " + round);
      assertArrayEquals(sorted.children(), lists.children(), "round " + round);
    }
  }

  @Test
  void aTreeWithAnotherChangeIsLeftToTheSort() {
    Random r = new Random(8);
    int leaves = 50;
    int[] base = randomTree(r, leaves);
    ChildLists lists = ChildLists.inTreeOrder(base, leaves);
    int[] next = appended(r, base, leaves, 2);
    int[] moved = next.clone();
    moved[3] = next[10] != next[3] ? next[10] : next.length - 1; // an old leaf under another parent
    assertNull(ChildLists.appended(lists, base, leaves, moved, leaves + 2));
    int[] leafParent = next.clone();
    leafParent[leaves] = 0; // a new leaf under a leaf
    assertNull(ChildLists.appended(lists, base, leaves, leafParent, leaves + 2));
    assertNull(ChildLists.appended(lists, base, leaves, next, leaves + 1)); // not the leaves it says
  }

  /** A parent array: leaves {@code 0..leaves-1}, then internal nodes grouping members at random, root last. */
  private static int[] randomTree(Random r, int leaves) {
    List<Integer> parent = new ArrayList<>(Collections.nCopies(leaves, -1));
    List<Integer> members = new ArrayList<>();
    for (int v = 0; v < leaves; v++) {
      members.add(v);
    }
    while (members.size() > 1) {
      Collections.shuffle(members, r);
      List<Integer> next = new ArrayList<>();
      for (int i = 0; i < members.size(); ) {
        int size = Math.min(members.size() - i, members.size() == 2 ? 2 : 1 + r.nextInt(5));
        if (size == 1) {
          next.add(members.get(i)); // carried up alone
        } else {
          int p = parent.size();
          parent.add(-1);
          for (int x = i; x < i + size; x++) {
            parent.set(members.get(x), p);
          }
          next.add(p);
        }
        i += size;
      }
      members = next;
    }
    return parent.stream().mapToInt(Integer::intValue).toArray();
  }

  /** {@code base} with {@code added} leaves appended, each under a random internal node. */
  private static int[] appended(Random r, int[] base, int leaves, int added) {
    int n = base.length + added;
    int[] next = new int[n];
    for (int v = 0; v < base.length; v++) {
      int p = base[v] < 0 ? -1 : base[v] + added;
      next[v < leaves ? v : v + added] = p;
    }
    for (int v = leaves; v < leaves + added; v++) {
      next[v] = leaves + added + r.nextInt(base.length - leaves);
    }
    return next;
  }
}

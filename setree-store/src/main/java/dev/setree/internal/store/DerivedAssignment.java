package dev.setree.internal.store;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A level's assignment when it is left out of the {@code levels} row: dense community numbers in order of first
 * appearance of the members' parent ids ({@link #of}), and the check that a level's assignment is exactly that
 * ({@link #holds}), so that the save can leave it out (docs/store-format.md).
 */
final class DerivedAssignment {
  /** How many levels {@link #stored} checked (tests: a level is checked once). */
  static final AtomicInteger CHECKED = new AtomicInteger();

  private DerivedAssignment() {}

  /**
   * The assignment of {@code l} as stored: null when it is derivable from the parent ids ({@link #holds}).
   *
   * @param tree the tree saved with it, whose nodes the parent ids name, or null
   */
  static int[] stored(HierarchyState.Level l, Tree tree) {
    Boolean known = l.assignmentDerived(); // the level's memo: it is checked once
    boolean derived;
    if (known != null) {
      derived = known;
      assert derived == holds(l.parentIds(), l.assignment(), tree) : "a level's memo of its assignment is wrong";
    } else {
      CHECKED.incrementAndGet();
      derived = holds(l.parentIds(), l.assignment(), tree);
      l.rememberAssignmentDerived(derived);
    }
    return derived ? null : l.assignment();
  }

  /**
   * Whether {@code assignment} equals {@link #of} of {@code parentIds}, checked without numbering
   * every member's parent id through a map (a level of 50,000 members was a run's largest map): the numbers
   * are dense in order of first appearance, the members of one community have its first member's parent id,
   * and no two communities have the same one. With {@code tree} (or null), whose node ids the parent ids usually
   * are, the communities' parents are told apart by their nodes (ids are unique in a tree), each looked for just
   * after the previous one first: a set of 6,244 parent ids, one look at each id string all over the heap, was
   * built in every save at 50,000 leaves. A parent id that is no node of the tree, or no tree, uses the set.
   */
  static boolean holds(String[] parentIds, int[] assignment, Tree tree) {
    if (assignment == null || assignment.length != parentIds.length) {
      return false;
    }
    // By community: its first member's parent id, and that member. Grown as communities appear: a level has several
    // members per community, and arrays as long as level 0 of a million leaves were 8 MB a save.
    String[] parentOf = new String[Math.min(assignment.length, 1024)];
    int[] firstOf = new int[parentOf.length];
    int communities = 0;
    for (int i = 0; i < assignment.length; i++) {
      int c = assignment[i];
      if (c < 0 || c > communities) {
        return false;
      }
      String p = parentIds[i];
      if (c == communities) {
        if (communities == parentOf.length) {
          int grown = (int) Math.min(assignment.length, 2L * communities);
          parentOf = Arrays.copyOf(parentOf, grown);
          firstOf = Arrays.copyOf(firstOf, grown);
        }
        firstOf[communities] = i;
        parentOf[communities++] = p;
      } else if (p != parentOf[c] && (p == null || !p.equals(parentOf[c]))) { // no call for the same string
        return false;
      }
    }
    if (tree != null) {
      java.util.BitSet seen = new java.util.BitSet(tree.size()); // a bit per node: checked several times a save
      int at = -1; // the last internal node found: the next community's parent is usually the one after it
      boolean allNodes = true;
      for (int c = 0; c < communities && allNodes; c++) {
        String p = parentOf[c];
        // The same string at a hint, told without reading either: the node after the last internal node found, or,
        // for a member carried alone (its own id as its parent's: level 0's member i is leaf i), the member. Lookups
        // by id (a read of the string) at such members and new parents took 265 of this check's 394 samples in a
        // profile of 30 saves at a million leaves.
        int hint = at + 1;
        int v = hint < tree.size() && tree.id(hint) == p ? hint
            : firstOf[c] < tree.size() && tree.id(firstOf[c]) == p ? firstOf[c] : tree.indexOf(p);
        if (v >= 0 && seen.get(v)) {
          return false;
        }
        allNodes = v >= 0;
        if (allNodes) {
          seen.set(v);
          if (v >= tree.leafCount()) {
            at = v;
          }
        }
      }
      if (allNodes) {
        return true;
      }
    }
    java.util.Set<String> distinct = new java.util.HashSet<>(2 * communities);
    for (int c = 0; c < communities; c++) {
      if (!distinct.add(parentOf[c])) {
        return false;
      }
    }
    return true;
  }

  /** Dense community numbers in order of first appearance of the parent ids. */
  static int[] of(String[] parentIds) {
    Map<String, Integer> number = new HashMap<>();
    int[] out = new int[parentIds.length];
    for (int i = 0; i < parentIds.length; i++) {
      out[i] = number.computeIfAbsent(parentIds[i], k -> number.size());
    }
    return out;
  }
}

package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A tree given its shape from the tree before ({@link ShapeFrom}): the child lists, leaf counts and depths it copies
 * and derives are those a tree derives from every node's parent, children in tree order however they are given; a
 * shape that leaves out a node whose subtree changed is caught under assertions.
 */
class ShapeFromTest {
  private static final int DIM = 2;

  /**
   * A tree of {@code leaves} leaves under internal nodes given by {@code parent} (leaves first, root last), every
   * node of level 1 but the root, of level 2.
   */
  private static Tree tree(int leaves, int[] parent, Tree before, ShapeFrom shape) {
    int[] level = new int[parent.length];
    Arrays.fill(level, leaves, parent.length, 1);
    level[parent.length - 1] = 2;
    return tree(leaves, parent, level, before, shape);
  }

  private static Tree tree(int leaves, int[] parent, int[] level, Tree before, ShapeFrom shape) {
    return tree(leaves, parent, level, before, shape, null);
  }

  /** As above, each node quoting the leaves {@code quoted} gives (null: none quoted). */
  private static Tree tree(int leaves, int[] parent, int[] level, Tree before, ShapeFrom shape, int[][] quoted) {
    int n = parent.length;
    String[] ids = IntStream.range(0, n).mapToObj(v -> v < leaves ? "leaf" + v : "node" + v).toArray(String[]::new);
    if (before != null) { // the internal nodes keep the ids they had
      for (int v = leaves; v < n; v++) {
        int o = shape.previous()[v - leaves];
        ids[v] = o >= 0 ? before.id(o) : "made" + v;
      }
    }
    int inner = n - leaves;
    return new Tree(DIM, leaves, ids, ids.clone(), null, null, new int[n], level, parent, new float[leaves * DIM],
        InternalRows.dense(new float[inner * DIM], new float[inner * DIM], inner, DIM), new int[n], quoted, null,
        before, shape);
  }

  /** Six leaves under two nodes (6: leaves 0-2, 7: leaves 3-5) under the root (8). */
  private static Tree base() {
    return tree(6, new int[] {6, 6, 6, 7, 7, 7, 8, 8, -1}, null, null);
  }

  private static void assertSameShape(Tree expected, Tree actual) {
    for (int v = 0; v < expected.size(); v++) {
      assertEquals(expected.childCount(v), actual.childCount(v), "children of " + v);
      for (int i = 0; i < expected.childCount(v); i++) {
        assertEquals(expected.child(v, i), actual.child(v, i), "child " + i + " of " + v);
      }
      assertEquals(expected.leavesUnder(v), actual.leavesUnder(v), "leaves under " + v);
      assertEquals(expected.subtreeDepth(v), actual.subtreeDepth(v), "depth of " + v);
    }
  }

  /** The parents after leaf 6 joins {@link #base()}'s node 7, now 8 (leaves 3-6); node 6 is now 7, the root 9. */
  private static final int[] LEAF_SIX_JOINS = {7, 7, 7, 8, 8, 8, 8, 9, 9, -1};

  /** The shape of {@link #LEAF_SIX_JOINS} from {@code before}: nodes 8 and 9 redone, the root's children unsorted. */
  private static ShapeFrom leafSixJoins(Tree before) {
    return new ShapeFrom(before, new int[] {6, 7, 8}, new int[] {7, 8, 9}, new int[] {8, 9},
        new int[][] {{6, 3, 5, 4}, {8, 7}});
  }

  @Test
  void aNewLeafUnderOneNodeCopiesTheOtherAndSortsTheRootsChildren() {
    Tree before = base();
    int[] parent = LEAF_SIX_JOINS;
    ShapeFrom shape = leafSixJoins(before);
    Tree derived = tree(7, parent, before, shape);
    assertSameShape(tree(7, parent, null, null), derived);
    assertEquals(7, derived.leavesUnder(9));
    assertEquals(7, derived.child(9, 0), "the root's first child is the node of leaf 0");
  }

  @Test
  void aNodeMadeAboveMovedChildrenIsDerived() {
    Tree before = base();
    // Leaf 6 and leaves 3-5 regrouped: node 7 keeps 3 and 4; a new node (9) takes 5 and 6 and sits at level 1.
    int[] parent = {7, 7, 7, 8, 8, 9, 9, 10, 10, 10, -1};
    ShapeFrom shape = new ShapeFrom(before, new int[] {6, 7, -1, 8}, new int[] {7, 8, 10}, new int[] {8, 9, 10},
        new int[][] {{4, 3}, {6, 5}, {9, 8, 7}});
    Tree derived = tree(7, parent, before, shape);
    assertSameShape(tree(7, parent, null, null), derived);
  }

  @Test
  void nodesAboveKeptNodesAreCopiedWithTheirChildrenRenumbered() {
    // Eight leaves in pairs under 8-11 (level 1), those in pairs under 12 and 13 (level 2), under the root 14.
    int[] level = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3};
    Tree before = tree(8, new int[] {8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13, 14, 14, -1}, level, null, null);
    // Leaf 8 joins the last pair's node (11, now 12): it, the node above it (13, now 14) and the root are redone;
    // the other nodes are copied, node 12 (now 13) with its children 8 and 9 renumbered 9 and 10.
    int[] parent = {9, 9, 10, 10, 11, 11, 12, 12, 12, 13, 13, 14, 14, 15, 15, -1};
    int[] newLevel = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3};
    ShapeFrom shape = new ShapeFrom(before, new int[] {8, 9, 10, 11, 12, 13, 14},
        new int[] {9, 10, 11, 12, 13, 14, 15}, new int[] {12, 14, 15}, new int[][] {{8, 6, 7}, {12, 11}, {14, 13}});
    Tree derived = tree(9, parent, newLevel, before, shape);
    assertSameShape(tree(9, parent, newLevel, null, null), derived);
    assertEquals(10, derived.child(13, 1), "node 12's second child, node 9 before");
    assertEquals(3, derived.leavesUnder(12));
    assertEquals(3, derived.subtreeDepth(15));
  }

  @Test
  void nodesKeptAroundADroppedNodeAreCopiedFromTheirOwnRows() {
    // Leaves under 9 (0, 1), 10 (2-4), 11 (5, 6) and 12 (7, 8), under the root 13. Node 10 is dropped, its leaves
    // moving to node 12 (now 11): nodes 9 and 11 stay untouched and are neighbours now (9 and 10), their base rows not.
    Tree before = tree(9, new int[] {9, 9, 10, 10, 10, 11, 11, 12, 12, 13, 13, 13, 13, -1}, null, null);
    int[] parent = {9, 9, 11, 11, 11, 10, 10, 11, 11, 12, 12, 12, -1};
    ShapeFrom shape = new ShapeFrom(before, new int[] {9, 11, 12, 13}, new int[] {9, -1, 10, 11, 12},
        new int[] {11, 12}, new int[][] {{8, 7, 2, 3, 4}, {11, 9, 10}});
    Tree derived = tree(9, parent, before, shape);
    assertSameShape(tree(9, parent, null, null), derived);
    assertEquals(5, derived.child(10, 0), "node 11's first leaf, not node 10's");
    assertEquals(2, derived.leavesUnder(10), "node 11's leaves, not node 10's");
  }

  @Test
  void quotedLeavesAreCopiedFromTheBaseWhereANodeTakesThem() {
    // Leaves under 9 (0, 1), 10 (2-4), 11 (5, 6) and 12 (7, 8), under the root 13, each node quoting some of its
    // leaves (node 11 none). Node 10 is dropped, its leaves moving to node 12 (now 11), as in the test above.
    int[] level = {0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2};
    int[][] quotedBefore = new int[14][];
    quotedBefore[9] = new int[] {1};
    quotedBefore[10] = new int[] {2, 4};
    quotedBefore[12] = new int[] {7, 8};
    quotedBefore[13] = new int[] {0, 5};
    Tree before = tree(9, new int[] {9, 9, 10, 10, 10, 11, 11, 12, 12, 13, 13, 13, 13, -1}, level, null, null,
        quotedBefore);
    int[] parent = {9, 9, 11, 11, 11, 10, 10, 11, 11, 12, 12, 12, -1};
    int[] newLevel = Arrays.copyOf(level, 13);
    newLevel[12] = 2;
    ShapeFrom shape = new ShapeFrom(before, new int[] {9, 11, 12, 13}, new int[] {9, -1, 10, 11, 12},
        new int[] {11, 12}, new int[][] {{8, 7, 2, 3, 4}, {11, 9, 10}});
    int[] base = ShapeFrom.BASE_SOURCES;
    // Node 11 (12 before) quotes other leaves now; the others take their base node's, in two runs (9, then 10 and 12).
    int[][] given = {null, null, null, null, null, null, null, null, null, base, base, {2, 7}, base};
    int[][] expected = {null, null, null, null, null, null, null, null, null, {1}, {}, {2, 7}, {0, 5}};
    assertSameQuotes(tree(9, parent, newLevel, null, null, expected),
        tree(9, parent, newLevel, before, shape, given));
    // Node 11 takes its base node's too: 10 to 12 are one run, the base's nodes 11 to 13.
    given[11] = base;
    expected[11] = new int[] {7, 8};
    assertSameQuotes(tree(9, parent, newLevel, null, null, expected),
        tree(9, parent, newLevel, before, shape, given));
    // The same lists given per internal node (a freeze's: no leaf quotes), with a shape and without; node 11 quoting
    // other leaves again.
    int[][] givenInner = Arrays.copyOfRange(given, 9, 13);
    givenInner[2] = new int[] {2, 7};
    int[][] expectedInner = Arrays.copyOfRange(expected, 9, 13);
    expectedInner[2] = new int[] {2, 7};
    int[][] expectedAll = Arrays.copyOf(expected, 13);
    expectedAll[11] = new int[] {2, 7};
    assertSameQuotes(tree(9, parent, newLevel, null, null, expectedAll),
        tree(9, parent, newLevel, before, shape, givenInner));
    assertSameQuotes(tree(9, parent, newLevel, null, null, expectedAll),
        tree(9, parent, newLevel, null, null, expectedInner));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> tree(9, parent, newLevel, before, shape, Arrays.copyOf(given, 5)));
    assertEquals("sourceLeafIndex has length 5, expected 13 (per node) or 4 (per internal node)", e.getMessage());
  }

  @Test
  void quotesTakenFromNoBaseNodeAreRefused() {
    Tree before = base();
    int[] parent = LEAF_SIX_JOINS;
    ShapeFrom shape = leafSixJoins(before);
    int[] level = {0, 0, 0, 0, 0, 0, 0, 1, 1, 2};
    int[][] quoted = new int[10][];
    quoted[3] = new int[] {4}; // a leaf quotes none: refused without a shape, not read with one
    IllegalArgumentException leaf = assertThrows(IllegalArgumentException.class,
        () -> tree(7, parent, level, null, null, quoted));
    assertEquals("leaf leaf3 quotes leaves: only a summary quotes", leaf.getMessage());
    assertEquals(0, tree(7, parent, level, before, shape, quoted).sourceCount(3));
    quoted[3] = null;
    quoted[8] = ShapeFrom.BASE_SOURCES;
    assertThrows(IllegalArgumentException.class, () -> tree(7, parent, level, null, null, quoted), "without a base");
    ShapeFrom made = new ShapeFrom(before, new int[] {6, -1, 8}, new int[] {7, -1, 9}, new int[] {8, 9},
        new int[][] {{6, 3, 5, 4}, {8, 7}});
    IllegalArgumentException madeSince = assertThrows(IllegalArgumentException.class,
        () -> tree(7, parent, level, before, made, quoted));
    assertTrue(madeSince.getMessage().contains("base node it does not have"), madeSince.getMessage());
  }

  private static void assertSameQuotes(Tree expected, Tree actual) {
    for (int v = 0; v < expected.size(); v++) {
      assertEquals(Arrays.toString(expected.sources(v)), Arrays.toString(actual.sources(v)), "quoted by " + v);
    }
  }

  @Test
  void aShapeThatLeavesOutAChangedNodeIsCaughtUnderAssertions() {
    boolean on = false;
    assert on = true;
    assumeTrue(on, "assertions are off");
    Tree before = base();
    int[] parent = LEAF_SIX_JOINS;
    // The root is not redone: its leaf count (6) is copied, but 7 leaves are under it now.
    ShapeFrom shape = new ShapeFrom(before, new int[] {6, 7, 8}, new int[] {7, 8, 9}, new int[] {8},
        new int[][] {{3, 4, 5, 6}});
    AssertionError e = assertThrows(AssertionError.class, () -> tree(7, parent, before, shape));
    assertTrue(e.getMessage().contains("copied from the base"), e.getMessage());
  }
}

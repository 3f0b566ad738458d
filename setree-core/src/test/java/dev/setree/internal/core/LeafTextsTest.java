package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A tree made from shared leaf columns ({@link LeafTexts}, ADR 0050) reads its own leaves' entries and none after
 * them, its internal nodes' from their own arrays; columns too short for its leaves are refused, naming them.
 */
class LeafTextsTest {
  private static final int DIM = 2;

  /** The first {@code leafCount} leaves of {@code leaves} under node n (level 1), under the root. */
  private static Tree tree(LeafTexts leaves, int leafCount, Tree leading) {
    int n = leafCount + 2;
    int[] parent = new int[n];
    java.util.Arrays.fill(parent, 0, leafCount, leafCount);
    parent[leafCount] = leafCount + 1;
    parent[leafCount + 1] = -1;
    return new Tree(DIM, leafCount, leaves, new String[] {"n", "root"}, new String[] {"summary", "top"},
        new int[] {7, 8}, null, new int[] {1, 2}, parent, new float[leaves.capacity() * DIM],
        InternalRows.dense(new float[2 * DIM], new float[2 * DIM], 2, DIM), new int[] {90, 80}, null, null, leading,
        null);
  }

  @Test
  void aTreeReadsItsOwnLeavesOnly() {
    LeafTexts c = LeafTexts.ofCapacity(8);
    c.set(0, "a", "alpha", "2024-01-01", 1);
    c.set(1, "b", "beta", null, 2);
    c.set(2, "c", "gamma", "2024-01-03", 3);
    c.set(3, "x", "spare", null, 9); // written for a later tree: not this one's
    Tree t = tree(c, 3, null);
    assertEquals(5, t.size());
    assertEquals(4, t.root());
    assertEquals("b", t.id(1));
    assertEquals("gamma", t.text(2));
    assertEquals("2024-01-01", t.time(0));
    assertNull(t.time(1));
    assertEquals(3, t.tokens(2));
    assertEquals("n", t.id(3));
    assertEquals("summary", t.text(3));
    assertNull(t.time(3), "an internal node has no time stamp");
    assertEquals(8, t.tokens(4));
    assertEquals(-1, t.indexOf("x"), "a spare entry is not a node");
    assertEquals(3, t.indexOf("n"));
    assertEquals(3, t.indexOf("n", 3));
    assertEquals(3, t.indexOf("n", 7));
    assertTrue(t.startsWithIds(new String[] {"a", "b", "c", "n"}, 4), "leaves, then an internal node");
    assertFalse(t.startsWithIds(new String[] {"a", "b", "c", "x"}, 4), "the spare entry is not node 3");
    assertFalse(t.startsWithIds(new String[] {"a", "b", "c", "n", "root", "y"}, 6), "more ids than nodes");
    // The next tree takes the spare entry as its fourth leaf; the tree before reads as it did.
    Tree next = tree(c, 4, t);
    assertEquals("x", next.id(3));
    assertEquals(3, next.indexOf("x"));
    assertEquals(4, next.indexOf("n"));
    assertEquals(-1, t.indexOf("x"));
    assertEquals("n", t.id(3));
  }

  @Test
  void columnsTooShortOrAMissingTextAreRefused() {
    LeafTexts c = LeafTexts.ofCapacity(2);
    c.set(0, "a", "alpha", null, 1);
    c.set(1, "b", "beta", null, 1);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> tree(c, 3, null));
    assertEquals("leaf texts have room for 2 leaves, expected at least 3", e.getMessage());
    LeafTexts d = LeafTexts.ofCapacity(4);
    d.set(0, "a", "alpha", null, 1);
    d.set(1, "b", null, null, 1);
    d.set(2, "c", "gamma", null, 1);
    NullPointerException npe = assertThrows(NullPointerException.class, () -> tree(d, 3, null));
    assertEquals("text of node b", npe.getMessage());
    IllegalArgumentException lengths = assertThrows(IllegalArgumentException.class,
        () -> LeafTexts.of(new String[2], new String[2], new String[1], new int[2]));
    assertEquals("times has length 1, expected 2", lengths.getMessage());
  }
}

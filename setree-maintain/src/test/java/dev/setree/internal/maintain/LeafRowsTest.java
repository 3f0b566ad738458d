package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A draft's leaf rows are the leaves' embeddings in order after every change; the rows of the leaves an array was
 * handed out with never change (the frozen tree and the oracle hold it); an unchanged draft hands out the same
 * array; additions go into the array's spare rows while they last (the same array again), then into a copy with
 * new room, and the old array's rows are reported as shared either way; after a removal nothing is.
 */
class LeafRowsTest {
  private static final int DIM = 4;

  @Test
  void rowsFollowTheLeavesAndHandedOutRowsNeverChange() {
    Random r = new Random(3);
    DraftTree d = draftOf(5, r);
    float[] first = d.leafRows();
    float[] firstRows = Arrays.copyOf(first, 5 * DIM);
    assertRows(d, first);
    assertSame(first, d.leafRows(), "unchanged leaves: the same array");
    assertEquals(5, d.sharedLeafRows(first, 5));
    assertEquals(3, d.sharedLeafRows(first, 3), "no more than the other holds");
    int room = first.length / DIM;
    assertTrue(room >= 5 + 64, "room for at least 64 more leaves: " + room);

    d.addLeaf("l5", "t5", null, vector(r), 1);
    d.addLeaf("l6", "t6", null, vector(r), 1);
    float[] second = d.leafRows();
    assertSame(first, second, "added leaves go into the spare rows");
    assertArrayEquals(firstRows, Arrays.copyOf(first, 5 * DIM), "the rows handed out are never changed");
    assertRows(d, second);
    assertEquals(5, d.sharedLeafRows(first, 5), "the old leaves' rows are shared");
    assertEquals(0, d.sharedLeafRows(new float[7 * DIM], 7));

    for (int i = 7; i < room + 1; i++) {
      d.addLeaf("l" + i, "t" + i, null, vector(r), 1);
    }
    float[] third = d.leafRows();
    assertNotSame(second, third, "beyond the room: a new array");
    assertRows(d, third);
    assertArrayEquals(firstRows, Arrays.copyOf(first, 5 * DIM), "the rows handed out are never changed");
    assertEquals(7, d.sharedLeafRows(second, room), "copied: the rows the old array held are shared");
    assertTrue(third.length / DIM >= room + 1 + (room + 1) / 8, "room for an eighth more: " + third.length / DIM);

    float[] thirdRows = Arrays.copyOf(third, d.leaves.size() * DIM);
    assertEquals(1, d.removeLeaves(Set.of("l2")));
    float[] fourth = d.leafRows();
    assertNotSame(third, fourth);
    assertArrayEquals(thirdRows, Arrays.copyOf(third, thirdRows.length), "the rows handed out are never changed");
    assertRows(d, fourth);
    assertEquals(0, d.sharedLeafRows(third, room + 1), "after a removal the rows are copied anew, nothing shared");
    assertEquals(0, d.removeLeaves(Set.of()));
    assertSame(fourth, d.leafRows());
  }

  @Test
  void aFrozenTreeKeepsItsRowsWhileTheDraftGoesOn() {
    Random r = new Random(5);
    DraftTree d = draftOf(4, r);
    var tree = underOneRoot(d, r);
    float[][] rows = new float[4][];
    for (int v = 0; v < 4; v++) {
      rows[v] = tree.embedding(v);
    }
    DraftTree next = DraftTree.of(tree);
    DraftNode added = next.addLeaf("l4", "t4", null, vector(r), 1);
    DraftTree.attach(added, next.byId.get("n0"));
    assertSame(tree.leafEmbeddings(), next.leafRows(), "the new leaf went into the tree's spare rows");
    var after = next.toTree();
    assertEquals(5, after.leafCount());
    for (int v = 0; v < 4; v++) {
      assertArrayEquals(rows[v], tree.embedding(v), "the frozen tree's leaf " + v);
      assertArrayEquals(rows[v], after.embedding(after.indexOf("l" + v)), "the next tree's leaf " + v);
    }
    assertArrayEquals(added.embedding(), after.embedding(after.indexOf("l4")));
  }

  @Test
  void aCopiedDraftStartsFromTheTreesOwnRows() {
    Random r = new Random(4);
    DraftTree d = draftOf(3, r);
    var tree = underOneRoot(d, r);
    DraftTree copy = DraftTree.of(tree);
    for (DraftNode leaf : copy.leaves) {
      assertNull(leaf.embedding, "a copied leaf reads its row of the tree: no array of its own yet");
    }
    assertArrayEquals(d.canonicalSum(d.byId.get("n0")), copy.canonicalSum(copy.byId.get("n0")),
        "the sum read from the rows is the one of the leaves' own arrays, bit for bit");
    assertSame(tree.leafEmbeddings(), copy.leafRows(), "the tree's leaf rows, not a copy");
    assertRows(copy, copy.leafRows());
    DraftNode first = copy.leaves.get(0);
    assertSame(first.embedding(), first.sum(), "once asked for, a leaf's array is its embedding and its sum");
    assertSame(first.embedding(), first.embedding(), "made once");
  }

  /** Puts the draft's leaves under one summary, n0, and freezes it. */
  private static dev.setree.internal.core.Tree underOneRoot(DraftTree d, Random r) {
    DraftNode root = d.addInternal("n0", 1);
    for (DraftNode leaf : d.leaves) {
      DraftTree.attach(leaf, root);
    }
    root.text = "summary";
    root.embedding = vector(r);
    root.sum = d.canonicalSum(root);
    return d.toTree();
  }

  private static void assertRows(DraftTree d, float[] rows) {
    assertTrue(rows.length >= d.leaves.size() * DIM, rows.length + " floats for " + d.leaves.size() + " leaves");
    for (int i = 0; i < d.leaves.size(); i++) {
      float[] row = java.util.Arrays.copyOfRange(rows, i * DIM, (i + 1) * DIM);
      assertArrayEquals(d.leaves.get(i).embedding(), row, "row " + i);
    }
  }

  /** A draft of {@code n} leaves (l0, l1, ...) with random embeddings. */
  private static DraftTree draftOf(int n, Random r) {
    DraftTree d = new DraftTree(DIM);
    for (int i = 0; i < n; i++) {
      d.addLeaf("l" + i, "t" + i, null, vector(r), 1);
    }
    return d;
  }

  private static float[] vector(Random r) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = r.nextFloat();
    }
    return v;
  }
}

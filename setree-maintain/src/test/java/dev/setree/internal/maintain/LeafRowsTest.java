package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A draft's leaf rows are the leaves' embeddings in order after every change; an array once handed out never
 * changes (the frozen tree and the oracle hold it); an unchanged draft hands out the same array; after additions
 * the new array extends the old one, whose rows it reports as shared; after a removal nothing is reported shared.
 */
class LeafRowsTest {
  private static final int DIM = 4;

  @Test
  void rowsFollowTheLeavesAndHandedOutArraysNeverChange() {
    Random r = new Random(3);
    DraftTree d = draftOf(5, r);
    float[] first = d.leafRows();
    float[] firstCopy = first.clone();
    assertRows(d, first);
    assertSame(first, d.leafRows(), "unchanged leaves: the same array");
    assertEquals(5, d.sharedLeafRows(first));

    d.addLeaf("l5", "t5", null, vector(r), 1);
    d.addLeaf("l6", "t6", null, vector(r), 1);
    float[] second = d.leafRows();
    assertNotSame(first, second);
    assertArrayEquals(firstCopy, first, "an array handed out is never changed");
    assertRows(d, second);
    assertEquals(5, d.sharedLeafRows(first), "extended: the old array's rows are shared");
    assertEquals(7, d.sharedLeafRows(second));
    assertEquals(0, d.sharedLeafRows(new float[7 * DIM]));

    float[] secondCopy = second.clone();
    assertEquals(1, d.removeLeaves(Set.of("l2")));
    float[] third = d.leafRows();
    assertArrayEquals(secondCopy, second, "an array handed out is never changed");
    assertRows(d, third);
    assertEquals(0, d.sharedLeafRows(second), "after a removal the rows are copied anew, nothing shared");
    assertEquals(0, d.removeLeaves(Set.of()));
    assertSame(third, d.leafRows());
  }

  @Test
  void aCopiedDraftStartsFromTheTreesOwnRows() {
    Random r = new Random(4);
    DraftTree d = draftOf(3, r);
    DraftTree.Node root = d.addInternal("n0", 1);
    for (DraftTree.Node leaf : d.leaves) {
      DraftTree.attach(leaf, root);
    }
    root.text = "summary";
    root.embedding = vector(r);
    root.sum = d.canonicalSum(root);
    var tree = d.toTree();
    DraftTree copy = DraftTree.of(tree);
    assertSame(tree.leafEmbeddings(), copy.leafRows(), "the tree's leaf rows, not a copy");
    assertRows(copy, copy.leafRows());
  }

  private static void assertRows(DraftTree d, float[] rows) {
    assertEquals(d.leaves.size() * DIM, rows.length);
    for (int i = 0; i < d.leaves.size(); i++) {
      float[] row = java.util.Arrays.copyOfRange(rows, i * DIM, (i + 1) * DIM);
      assertArrayEquals(d.leaves.get(i).embedding, row, "row " + i);
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

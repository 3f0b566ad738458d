package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.Tree;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A freeze keeps summariser kinds, levels, faithfulness and losses per internal node when every leaf is plain, and per
 * node when one is not (a leaf loaded with another faithfulness): in both, every node reads as the draft says, through
 * several freezes of drafts continued from the last tree.
 */
class PlainLeafColumnsTest {
  private static final int DIM = 4;

  @Test
  void plainLeavesAreOmittedAndOtherLeavesKept() {
    for (boolean plain : new boolean[] {true, false}) {
      Random r = new Random(plain ? 3 : 4);
      DraftTree d = new DraftTree(DIM);
      for (int i = 0; i < 6; i++) {
        d.addLeaf("l" + i, "t" + i, null, vector(r), 1);
      }
      if (!plain) {
        d.leaves.get(2).faithfulness = 50; // as a file of another writer may hold
      }
      DraftNode root = d.addInternal("n0", 1);
      for (DraftNode leaf : d.leaves) {
        DraftTree.attach(leaf, root);
      }
      root.text = "summary";
      root.kind = "extractive";
      root.faithfulness = 87;
      root.embedding = vector(r);
      root.sum = d.canonicalSum(root);
      Tree tree = d.toTree();
      for (int run = 0; run < 3; run++) {
        String ctx = (plain ? "plain" : "a leaf of faithfulness 50") + ", run " + run;
        assertEquals(plain, tree.leafColumnsOmitted(), ctx + ": columns per internal node");
        assertEquals(plain, tree.leavesPlain(), ctx);
        for (int v = 0; v < tree.leafCount(); v++) {
          assertNull(tree.summarizerKind(v), ctx);
          assertEquals(0, tree.level(v), ctx);
          assertEquals(0f, tree.loss(v), ctx);
          assertEquals(!plain && tree.id(v).equals("l2") ? 50 : 100, tree.faithfulness(v), ctx + ": leaf " + v);
        }
        int n0 = tree.indexOf("n0");
        assertEquals("extractive", tree.summarizerKind(n0), ctx);
        assertEquals(1, tree.level(n0), ctx);
        assertEquals(87, tree.faithfulness(n0), ctx);
        float c = dev.setree.internal.core.Vectors.dot(tree.embedding(n0), 0, tree.centroid(n0), 0, DIM);
        assertEquals((float) Math.sqrt(Math.max(0f, 2f - 2f * c)), tree.loss(n0), 1e-6f, ctx + ": the root's loss");
        // The next run: a copy of the tree gains a leaf (a continued draft and a copied one freeze the same way).
        DraftTree next = DraftTree.of(tree);
        DraftNode added = next.addLeaf("l" + (6 + run), "t", null, vector(r), 1);
        DraftTree.attach(added, next.byId.get("n0"));
        next.byId.get("n0").sum = next.canonicalSum(next.byId.get("n0"));
        tree = next.toTree();
      }
      assertFalse(tree.leafCount() < 9, "three leaves added");
      assertTrue(tree.leafColumnsOmitted() == plain, "after the runs");
    }
  }

  private static float[] vector(Random r) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = r.nextFloat();
    }
    return v;
  }
}

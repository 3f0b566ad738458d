package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Tests of the {@link Tree} constructor's structural checks. */
class TreeValidationTest {
  private static final int DIM = RandomTrees.DIM;

  /**
   * Arrays of a valid tree: leaves 0..2, node 3 = {0, 1}, root 4 = {3, 2}. Tests break one thing and build.
   */
  private static final class Arrays5 {
    int leafCount = 3;
    String[] ids = {"a", "b", "c", "n3", "root"};
    String[] texts = {"alpha", "beta", "gamma", "summary", "root summary"};
    int[] tokens = {1, 1, 1, 1, 2};
    int[] level = {0, 0, 0, 1, 2};
    int[] parent = {3, 3, 4, 4, -1};
    float[] embeddings;
    float[] centroids;
    int[] faithfulness = {100, 100, 100, 80, Tree.UNKNOWN_FAITHFULNESS};
    int[][] sources = null;

    Arrays5() {
      Random rnd = new Random(42);
      embeddings = new float[ids.length * DIM];
      for (int v = 0; v < ids.length; v++) {
        System.arraycopy(RandomTrees.unit(rnd), 0, embeddings, v * DIM, DIM);
      }
      centroids = new float[(ids.length - leafCount) * DIM];
      for (int v = 0; v < ids.length - leafCount; v++) {
        System.arraycopy(RandomTrees.unit(rnd), 0, centroids, v * DIM, DIM);
      }
    }

    Tree build() {
      return new Tree(DIM, leafCount, ids, texts, null, null, tokens, level, parent, embeddings, centroids,
          faithfulness, sources);
    }
  }

  private static void assertRejected(Arrays5 a, String... messageParts) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, a::build);
    for (String part : messageParts) {
      assertTrue(e.getMessage().contains(part), "message '" + e.getMessage() + "' should name '" + part + "'");
    }
  }

  /** The unbroken fixture builds, with children in tree order (by first leaf). */
  @Test
  void validTreeBuilds() {
    Tree tree = new Arrays5().build();
    assertEquals(4, tree.root());
    assertEquals(2, tree.childCount(4));
    assertEquals(3, tree.child(4, 0));
    assertEquals(2, tree.child(4, 1));
    assertEquals(2, tree.depth());
  }

  /**
   * Every id finds its node and any other id finds none, with ids whose hash codes collide ("Aa" and "BB",
   * "AaAa" and "BBBB" ...) and on trees of many sizes (the id table grows by powers of two).
   */
  @Test
  void indexOfFindsEveryIdAndNoOther() {
    assertEquals(-1, new Arrays5().build().indexOf("d"));
    assertEquals(-1, new Arrays5().build().indexOf(null));
    for (int leaves : new int[] {2, 3, 7, 64, 65, 1000}) {
      Arrays5 a = new Arrays5();
      int n = leaves + 1;
      a.leafCount = leaves;
      a.ids = new String[n];
      a.texts = new String[n];
      a.tokens = new int[n];
      a.level = new int[n];
      a.parent = new int[n];
      a.faithfulness = new int[n];
      String[] colliding = {"Aa", "BB", "AaAa", "BBBB", "AaBB", "BBAa"};
      for (int v = 0; v < leaves; v++) {
        a.ids[v] = v < colliding.length ? colliding[v] : "leaf" + v;
        a.texts[v] = "text " + v;
        a.tokens[v] = 1;
        a.parent[v] = leaves;
        a.faithfulness[v] = 100;
      }
      a.ids[leaves] = "root";
      a.texts[leaves] = "root summary";
      a.level[leaves] = 1;
      a.parent[leaves] = -1;
      a.embeddings = new float[n * DIM];
      a.centroids = new float[DIM];
      Tree t = a.build();
      for (int v = 0; v < n; v++) {
        assertEquals(v, t.indexOf(a.ids[v]), a.ids[v]);
        for (int hint : new int[] {-1, 0, v, v + 1, n, n + 5}) {
          assertEquals(v, t.indexOf(a.ids[v], hint), a.ids[v] + " hint " + hint);
        }
      }
      assertEquals(-1, t.indexOf("absent", 0));
      for (String absent : new String[] {"", "Ab", "BBBBBB", "leaf" + leaves, "Root", "AaAaAa"}) {
        assertEquals(-1, t.indexOf(absent), absent);
      }
    }
  }

  /**
   * A tree given the tree before it, whose leaves are its first leaves, finds every id as a tree indexed from
   * scratch does; a new leaf or an internal node that repeats an old leaf's id is refused all the same.
   */
  @Test
  void aTreeExtendingTheLeafIndexBeforeItFindsEveryId() {
    Tree before = RandomTrees.tree(new Random(5), 40);
    int n0 = before.leafCount();
    for (String repeated : new String[] {null, before.id(7)}) {
      int leaves = n0 + 3;
      String[] ids = new String[leaves + 1];
      for (int v = 0; v < n0; v++) {
        ids[v] = before.id(v);
      }
      ids[n0] = "new0";
      ids[n0 + 1] = repeated == null ? "new1" : repeated;
      ids[n0 + 2] = "new2";
      ids[leaves] = "root";
      String[] texts = new String[leaves + 1];
      java.util.Arrays.fill(texts, "t");
      int[] parent = new int[leaves + 1];
      java.util.Arrays.fill(parent, leaves);
      parent[leaves] = -1;
      int[] level = new int[leaves + 1];
      level[leaves] = 1;
      int[] faith = new int[leaves + 1];
      java.util.function.Function<Tree, Tree> build = prior -> new Tree(DIM, leaves, ids, texts, null, null,
          new int[leaves + 1], level, parent, new float[leaves * DIM],
          InternalRows.dense(new float[DIM], new float[DIM], 1, DIM), faith, null, null, prior, null);
      if (repeated != null) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> build.apply(before));
        assertEquals("duplicate node id " + repeated, e.getMessage());
        continue;
      }
      Tree extended = build.apply(before);
      Tree fresh = build.apply(null);
      for (int v = 0; v <= leaves; v++) {
        assertEquals(v, extended.indexOf(ids[v]), ids[v]);
        assertEquals(fresh.indexOf(ids[v]), extended.indexOf(ids[v]), ids[v]);
      }
      for (int v = n0; v < before.size(); v++) {
        assertEquals(-1, extended.indexOf(before.id(v)), "the internal node " + before.id(v) + " of the tree before");
      }
      ids[leaves] = before.id(3); // the root repeats an old leaf's id
      assertThrows(IllegalArgumentException.class, () -> build.apply(before));
    }
  }

  /** A single leaf may be the root alone, or the only child of a root summary. */
  @Test
  void singleLeafShapesAreAllowed() {
    float[] e = RandomTrees.unit(new Random(1));
    Tree alone = new Tree(DIM, 1, new String[] {"a"}, new String[] {"alpha"}, null, null, new int[] {1},
        new int[] {0}, new int[] {-1}, e, new float[0], new int[] {100}, null);
    assertTrue(alone.isLeaf(alone.root()));
    float[] e2 = new float[2 * DIM];
    System.arraycopy(e, 0, e2, 0, DIM);
    System.arraycopy(e, 0, e2, DIM, DIM);
    Tree wrapped = new Tree(DIM, 1, new String[] {"a", "r"}, new String[] {"alpha", "sum"}, null, null,
        new int[] {1, 1}, new int[] {0, 1}, new int[] {1, -1}, e2, e.clone(), new int[] {100, 100}, null);
    assertEquals(1, wrapped.childCount(wrapped.root()));
  }

  /** Duplicate node ids are rejected, naming the duplicate. */
  @Test
  void duplicateIdIsRejected() {
    Arrays5 a = new Arrays5();
    a.ids[3] = "b";
    assertRejected(a, "duplicate", "b");
  }

  /** A non-root node with parent -1 is rejected as an invalid parent index. */
  @Test
  void missingParentIsRejected() {
    Arrays5 a = new Arrays5();
    a.parent[2] = -1;
    assertRejected(a, "invalid parent", "c");
  }

  /** A parent index that is not larger than the node is rejected. */
  @Test
  void parentNotAfterNodeIsRejected() {
    Arrays5 a = new Arrays5();
    a.parent[3] = 3;
    assertRejected(a, "invalid parent", "n3");
  }

  /** A parent index past the last node is rejected. */
  @Test
  void parentOutOfRangeIsRejected() {
    Arrays5 a = new Arrays5();
    a.parent[2] = 5;
    assertRejected(a, "invalid parent", "5");
  }

  /** A leaf as parent is rejected. */
  @Test
  void leafParentIsRejected() {
    Arrays5 a = new Arrays5();
    a.leafCount = 2; // node 2 is now internal and childless, but leaf 0's parent check comes first
    a.centroids = new float[3 * DIM];
    a.parent[0] = 1;
    assertRejected(a, "invalid parent", "a");
  }

  /** A root (last node) with a parent is rejected. */
  @Test
  void rootWithParentIsRejected() {
    Arrays5 a = new Arrays5();
    a.parent[4] = 3;
    assertRejected(a, "invalid parent", "root");
  }

  /** An internal node without children is rejected, naming it. */
  @Test
  void internalNodeWithoutChildrenIsRejected() {
    Arrays5 a = new Arrays5();
    a.parent[0] = 4; // node 3 keeps only leaf 1
    a.parent[1] = 4; // node 3 now has no children
    assertRejected(a, "n3", "no children");
  }

  /** Arrays of the wrong length are rejected, naming the array. */
  @Test
  void wrongLengthsAreRejected() {
    Arrays5 a = new Arrays5();
    a.tokens = new int[4];
    assertRejected(a, "tokens");
    Arrays5 b = new Arrays5();
    b.centroids = new float[DIM];
    assertRejected(b, "internalCentroids");
  }

  /** A summary source that is not a leaf is rejected. */
  @Test
  void nonLeafSourceIsRejected() {
    Arrays5 a = new Arrays5();
    a.sources = new int[][] {null, null, null, {3}, null};
    assertRejected(a, "source", "not a leaf");
  }

  /** More than one node, all leaves, is rejected as a bad leaf count. */
  @Test
  void allLeavesIsRejected() {
    Arrays5 a = new Arrays5();
    a.leafCount = 5;
    a.centroids = new float[0];
    assertRejected(a, "leaf count");
  }
}

package dev.setree.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import java.util.List;

/**
 * Assertions that two trees, or two hierarchy oracles, are the same through every accessor, floats
 * compared bit for bit: for tests of stores and maintenance that must reproduce a tree exactly.
 */
public final class TreeAssert {
  private TreeAssert() {}

  public static void assertSameTree(Tree expected, Tree actual) {
    assertEquals(expected.size(), actual.size(), "size");
    assertEquals(expected.leafCount(), actual.leafCount(), "leafCount");
    assertEquals(expected.dimension(), actual.dimension(), "dimension");
    assertEquals(expected.root(), actual.root(), "root");
    assertEquals(expected.depth(), actual.depth(), "depth");
    assertEquals(expected.isEmpty(), actual.isEmpty(), "isEmpty");
    int leafFloats = expected.leafCount() * expected.dimension(); // spare rows may follow (LeafRows)
    assertArrayEquals(bits(expected.leafEmbeddings(), leafFloats), bits(actual.leafEmbeddings(), leafFloats),
        "leaf embeddings");
    // Each internal node's row, wherever it is (a frozen tree shares its rows with the trees before it)
    assertArrayEquals(bits(expected.internalRows().denseEmbeddings()), bits(actual.internalRows().denseEmbeddings()),
        "internal embeddings");
    assertArrayEquals(bits(expected.internalRows().denseCentroids()), bits(actual.internalRows().denseCentroids()),
        "centroids");
    for (int v = 0; v < expected.size(); v++) {
      String at = "node " + v;
      assertEquals(expected.id(v), actual.id(v), at + " id");
      assertEquals(v, actual.indexOf(expected.id(v)), at + " indexOf");
      assertEquals(expected.isLeaf(v), actual.isLeaf(v), at + " isLeaf");
      assertEquals(expected.text(v), actual.text(v), at + " text");
      assertEquals(expected.time(v), actual.time(v), at + " time");
      assertEquals(expected.summarizerKind(v), actual.summarizerKind(v), at + " summarizerKind");
      assertEquals(expected.tokens(v), actual.tokens(v), at + " tokens");
      assertEquals(expected.level(v), actual.level(v), at + " level");
      assertEquals(expected.parent(v), actual.parent(v), at + " parent");
      assertEquals(expected.childCount(v), actual.childCount(v), at + " childCount");
      for (int i = 0; i < expected.childCount(v); i++) {
        assertEquals(expected.child(v, i), actual.child(v, i), at + " child " + i);
      }
      assertEquals(expected.subtreeDepth(v), actual.subtreeDepth(v), at + " subtreeDepth");
      assertEquals(expected.leavesUnder(v), actual.leavesUnder(v), at + " leavesUnder");
      assertEquals(expected.leavesOf(v), actual.leavesOf(v), at + " leavesOf");
      assertArrayEquals(bits(expected.embedding(v)), bits(actual.embedding(v)), at + " embedding");
      assertArrayEquals(bits(expected.centroid(v)), bits(actual.centroid(v)), at + " centroid");
      assertArrayEquals(bits(expected.fidelity(v)), bits(actual.fidelity(v)), at + " fidelity");
      assertEquals(Float.floatToRawIntBits(expected.loss(v)), Float.floatToRawIntBits(actual.loss(v)), at + " loss");
      assertEquals(expected.faithfulness(v), actual.faithfulness(v), at + " faithfulness");
      assertEquals(expected.sourceCount(v), actual.sourceCount(v), at + " sourceCount");
      for (int i = 0; i < expected.sourceCount(v); i++) {
        assertEquals(expected.source(v, i), actual.source(v, i), at + " source " + i);
      }
    }
  }

  public static void assertSameHierarchy(HierarchyState expected, HierarchyState actual) {
    assertEquals(expected.levels().size(), actual.levels().size(), "levels");
    for (int i = 0; i < expected.levels().size(); i++) {
      HierarchyState.Level e = expected.levels().get(i);
      HierarchyState.Level a = actual.levels().get(i);
      String at = "level " + i;
      assertArrayEquals(e.memberIds(), a.memberIds(), at + " memberIds");
      if (e.centroids() != null && a.centroids() != null) {
        int floats = e.size() == 0 ? 0 : e.size() * dimension(expected, actual);
        assertTrue(e.centroids().length >= floats && a.centroids().length >= floats, at + " centroids: "
            + e.centroids().length + " and " + a.centroids().length + " floats for " + floats);
        assertArrayEquals(bits(e.centroids(), floats), bits(a.centroids(), floats), at + " centroids");
      } else {
        assertEquals(e.centroids() == null, a.centroids() == null, at + " centroids present");
      }
      assertArrayEquals(e.parentIds(), a.parentIds(), at + " parentIds");
      assertArrayEquals(e.assignment(), a.assignment(), at + " assignment");
      assertArrayEquals(e.knnOffsets(), a.knnOffsets(), at + " knnOffsets");
      assertArrayEquals(e.knnNeighbors(), a.knnNeighbors(), at + " knnNeighbors");
      assertArrayEquals(bits(e.knnWeights()), bits(a.knnWeights()), at + " knnWeights");
      assertEquals(Double.doubleToRawLongBits(e.resolution()), Double.doubleToRawLongBits(a.resolution()),
          at + " resolution");
      if (e.centroids() == null) {
        assertNull(a.centroids(), at + " centroids");
      }
    }
  }

  /**
   * The centroids' dimension: from a level above 0 (whose arrays hold exactly their members' rows), else from
   * level 0's shorter array (level 0's may have spare rows: the tree's leaf rows).
   */
  private static int dimension(HierarchyState expected, HierarchyState actual) {
    for (HierarchyState h : List.of(expected, actual)) {
      for (int i = 1; i < h.levels().size(); i++) {
        HierarchyState.Level l = h.levels().get(i);
        if (l.centroids() != null && l.size() > 0) {
          return l.centroids().length / l.size();
        }
      }
    }
    HierarchyState.Level e = expected.levels().get(0);
    HierarchyState.Level a = actual.levels().get(0);
    int shorter = Math.min(e.centroids().length, a.centroids().length);
    assertTrue(shorter % e.size() == 0,
        "level 0 alone does not tell the dimension: " + shorter + " floats for " + e.size() + " members");
    return shorter / e.size();
  }

  /**
   * Raw bits of the first {@code length} floats of {@code a} (all of them when it is shorter, so that a short
   * array fails the comparison), or null for null.
   */
  public static int[] bits(float[] a, int length) {
    return a == null ? null : bits(java.util.Arrays.copyOf(a, Math.min(length, a.length)));
  }

  /** Raw bits of each float, or null for null. */
  public static int[] bits(float[] a) {
    if (a == null) {
      return null;
    }
    int[] out = new int[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = Float.floatToRawIntBits(a[i]);
    }
    return out;
  }
}

package dev.setree.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;

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
    assertArrayEquals(bits(expected.leafEmbeddings()), bits(actual.leafEmbeddings()), "leaf embeddings");
    assertArrayEquals(bits(expected.internalEmbeddings()), bits(actual.internalEmbeddings()), "internal embeddings");
    assertArrayEquals(bits(expected.internalCentroids()), bits(actual.internalCentroids()), "centroids");
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
      assertArrayEquals(bits(e.centroids()), bits(a.centroids()), at + " centroids");
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

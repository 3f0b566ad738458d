package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.InternalRows;
import dev.setree.internal.core.Vectors;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The rows a draft's frozen trees share (ADR 0036): written once, kept while their node's vectors are. */
class InternalRowStoreTest {
  static final int DIM = 8;
  final Random random = new Random(7);

  private float[] vector() {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) random.nextGaussian();
    }
    return v;
  }

  private List<DraftNode> nodes(int count) {
    List<DraftNode> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      DraftNode n = new DraftNode("n" + i, false);
      n.embedding = Vectors.normalize(vector());
      n.sum = vector();
      out.add(n);
    }
    return out;
  }

  /** Every node's row holds its summary embedding and its normalised sum. */
  private static void assertRowsOf(List<DraftNode> nodes, InternalRows rows) {
    assertEquals(nodes.size(), rows.count());
    for (int i = 0; i < nodes.size(); i++) {
      DraftNode n = nodes.get(i);
      int at = rows.offset(i);
      assertArrayEquals(n.embedding, java.util.Arrays.copyOfRange(rows.embeddings(), at, at + DIM), "embedding " + i);
      assertArrayEquals(Vectors.normalize(n.sum.clone()), java.util.Arrays.copyOfRange(rows.centroids(), at, at + DIM),
          "centroid " + i);
    }
  }

  /** Rows written ahead (on open) are the first freeze's: it writes only the rows of the nodes changed since. */
  @Test
  void rowsWrittenAheadAreKeptByTheFirstFreeze() {
    InternalRowStore store = new InternalRowStore(DIM);
    List<DraftNode> nodes = nodes(6);
    store.writeAhead(nodes);
    assertEquals(6, store.end());
    nodes.get(4).sum = vector(); // the run moved a leaf under n4
    InternalRows first = store.freeze(nodes);
    assertRowsOf(nodes, first);
    assertEquals(7, store.end(), "one row written: n4's");
    InternalRows unprepared = new InternalRowStore(DIM).freeze(nodes);
    assertArrayEquals(unprepared.denseEmbeddings(), first.denseEmbeddings());
    assertArrayEquals(unprepared.denseCentroids(), first.denseCentroids());
  }

  @Test
  void keepsTheRowsOfNodesWhoseVectorsStayAndAppendsTheOthers() {
    InternalRowStore store = new InternalRowStore(DIM);
    List<DraftNode> nodes = nodes(5);
    InternalRows first = store.freeze(nodes);
    assertRowsOf(nodes, first);
    float[] firstEmbeddings = first.denseEmbeddings();
    float[] firstCentroids = first.denseCentroids();
    assertEquals(5, store.end());

    nodes.get(1).embedding = Vectors.normalize(vector()); // a summary written again
    nodes.get(3).sum = vector(); // a leaf moved under it
    DraftNode made = nodes(1).get(0);
    nodes.add(2, made);
    nodes.remove(nodes.get(5)); // n4 dissolved
    InternalRows second = store.freeze(nodes);
    assertRowsOf(nodes, second);
    assertEquals(8, store.end(), "three rows written: two replaced vectors and one new node");
    assertTrue(second.sameRow(0, first, 0), "n0 kept its row");
    assertTrue(second.sameRow(3, first, 2), "n2 kept its row at its new place");
    assertFalse(second.sameRow(1, first, 1), "n1's summary was written again");
    assertFalse(second.sameRow(4, first, 3), "n3's centroid changed");
    assertArrayEquals(firstEmbeddings, first.denseEmbeddings(), "the first tree's rows did not change");
    assertArrayEquals(firstCentroids, first.denseCentroids(), "the first tree's centroids did not change");

    InternalRows third = store.freeze(nodes);
    assertEquals(8, store.end(), "nothing replaced, nothing written");
    for (int i = 0; i < nodes.size(); i++) {
      assertTrue(third.sameRow(i, second, i));
    }
  }

  @Test
  void writesEveryRowIntoNewArraysWhenTheRoomRunsOut() {
    InternalRowStore store = new InternalRowStore(DIM);
    List<DraftNode> nodes = nodes(10);
    InternalRows first = store.freeze(nodes);
    int capacity = store.capacity();
    assertEquals(10 + InternalRowStore.MIN_SPARE_ROWS, capacity);
    List<InternalRows> trees = new ArrayList<>(List.of(first));
    List<float[]> seen = new ArrayList<>(List.of(first.denseEmbeddings()));
    boolean grown = false;
    for (int run = 0; run < 2 * capacity && !grown; run++) {
      nodes.get(run % nodes.size()).embedding = Vectors.normalize(vector());
      InternalRows rows = store.freeze(nodes);
      assertRowsOf(nodes, rows);
      grown = rows.embeddings() != first.embeddings();
      if (grown) {
        assertEquals(nodes.size(), store.end(), "every node written again, once");
      } else {
        assertEquals(nodes.size() + run + 1, store.end());
      }
      trees.add(rows);
      seen.add(rows.denseEmbeddings());
    }
    assertTrue(grown, "the arrays ran out of room");
    for (int t = 0; t < trees.size(); t++) {
      assertArrayEquals(seen.get(t), trees.get(t).denseEmbeddings(), "tree " + t + " reads what it read");
    }
  }

  @Test
  void aNodeWrittenByAnotherStoreIsWrittenAgain() {
    List<DraftNode> nodes = nodes(3);
    InternalRows one = new InternalRowStore(DIM).freeze(nodes);
    InternalRowStore other = new InternalRowStore(DIM);
    InternalRows two = other.freeze(nodes);
    assertNotSame(one.embeddings(), two.embeddings());
    assertEquals(3, other.end());
    assertRowsOf(nodes, two);
  }
}

package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Unit and randomized tests of {@link TreeCoverWalk.Heap}: pops by score descending, ties by smaller node. */
class TreeCoverWalkHeapTest {
  private static final long MASTER_SEED = Long.getLong("tests.seed", new Random().nextLong());
  private static final int CASES = Integer.getInteger("tests.cases", 300);

  /** The reference order: score descending, then node ascending. */
  private static final Comparator<long[]> ORDER = (a, b) -> {
    int cmp = Float.compare(Float.intBitsToFloat((int) b[0]), Float.intBitsToFloat((int) a[0]));
    return cmp != 0 ? cmp : Long.compare(a[1], b[1]);
  };

  private static long[] entry(float score, int node) {
    return new long[] {Float.floatToIntBits(score), node};
  }

  /** A new heap is empty; one push makes it non-empty and one pop empties it again. */
  @Test
  void emptyPushPop() {
    TreeCoverWalk.Heap heap = new TreeCoverWalk.Heap(0);
    assertTrue(heap.isEmpty());
    heap.push(0.5f, 7);
    assertFalse(heap.isEmpty());
    assertEquals(7, heap.popNode());
    assertTrue(heap.isEmpty());
  }

  /** Higher scores pop first. */
  @Test
  void popsByScoreDescending() {
    TreeCoverWalk.Heap heap = new TreeCoverWalk.Heap(4);
    heap.push(0.1f, 1);
    heap.push(0.9f, 2);
    heap.push(-3f, 3);
    heap.push(0.5f, 4);
    heap.push(Float.NEGATIVE_INFINITY, 5);
    heap.push(Float.POSITIVE_INFINITY, 6);
    int[] expected = {6, 2, 4, 1, 3, 5};
    for (int node : expected) {
      assertEquals(node, heap.popNode());
    }
    assertTrue(heap.isEmpty());
  }

  /** Equal scores pop the smaller node first, whatever the push order. */
  @Test
  void tiesPopSmallerNodeFirst() {
    TreeCoverWalk.Heap heap = new TreeCoverWalk.Heap(1);
    int[] pushes = {9, 2, 5, 0, 7, 3};
    for (int node : pushes) {
      heap.push(1f, node);
    }
    heap.push(2f, 8);
    int[] expected = {8, 0, 2, 3, 5, 7, 9};
    for (int node : expected) {
      assertEquals(node, heap.popNode());
    }
  }

  /** Random interleaved pushes and pops (with many ties and growth past capacity) match a reference queue. */
  @Test
  void randomOperationsMatchReference() {
    Random master = new Random(MASTER_SEED);
    for (int c = 0; c < CASES; c++) {
      long seed = master.nextLong();
      Random rnd = new Random(seed);
      TreeCoverWalk.Heap heap = new TreeCoverWalk.Heap(rnd.nextInt(8));
      PriorityQueue<long[]> ref = new PriorityQueue<>(ORDER);
      int ops = rnd.nextInt(3000);
      int distinct = 1 + rnd.nextInt(20); // few distinct scores: many ties
      for (int op = 0; op < ops; op++) {
        if (ref.isEmpty() || rnd.nextInt(3) != 0) {
          float score = rnd.nextBoolean() ? rnd.nextInt(distinct) * 0.25f - 1f : rnd.nextFloat() * 2 - 1;
          int node = rnd.nextInt(1000);
          heap.push(score, node);
          ref.add(entry(score, node));
        } else {
          assertEquals(ref.poll()[1], heap.popNode(), "seed=" + seed + " op=" + op);
        }
        assertEquals(ref.isEmpty(), heap.isEmpty(), "seed=" + seed + " op=" + op);
      }
      while (!ref.isEmpty()) {
        assertEquals(ref.poll()[1], heap.popNode(), "seed=" + seed + " drain");
      }
      assertTrue(heap.isEmpty(), "seed=" + seed);
    }
  }
}

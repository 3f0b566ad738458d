package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The freeze's order of the internal nodes ({@link DraftFreeze#byLevel}) is {@link DraftNode#BY_LEVEL}'s sort, node
 * for node: for lists already in that order, for a kept draft's (in order, with new nodes of any level after it),
 * and for lists in no order at all, with ties of creation order kept as the stable sort keeps them.
 */
class DraftFreezeTest {
  @Test
  void internalNodesComeInTheOrderOfTheSortByLevel() {
    Random r = new Random(5);
    for (int round = 0; round < 300; round++) {
      int n = r.nextInt(60);
      int levels = 1 + r.nextInt(6);
      List<DraftNode> nodes = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        DraftNode v = new DraftNode("n" + i, false);
        v.level = 1 + r.nextInt(levels);
        v.order = r.nextInt(3) == 0 ? r.nextInt(5) : r.nextInt(1_000); // some ties
        nodes.add(v);
      }
      switch (round % 3) {
        case 0 -> nodes.sort(DraftNode.BY_LEVEL); // a frozen draft's order
        case 1 -> { // a kept draft's: the frozen order, then the run's new nodes, created later
          nodes.sort(DraftNode.BY_LEVEL);
          for (int i = 0; i < 1 + r.nextInt(4); i++) {
            DraftNode v = new DraftNode("new" + i, false);
            v.level = 1 + r.nextInt(levels);
            v.order = 1_000 + i;
            nodes.add(v);
          }
        }
        default -> { } // no order
      }
      List<DraftNode> expected = new ArrayList<>(nodes);
      expected.sort(DraftNode.BY_LEVEL);
      List<DraftNode> got = DraftFreeze.byLevel(nodes);
      assertEquals(expected.size(), got.size());
      for (int i = 0; i < expected.size(); i++) {
        assertSame(expected.get(i), got.get(i), "round " + round + ", place " + i);
      }
    }
  }
}

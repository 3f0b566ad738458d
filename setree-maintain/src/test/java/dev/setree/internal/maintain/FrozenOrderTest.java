package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The freeze's order is the leaves, then the internal nodes, read through both lists without a copy. */
class FrozenOrderTest {
  @Test
  void leavesThenInternalNodes() {
    List<DraftNode> leaves = new ArrayList<>();
    List<DraftNode> internal = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      leaves.add(new DraftNode("l" + i, true));
    }
    for (int i = 0; i < 2; i++) {
      internal.add(new DraftNode("n" + i, false));
    }
    FrozenOrder order = new FrozenOrder(leaves, internal);
    assertEquals(5, order.size());
    for (int i = 0; i < 5; i++) {
      assertSame(i < 3 ? leaves.get(i) : internal.get(i - 3), order.get(i), "node " + i);
    }
    assertEquals(List.of("l0", "l1", "l2", "n0", "n1"), order.stream().map(v -> v.id).toList());
    assertThrows(IllegalArgumentException.class, () -> new FrozenOrder(new LinkedList<>(leaves), internal));
  }
}

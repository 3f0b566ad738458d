package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A tree's id index extended from the tree before it, as a maintenance run that appends leaves makes it. */
class NodeIdsTest {

  /**
   * Leaves appended run after run under the same internal nodes (their table taken over, shifted), then a run that
   * adds an internal node (the table made again): every id is found at its place in each version.
   */
  @Test
  void everyIdIsFoundAtItsPlaceAsLeavesAreAppended() {
    List<String> leaves = new ArrayList<>(List.of("a", "b", "c"));
    List<String> internal = new ArrayList<>(List.of("n1", "n2", "root"));
    NodeIds ids = check(leaves, internal, null);
    for (int run = 0; run < 5; run++) {
      leaves.add("leaf" + run);
      if (run == 3) {
        internal.add(1, "n" + (10 + run));
      }
      ids = check(leaves, internal, ids);
    }
    assertEquals(-1, ids.indexOf("missing"));
    assertEquals(-1, ids.indexOf(null));
  }

  /** A new leaf whose id is an internal node's is refused, also when the internal nodes' table is taken over. */
  @Test
  void aNewLeafWithAnInternalNodesIdIsRefused() {
    String[] before = {"a", "b", "n1", "root"};
    NodeIds leading = NodeIds.of(before, 2, null);
    String[] after = {"a", "b", "n1", "n1", "root"};
    after[3] = before[2]; // the same strings as before, so the internal nodes' table is taken over
    after[4] = before[3];
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NodeIds.of(after, 3, leading));
    assertEquals("duplicate node id n1", e.getMessage());
  }

  /** Builds the index of {@code leaves} then {@code internal}, from {@code leading}, and checks every position. */
  private static NodeIds check(List<String> leaves, List<String> internal, NodeIds leading) {
    String[] ids = new String[leaves.size() + internal.size()];
    for (int v = 0; v < ids.length; v++) {
      ids[v] = v < leaves.size() ? leaves.get(v) : internal.get(v - leaves.size());
    }
    NodeIds index = NodeIds.of(ids, leaves.size(), leading);
    for (int v = 0; v < ids.length; v++) {
      assertEquals(v, index.indexOf(ids[v]), ids[v]);
      assertEquals(v, index.indexOf(new String(ids[v]), 0), ids[v] + " (another string)");
    }
    return index;
  }
}

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
    NodeIds leading = of(before, 2, null);
    String[] after = {"a", "b", "n1", "n1", "root"};
    after[3] = before[2]; // the same strings as before, so the internal nodes' table is taken over
    after[4] = before[3];
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> of(after, 3, leading));
    assertEquals("duplicate node id n1", e.getMessage());
  }

  /**
   * Told which internal nodes were the leading tree's (a freeze's {@link ShapeFrom#previous}), the index finds every
   * id, and still refuses a new leaf under an old internal node's id and a new internal node under a leaf's; an id
   * said to be an old node's but another string is looked for among the leaves.
   */
  @Test
  void internalNodesToldOldAreCheckedOnlyAgainstTheNewLeaves() {
    String[] before = {"a", "b", "n1", "n2", "root"};
    NodeIds leading = of(before, 2, null);
    // Leaf c added; a node m made between n1 and n2 (so the internal nodes' table is made again).
    String[] after = {"a", "b", "c", before[2], "m", before[3], before[4]};
    int[] previous = {2, -1, 3, 4};
    NodeIds index = of(after, 3, leading, previous);
    for (int v = 0; v < after.length; v++) {
      assertEquals(v, index.indexOf(after[v]), after[v]);
    }
    String[] leafLikeOld = {"a", "b", "n2", before[2], "m", before[3], before[4]};
    assertEquals("duplicate node id n2", assertThrows(IllegalArgumentException.class,
        () -> of(leafLikeOld, 3, leading, previous)).getMessage());
    String[] madeLikeLeaf = {"a", "b", "c", before[2], "b", before[3], before[4]};
    assertEquals("duplicate node id b", assertThrows(IllegalArgumentException.class,
        () -> of(madeLikeLeaf, 3, leading, previous)).getMessage());
    // Node 3 said to be the old n1, but its id is leaf a's (another string): looked for among the leaves, refused.
    String[] notTheOld = {"a", "b", "c", new String("a"), "m", before[3], before[4]};
    assertEquals("duplicate node id a", assertThrows(IllegalArgumentException.class,
        () -> of(notTheOld, 3, leading, previous)).getMessage());
  }

  /** Builds the index of {@code leaves} then {@code internal}, from {@code leading}, and checks every position. */
  private static NodeIds check(List<String> leaves, List<String> internal, NodeIds leading) {
    String[] ids = new String[leaves.size() + internal.size()];
    for (int v = 0; v < ids.length; v++) {
      ids[v] = v < leaves.size() ? leaves.get(v) : internal.get(v - leaves.size());
    }
    NodeIds index = of(ids, leaves.size(), leading);
    for (int v = 0; v < ids.length; v++) {
      assertEquals(v, index.indexOf(ids[v]), ids[v]);
      assertEquals(v, index.indexOf(new String(ids[v]), 0), ids[v] + " (another string)");
    }
    return index;
  }

  /** The index of {@code ids}, the first {@code leafCount} leaves, as a tree gives them: leaves and internal apart. */
  private static NodeIds of(String[] ids, int leafCount, NodeIds leading) {
    return of(ids, leafCount, leading, null);
  }

  private static NodeIds of(String[] ids, int leafCount, NodeIds leading, int[] previous) {
    return NodeIds.of(ids, leafCount, java.util.Arrays.copyOfRange(ids, leafCount, ids.length), leading, previous);
  }
}

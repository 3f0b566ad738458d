package dev.setree.internal.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.setree.internal.core.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** A save's groups of nodes (leaves, then each level's internal nodes) as the map of lists that they replace. */
class NodeGroupsTest {

  @Test
  void theCountingSortGivesTheGroupsOfAMapOfLists() {
    for (long seed = 1; seed <= 200; seed++) {
      Tree t = RandomTrees.tree(seed);
      Map<Integer, List<Integer>> expected = new TreeMap<>();
      for (int v = 0; v < t.size(); v++) {
        expected.computeIfAbsent(t.isLeaf(v) ? -1 : t.level(v), k -> new ArrayList<>()).add(v);
      }
      int[] byGroup = new int[t.size()];
      int[] start = NodeRows.groups(t, byGroup);
      List<int[]> actual = new ArrayList<>();
      for (int g = 0; g + 1 < start.length; g++) {
        if (start[g + 1] > start[g]) {
          actual.add(java.util.Arrays.copyOfRange(byGroup, start[g], start[g + 1]));
        }
      }
      List<int[]> want = expected.values().stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray())
          .toList();
      assertArrayEquals(want.toArray(new int[0][]), actual.toArray(new int[0][]), "seed " + seed);
    }
  }
}

package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** {@link TreeOrder} against a pre-order walk of random trees, with nodes given shuffled and some twice. */
class TreeOrderTest {

  @Test
  void sortsIntoThePreOrderOfAWalk() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    for (int round = 0; round < 50; round++) {
      Tree tree = RandomTrees.tree(r, 1 + r.nextInt(300));
      int[] pre = TreeCoverWalkPropertyTest.preorder(tree);
      List<Integer> picked = new ArrayList<>();
      for (int v = 0; v < tree.size(); v++) {
        if (r.nextInt(3) == 0) {
          picked.add(v);
          if (r.nextInt(10) == 0) {
            picked.add(v);
          }
        }
      }
      Collections.shuffle(picked, r);
      int[] nodes = new int[picked.size() + 3]; // room after the nodes sorted, left as it is
      for (int i = 0; i < picked.size(); i++) {
        nodes[i] = picked.get(i);
      }
      nodes[picked.size()] = -7;
      int[] expected = nodes.clone();
      picked.sort((a, b) -> Integer.compare(pre[a], pre[b]));
      for (int i = 0; i < picked.size(); i++) {
        expected[i] = picked.get(i);
      }
      TreeOrder.sort(tree, nodes, picked.size());
      assertArrayEquals(expected, nodes, "seed=" + seed + " round " + round);
    }
  }
}

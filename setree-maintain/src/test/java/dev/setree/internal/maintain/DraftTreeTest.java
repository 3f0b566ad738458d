package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DraftTreeTest {
  /**
   * A node left without children is dropped, and so is every ancestor it leaves childless, even one listed before
   * it; the first ancestor that keeps a child is structurally changed; the other nodes keep their order.
   */
  @Test
  void pruningDropsEmptiedAncestorsListedBeforeTheirChildren() {
    DraftTree d = new DraftTree(2);
    DraftNode a = d.addLeaf("a", "a", null, new float[] {1, 0}, 1);
    DraftNode b = d.addLeaf("b", "b", null, new float[] {0, 1}, 1);
    DraftNode root = d.addInternal("root", 3);
    DraftNode upper = d.addInternal("upper", 2); // listed before its only child, which will lose its leaf
    DraftNode kept = d.addInternal("kept", 1);
    DraftNode lower = d.addInternal("lower", 1);
    DraftTree.attach(upper, root);
    DraftTree.attach(kept, root);
    DraftTree.attach(lower, upper);
    DraftTree.attach(a, kept);
    DraftTree.attach(b, lower);
    lower.children.remove(b); // as a run's regrouping leaves it
    b.parent = null;
    root.structural = false;
    kept.structural = false;

    d.pruneEmpty();

    assertEquals(List.of(root, kept), d.internal);
    assertNull(d.byId.get("upper"));
    assertNull(d.byId.get("lower"));
    assertSame(kept, d.byId.get("kept"));
    assertEquals(List.of(kept), root.children);
    assertTrue(root.structural, "the root lost a child");
    assertFalse(kept.structural, "nothing under it changed");
    assertSame(root, d.root());
  }

  /**
   * Many nodes emptied in one run, more than the pass compares by reference ({@link EmptyNodes}), are dropped the same
   * way: twenty of thirty nodes lose their one leaf, and the other ten keep their order.
   */
  @Test
  void pruningDropsManyEmptiedNodesAndKeepsTheOthersInOrder() {
    DraftTree d = new DraftTree(2);
    DraftNode root = d.addInternal("root", 2);
    List<DraftNode> expected = new ArrayList<>(List.of(root));
    for (int i = 0; i < 30; i++) {
      DraftNode n = d.addInternal("n" + i, 1);
      DraftNode leaf = d.addLeaf("leaf" + i, "leaf " + i, null, new float[] {1, 0}, 1);
      DraftTree.attach(n, root);
      DraftTree.attach(leaf, n);
      if (i % 3 == 0) {
        expected.add(n);
      } else { // as a run's regrouping leaves it
        n.children.remove(leaf);
        leaf.parent = null;
      }
    }

    d.pruneEmpty();

    assertEquals(expected, d.internal);
    assertEquals(expected.subList(1, expected.size()), root.children);
    for (int i = 0; i < 30; i++) {
      assertEquals(i % 3 == 0, d.byId.containsKey("n" + i), "n" + i);
    }
  }

  /** The root is found from any draft with internal nodes; an empty draft or one of leaves alone has none. */
  @Test
  void rootIsTheAncestorOfEveryInternalNode() {
    DraftTree d = new DraftTree(2);
    assertNull(d.root());
    DraftNode a = d.addLeaf("a", "a", null, new float[] {1, 0}, 1);
    assertNull(d.root());
    DraftNode top = d.addInternal("top", 2);
    DraftNode mid = d.addInternal("mid", 1); // listed last, found from there by walking up
    DraftTree.attach(mid, top);
    DraftTree.attach(a, mid);
    assertSame(top, d.root());
  }
}

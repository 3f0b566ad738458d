package dev.setree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import dev.setree.internal.core.Tree;
import dev.setree.testing.Corpora;
import dev.setree.testing.TempKnowledgeBase;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link SETree#tree()} is read-only: what a caller does to it never reaches the snapshot retrieves read. */
@ExtendWith(TempKnowledgeBase.class)
class TreeViewTest {

  @Test
  void vectorsAreCopiesAndTheViewMatchesTheSnapshot(@TempKnowledgeBase.File Path kb) {
    try (SETree t = SETree.open(kb, SETreeTest.config(null))) {
      t.build(Corpora.synthetic(60, 3), BuildProgress.NONE);
      Context before = t.retrieve("Anna plays piano every weekend", 120);
      TreeView view = t.tree();
      Tree tree = t.currentSnapshot().tree();
      assertEquals(tree.size(), view.size());
      assertEquals(tree.root(), view.root());
      for (int v = 0; v < view.size(); v++) {
        assertEquals(tree.id(v), view.id(v));
        assertEquals(tree.childCount(v), view.childCount(v));
        float[] e = view.embedding(v);
        assertArrayEquals(tree.embedding(v), e);
        java.util.Arrays.fill(e, 1f); // a caller scribbles on what it was given
      }
      assertArrayEquals(tree.embedding(0), t.tree().embedding(0));
      assertNotSame(view.embedding(0), view.embedding(0));
      assertEquals(before.text(), t.retrieve("Anna plays piano every weekend", 120).text());
      Map<String, Integer> kinds = view.summarizerKinds();
      assertEquals(view.size() - view.leafCount(), kinds.values().stream().mapToInt(Integer::intValue).sum());
      assertEquals(0, kinds.get("llm"));
    }
  }
}

package dev.setree;

import dev.setree.core.Tree;
import java.util.HashMap;
import java.util.Map;

/**
 * An immutable tree with what the facade derives from it once: the BM25 index and the leaf id of each
 * leaf text (for duplicate inserts). Replaced whole.
 */
record Snapshot(Tree tree, LexicalIndex lexical, Map<String, String> idByText) {

  static Snapshot of(Tree tree) {
    Map<String, String> byText = new HashMap<>(tree.leafCount() * 2);
    for (int v = 0; v < tree.leafCount(); v++) {
      byText.putIfAbsent(tree.text(v), tree.id(v));
    }
    return new Snapshot(tree, new LexicalIndex(tree), byText);
  }
}

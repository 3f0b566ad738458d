package dev.setree;

import dev.setree.core.Tree;

/** An immutable tree with what retrieval derives from it once: the BM25 index. Replaced whole. */
record Snapshot(Tree tree, LexicalIndex lexical) {

  static Snapshot of(Tree tree) {
    return new Snapshot(tree, new LexicalIndex(tree));
  }
}

package dev.setree;

import dev.setree.core.HierarchyState;
import dev.setree.core.Tree;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One committed state of the knowledge base as this process serves it: the tree, its oracle and
 * generation, with what the facade derives from the tree: the BM25 index and the leaf id of each leaf text
 * (for duplicate inserts). Immutable; replaced whole.
 */
record Snapshot(Tree tree, HierarchyState hierarchy, long generation, LexicalIndex lexical,
    Map<String, String> idByText) {

  /** A snapshot derived from scratch. */
  static Snapshot of(Tree tree, HierarchyState hierarchy, long generation) {
    Map<String, String> byText = new HashMap<>(tree.leafCount() * 2);
    for (int v = 0; v < tree.leafCount(); v++) {
      byText.putIfAbsent(tree.text(v), tree.id(v));
    }
    return new Snapshot(tree, hierarchy, generation, LexicalIndex.of(tree), byText);
  }

  /** A snapshot of the bare tree (no oracle, generation 0), for tests and tools. */
  static Snapshot of(Tree tree) {
    return of(tree, HierarchyState.empty(), 0);
  }

  /** The snapshot after a maintenance run changed this one's tree: derived state follows the change. */
  Snapshot next(Tree next, HierarchyState nextHierarchy, long nextGeneration) {
    if (next == tree) {
      return new Snapshot(tree, nextHierarchy, nextGeneration, lexical, idByText);
    }
    // The leaf diff, once: leaves gone (or whose text changed) and leaves new (or whose text changed).
    List<Integer> gone = new ArrayList<>();
    for (int v = 0; v < tree.leafCount(); v++) {
      int w = next.indexOf(tree.id(v));
      if (w < 0 || !next.isLeaf(w) || !next.text(w).equals(tree.text(v))) {
        gone.add(v);
      }
    }
    List<Integer> added = new ArrayList<>();
    for (int v = 0; v < next.leafCount(); v++) {
      int o = tree.indexOf(next.id(v));
      if (o < 0 || !tree.isLeaf(o) || !tree.text(o).equals(next.text(v))) {
        added.add(v);
      }
    }
    Map<String, String> byText = new HashMap<>(idByText);
    for (int v : gone) {
      byText.remove(tree.text(v), tree.id(v));
    }
    for (int v = 0; v < next.leafCount(); v++) {
      byText.putIfAbsent(next.text(v), next.id(v)); // a text another leaf still holds gets that leaf's id
    }
    return new Snapshot(next, nextHierarchy, nextGeneration, lexical.next(tree, gone, next, added), byText);
  }
}

package dev.setree;

import dev.setree.internal.core.Tree;
import java.util.AbstractMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The leaf id of each leaf text, for the duplicate check of an insert: an immutable map that a snapshot after a
 * maintenance run shares with the snapshot before it. A run changes a few texts among tens of thousands, so the
 * next map is the same base with a small layer of texts added and removed over it, instead of a copy of every
 * entry per run; the layer is folded into a new base once it holds more than a quarter of the base's texts.
 * Lookups are as fast as a {@code HashMap}'s (two small maps first); iteration and {@link #size} build the
 * whole map once (tests and tools only).
 */
final class TextIds extends AbstractMap<String, String> {
  private final Map<String, String> base;
  /** Texts added over the base (never one the base maps, unless it is also in {@link #removed}). */
  private final Map<String, String> added;
  /** Texts of the base that are gone (an added text of the same value takes precedence). */
  private final Set<String> removed;
  private volatile Map<String, String> whole;

  private TextIds(Map<String, String> base, Map<String, String> added, Set<String> removed) {
    this.base = base;
    this.added = added;
    this.removed = removed;
  }

  /** The map of {@code tree}'s leaves: each text to the first leaf holding it. */
  static TextIds of(Tree tree) {
    Map<String, String> byText = new HashMap<>(tree.leafCount() * 2);
    for (int v = 0; v < tree.leafCount(); v++) {
      byText.putIfAbsent(tree.text(v), tree.id(v));
    }
    return new TextIds(byText, Map.of(), Set.of());
  }

  @Override
  public String get(Object text) {
    String id = added.get(text);
    if (id != null || removed.contains(text)) {
      return id;
    }
    return base.get(text);
  }

  @Override
  public boolean containsKey(Object text) {
    return get(text) != null;
  }

  /**
   * The map after a run turned {@code tree} into {@code next}: the texts of the leaves {@code gone} (indexes in
   * {@code tree}) no longer map to those leaves; the texts of the leaves {@code added} (indexes in {@code next})
   * map to them unless another leaf already holds the text. After a removal every leaf of {@code next} is
   * offered, so that a text another leaf still holds maps to that leaf.
   */
  TextIds next(Tree tree, List<Integer> gone, Tree next, List<Integer> addedLeaves) {
    Layer layer = new Layer();
    for (int v : gone) {
      layer.remove(tree.text(v), tree.id(v));
    }
    if (gone.isEmpty()) {
      for (int v : addedLeaves) {
        layer.putIfAbsent(next.text(v), next.id(v));
      }
    } else {
      for (int v = 0; v < next.leafCount(); v++) {
        layer.putIfAbsent(next.text(v), next.id(v));
      }
    }
    if (4L * (layer.added.size() + layer.removed.size()) > base.size()) {
      return new TextIds(new HashMap<>(layer.view()), Map.of(), Set.of());
    }
    return layer.view();
  }

  /** The added and removed texts of the next map, started from this one's. */
  private final class Layer {
    final Map<String, String> added = new HashMap<>(TextIds.this.added);
    final Set<String> removed = new HashSet<>(TextIds.this.removed);

    String get(String text) {
      String id = added.get(text);
      if (id != null || removed.contains(text)) {
        return id;
      }
      return base.get(text);
    }

    void remove(String text, String id) {
      if (id.equals(get(text))) {
        added.remove(text);
        if (base.containsKey(text)) {
          removed.add(text);
        }
      }
    }

    void putIfAbsent(String text, String id) {
      if (get(text) == null) {
        added.put(text, id);
      }
    }

    TextIds view() {
      return new TextIds(base, added, removed);
    }
  }

  @Override
  public Set<Entry<String, String>> entrySet() {
    Map<String, String> w = whole;
    if (w == null) {
      w = new HashMap<>(base);
      w.keySet().removeAll(removed);
      w.putAll(added);
      w = java.util.Collections.unmodifiableMap(w);
      whole = w;
    }
    return w.entrySet();
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.LeafTexts;
import java.util.List;

/**
 * A draft's leaves' ids, texts, time stamps and token counts in leaf order, shared by the trees it freezes
 * ({@link LeafTexts}, ADR 0050), kept as {@link LeafRows} keeps the leaves' embeddings: when leaves were only added
 * since the last columns, their entries are written into the spare room at the arrays' ends (which no tree reads)
 * and the same columns are handed out again; only when the room runs out, or leaves were removed, are new arrays
 * made, with room for an eighth more leaves. A leaf's own fields are set once, so an entry once handed out stays
 * right for every tree that holds it.
 */
final class LeafTextColumns {
  private LeafTexts columns;
  /** How many leading leaves {@link #columns} holds; all of them unless some were removed since. */
  private int count;
  private boolean removed;

  /** Starts from {@code columns}, whose first {@code count} entries are the leaves' (a frozen tree's own). */
  void adopt(LeafTexts columns, int count) {
    this.columns = columns;
    this.count = count;
    this.removed = false;
  }

  /** Notes that leaves were removed: the next columns are written leaf by leaf. */
  void leavesRemoved() {
    removed = true;
  }

  /** The columns of {@code leaves} (the draft's leaves, in order), and maybe spare room after them. */
  LeafTexts of(List<DraftNode> leaves) {
    int n = leaves.size();
    boolean appended = columns != null && !removed && count <= n;
    if (appended && count == n) {
      return columns;
    }
    int from;
    if (appended && n <= columns.capacity()) {
      from = count; // the new leaves go into the spare room: entries below count stay as every tree saw them
    } else if (appended) {
      columns = columns.copy(count, LeafTexts.capacityFor(n));
      from = count;
    } else {
      columns = LeafTexts.ofCapacity(LeafTexts.capacityFor(n));
      from = 0;
    }
    for (int i = from; i < n; i++) {
      DraftNode leaf = leaves.get(i);
      columns.set(i, leaf.id, leaf.text, leaf.time, leaf.tokens);
    }
    count = n;
    removed = false;
    return columns;
  }
}

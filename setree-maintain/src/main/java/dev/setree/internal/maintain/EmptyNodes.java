package dev.setree.internal.maintain;

import dev.setree.internal.core.Passes;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * {@link DraftTree#pruneEmpty}'s pass: drops a node if it has no child, then its parent if that has none left, and so
 * on up. Looks at the nodes the run touched only ({@link Touched}): a node loses its last child only where it is
 * touched (checked against every node under assertions). A class of its own, not a lambda, so that a writer loads it
 * on open (ADR 0045).
 */
final class EmptyNodes implements Consumer<DraftNode> {
  private final DraftTree draft;
  private final Set<DraftNode> gone = Collections.newSetFromMap(new IdentityHashMap<>());

  private EmptyNodes(DraftTree draft) {
    this.draft = draft;
  }

  /** Drops {@code d}'s internal nodes that lost all children, and their parents once they have none. */
  static void prune(DraftTree d) {
    assert d.touched.all() || d.internal.stream().allMatch(n -> d.touched.has(n) || !n.children.isEmpty())
        : "an internal node without children is not in the run's log";
    EmptyNodes pass = new EmptyNodes(d);
    Passes.each(d.touchedInternal(), pass);
    if (!pass.gone.isEmpty()) {
      d.internal.removeIf(new Gone(pass.gone)); // the others keep their order
    }
  }

  @Override
  public void accept(DraftNode n) {
    for (DraftNode x = n; x != null && x.children.isEmpty() && gone.add(x); x = x.parent) {
      draft.byId.remove(x.id);
      if (x.parent != null) {
        x.parent.children.remove(x);
        x.parent.structural = true;
        x.parent.touch();
      }
    }
  }

  /**
   * Whether an internal node is among the dropped ones. A few dropped nodes are compared with each internal node's
   * reference, taken as an {@code Object} so that no node is read: a lookup in the identity set reads each node's
   * header (its hash), and so would a cast to {@code DraftNode} (its class), for every internal node of the draft, all
   * over the heap. At a million leaves (about 140,000 internal nodes) that look took about 4.7 ms of a run. Many
   * dropped nodes are looked up in the set.
   */
  private static final class Gone implements Predicate<Object> {
    private static final int FEW = 16;
    private final Set<DraftNode> all;
    private final Object[] few;

    Gone(Set<DraftNode> gone) {
      all = gone;
      few = gone.size() <= FEW ? gone.toArray() : null;
    }

    @Override
    public boolean test(Object x) {
      if (few == null) {
        return all.contains(x);
      }
      for (Object g : few) {
        if (g == x) {
          return true;
        }
      }
      return false;
    }
  }
}

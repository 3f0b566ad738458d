package dev.setree;

import dev.setree.internal.core.ContextFormat;
import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.LeafNeighbours;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeChanges;
import dev.setree.internal.core.WalkTables;
import java.util.ArrayList;
import java.util.List;

/**
 * One committed state of the knowledge base as this process serves it: the tree, its oracle and
 * generation, with what the facade derives from the tree: the BM25 index and the leaf id of each leaf text
 * (for duplicate inserts). Immutable; replaced whole.
 */
record Snapshot(Tree tree, HierarchyState hierarchy, long generation, PendingLexicalIndex bm25,
    TextIds idByText, Derived derived) {

  Snapshot(Tree tree, HierarchyState hierarchy, long generation, LexicalIndex lexical, TextIds idByText) {
    this(tree, hierarchy, generation, PendingLexicalIndex.of(lexical), idByText, new Derived(tree, hierarchy, null));
  }

  /** The BM25 index of this snapshot; the first call after open waits for it to be built. */
  LexicalIndex lexical() {
    return bm25.get();
  }

  /** The walk's tables of this tree in {@code format}, computed once. */
  WalkTables walkTables(ContextFormat format) {
    return derived.walkTables(format);
  }

  /** The approximate nearest-leaf index of this snapshot, derived once. */
  LeafNeighbours neighbours() {
    return derived.neighbours();
  }

  /** The days of the leaves' time stamps, derived once. */
  LeafDays leafDays() {
    return derived.leafDays();
  }

  /** Every leaf's substance, in [0, 1] ({@link LeafPrior#substance}), derived once. */
  float[] leafSubstance() {
    return derived.leafSubstance(lexical().leafTerms());
  }

  /**
   * What retrieves derive from a snapshot once and share: the walk's tables, the nearest-leaf index, the
   * leaves' days and their substance. Each is computed on first use; {@link #prepare} computes the tables and
   * the index off the query path, while the days and the substance (one pass over the leaves) fall to the
   * first retrieve that needs them. Thread-safe.
   */
  static final class Derived {
    private final Tree tree;
    private final HierarchyState hierarchy;
    private volatile WalkTables tables;
    private volatile LeafNeighbours neighbours;
    private volatile LeafDays days;
    private volatile float[] substance;
    /** The previous snapshot's index, to derive this one's from (dropped once used). */
    private LeafNeighbours previous;

    Derived(Tree tree, HierarchyState hierarchy, LeafNeighbours previous) {
      this.tree = tree;
      this.hierarchy = hierarchy;
      this.previous = previous;
    }

    /** The nearest-leaf index if it was derived already, else null. */
    LeafNeighbours derivedNeighbours() {
      return neighbours;
    }

    /**
     * What a state after this one, of {@code next} and {@code nextHierarchy}, derives, not derived yet: its
     * nearest-leaf index will follow this one's, if this one's was derived.
     */
    Derived following(Tree next, HierarchyState nextHierarchy) {
      return new Derived(next, nextHierarchy, neighbours);
    }

    WalkTables walkTables(ContextFormat format) {
      WalkTables t = tables;
      if (t == null || !t.belongsTo(tree, format)) {
        synchronized (this) {
          t = tables;
          if (t == null || !t.belongsTo(tree, format)) {
            t = WalkTables.of(tree, format);
            tables = t;
          }
        }
      }
      return t;
    }

    LeafDays leafDays() {
      LeafDays d = days;
      if (d == null) {
        synchronized (this) {
          d = days;
          if (d == null) {
            d = LeafDays.of(tree);
            days = d;
          }
        }
      }
      return d;
    }

    float[] leafSubstance(LeafTerms terms) {
      float[] s = substance;
      if (s == null) {
        synchronized (this) {
          s = substance;
          if (s == null) {
            s = LeafPrior.substance(terms, tree.leafCount());
            substance = s;
          }
        }
      }
      return s;
    }

    /**
     * Derives the walk's tables in {@code format} and, when {@code approximate}, the nearest-leaf index: what
     * {@link Snapshot#prepare} derives, without the BM25 index. Returns this.
     */
    Derived prepare(ContextFormat format, boolean approximate) {
      walkTables(format);
      if (approximate) {
        neighbours();
      }
      return this;
    }

    LeafNeighbours neighbours() {
      LeafNeighbours n = neighbours;
      if (n == null) {
        synchronized (this) {
          n = neighbours;
          if (n == null) {
            n = previous != null ? previous.next(tree, hierarchy) : LeafNeighbours.of(tree, hierarchy);
            neighbours = n;
            previous = null;
          }
        }
      }
      return n;
    }
  }

  /**
   * Derives now what retrieves of this snapshot will need, so that the first retrieve after a maintenance
   * run does not pay for it: called by the thread that installs the snapshot.
   */
  Snapshot prepare(ContextFormat format, boolean approximate) {
    derived.prepare(format, approximate);
    if (bm25.isDone()) { // else the first retrieve waits for it, and prepares it
      lexical().prepare();
    }
    return this;
  }

  /** A snapshot derived from scratch. */
  static Snapshot of(Tree tree, HierarchyState hierarchy, long generation) {
    return of(tree, hierarchy, generation, LexicalIndex.of(tree));
  }

  /** A snapshot derived from scratch around {@code lexical}, the BM25 index of {@code tree}. */
  static Snapshot of(Tree tree, HierarchyState hierarchy, long generation, LexicalIndex lexical) {
    return new Snapshot(tree, hierarchy, generation, lexical, TextIds.of(tree));
  }

  /**
   * A snapshot derived from scratch whose BM25 index is built elsewhere meanwhile ({@link OpeningIndex}): the
   * text map and what {@link #prepare} derives (in {@code format}; the nearest-leaf index when
   * {@code approximate}) are computed now; the index is the one {@code lexical} gives once {@code done} says
   * it is built. Retrieves get the same snapshot as {@code of(tree, hierarchy, generation).prepare(format,
   * approximate)}; a process that never retrieves never waits for the index.
   */
  static Snapshot opened(Tree tree, HierarchyState hierarchy, long generation,
      java.util.function.Supplier<LexicalIndex> lexical, java.util.function.BooleanSupplier done,
      ContextFormat format, boolean approximate) {
    TextIds byText = TextIds.of(tree);
    Derived derived = new Derived(tree, hierarchy, null);
    derived.walkTables(format);
    if (approximate) {
      derived.neighbours();
    }
    // The retrieve that waits for the index maps its documents to leaves as it scores them.
    return new Snapshot(tree, hierarchy, generation, PendingLexicalIndex.building(lexical, done), byText, derived);
  }

  /** A snapshot of the bare tree (no oracle, generation 0), for tests and tools. */
  static Snapshot of(Tree tree) {
    return of(tree, HierarchyState.empty(), 0);
  }

  /**
   * The snapshot after a maintenance run changed this one's tree into {@code next}: derived state follows the
   * change. {@code changes} is the run's change log, or null: the leaves it says are kept are not compared.
   */
  Snapshot next(Tree next, HierarchyState nextHierarchy, long nextGeneration, TreeChanges changes) {
    return next(next, nextHierarchy, nextGeneration, changes, following(next, nextHierarchy));
  }

  /**
   * What the snapshot after this one, of {@code next} and {@code nextHierarchy}, derives, not derived yet: its
   * nearest-leaf index will follow this snapshot's. Deriving it ({@link Derived#prepare}) reads only the two
   * immutable states, so it may run beside the save of {@code next}, before the snapshot exists.
   */
  Derived following(Tree next, HierarchyState nextHierarchy) {
    return derived.following(next, nextHierarchy);
  }

  /** As {@link #next(Tree, HierarchyState, long, TreeChanges)}, with its derived state {@link #following} made. */
  Snapshot next(Tree next, HierarchyState nextHierarchy, long nextGeneration, TreeChanges changes,
      Derived following) {
    if (following.tree != next || following.hierarchy != nextHierarchy) {
      throw new IllegalArgumentException("the derived state is of another tree");
    }
    if (next == tree) {
      return new Snapshot(tree, nextHierarchy, nextGeneration, bm25, idByText, following);
    }
    // The leaf diff, once: leaves gone (or whose text changed) and leaves new (or whose text changed).
    // The leaves the log keeps are neither; nor is a leaf at the same index with the same id and text (checked
    // without a lookup).
    int kept = TreeChanges.leafPrefix(changes, tree, next);
    List<Integer> gone = new ArrayList<>();
    boolean inPlace = true; // every leaf of this tree is at the same index in next
    for (int v = kept; v < tree.leafCount(); v++) {
      if (sameLeafAt(tree, next, v)) {
        continue;
      }
      inPlace = false;
      int w = next.indexOf(tree.id(v));
      if (w < 0 || !next.isLeaf(w) || !next.text(w).equals(tree.text(v))) {
        gone.add(v);
      }
    }
    List<Integer> added = new ArrayList<>();
    for (int v = kept; v < next.leafCount(); v++) {
      if (sameLeafAt(tree, next, v)) {
        continue;
      }
      int o = tree.indexOf(next.id(v));
      if (o < 0 || !tree.isLeaf(o) || !tree.text(o).equals(next.text(v))) {
        added.add(v);
      }
    }
    return new Snapshot(next, nextHierarchy, nextGeneration, bm25.next(tree, gone, next, added, inPlace),
        idByText.next(tree, gone, next, added), following);
  }

  /** Whether leaf {@code v} of both trees has the same id and text (so neither tree has it elsewhere). */
  private static boolean sameLeafAt(Tree a, Tree b, int v) {
    return v < a.leafCount() && v < b.leafCount() && a.id(v).equals(b.id(v)) && a.text(v).equals(b.text(v));
  }
}

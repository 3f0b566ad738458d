package dev.setree;

import dev.setree.internal.core.Tree;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A snapshot's BM25 index, at hand or still being built: the index that open builds on a second thread
 * ({@link OpeningIndex}), followed by the changes of every maintenance run installed before it was done.
 * Open does not wait for it, so a process that only writes or reads statistics ({@code setree insert},
 * {@code delete}, {@code stats}) never waits for the index (its thread still builds it, on the other core);
 * the first retrieve waits for it. Once the index is at hand, a maintenance run's next snapshot follows it at
 * once, as before. A link of the chain is resolved once, under its own lock, after the links before it, so
 * the shared index writer sees the runs' changes one at a time and in order. Thread-safe.
 */
final class PendingLexicalIndex {
  private volatile LexicalIndex index;
  /** What gives the index while it is not at hand (null once it is); guarded by {@code this}. */
  private Supplier<LexicalIndex> source;
  private final BooleanSupplier done;

  private PendingLexicalIndex(LexicalIndex index, Supplier<LexicalIndex> source, BooleanSupplier done) {
    this.index = index;
    this.source = source;
    this.done = done;
  }

  /** An index at hand. */
  static PendingLexicalIndex of(LexicalIndex index) {
    return new PendingLexicalIndex(index, null, () -> true);
  }

  /**
   * An index that {@code source} gives once {@code done} says so (before that, {@code source} waits for it).
   */
  static PendingLexicalIndex building(Supplier<LexicalIndex> source, BooleanSupplier done) {
    return new PendingLexicalIndex(null, source, done);
  }

  /** The index; waits for it while it is being built. */
  LexicalIndex get() {
    LexicalIndex i = index;
    if (i != null) {
      return i;
    }
    synchronized (this) {
      if (index == null) {
        index = source.get();
        source = null;
      }
      return index;
    }
  }

  /** Whether {@link #get} would not wait for the index to be built. */
  boolean isDone() {
    return index != null || done.getAsBoolean();
  }

  /**
   * The index after a maintenance run changed {@code previous} into {@code next} ({@link LexicalIndex#next}):
   * at once when this index is done, else when it is (the changes of this run applied after those before it).
   */
  PendingLexicalIndex next(Tree previous, List<Integer> gone, Tree next, List<Integer> added, boolean inPlace) {
    if (isDone()) {
      return of(get().next(previous, gone, next, added, inPlace));
    }
    return building(() -> get().next(previous, gone, next, added, inPlace), this::isDone);
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.RowDots;
import dev.setree.internal.core.Tree;
import java.util.function.BooleanSupplier;

/**
 * The lane code of a summary's leaf-row products ({@link RowDots}, docs/adr/0046), compiled for a writer whose tree
 * is large enough that a summary reads its leaves' rows many at a time ({@link LeafPassages}).
 */
public final class LaneCode {
  private LaneCode() {}

  /**
   * Compiles the lane code on the calling thread, once per process ({@link RowDots#compileAhead}), when {@code tree}
   * has at least 4,096 leaves; gives up when {@code stop} says so. A writer calls it while no mutation waits:
   * compiled beside a run, on a thread of its own, it made that run about 100 ms slower at 50,000 leaves.
   */
  public static void compile(Tree tree, BooleanSupplier stop) {
    if (tree.leafCount() >= LeafPassages.STORAGE_ORDER_FROM) {
      RowDots.compileAhead(stop);
    }
  }
}

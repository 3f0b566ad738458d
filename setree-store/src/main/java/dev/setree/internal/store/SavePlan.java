package dev.setree.internal.store;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;

/**
 * A maintenance run's save, worked out ahead of the write ({@link SqliteTreeStore#planChanges}): the arguments,
 * checked, and the rows that differ between the state the run started from and the one it made, found from the
 * two states alone. Writing it ({@link SqliteTreeStore#saveChanges(SavePlan, long, long[])}) is refused, like any
 * maintenance save, when the file no longer holds the state it started from. Immutable.
 */
public final class SavePlan {
  final Tree before;
  final HierarchyState beforeHierarchy;
  final Tree after;
  final HierarchyState afterHierarchy;
  final NodeRows.Diff nodes;
  /** The oracle's rows that differ, or null when the previous oracle cannot be compared (it is rewritten). */
  final OracleRows.Diff oracle;

  SavePlan(Tree before, HierarchyState beforeHierarchy, Tree after, HierarchyState afterHierarchy,
      NodeRows.Diff nodes, OracleRows.Diff oracle) {
    this.before = before;
    this.beforeHierarchy = beforeHierarchy;
    this.after = after;
    this.afterHierarchy = afterHierarchy;
    this.nodes = nodes;
    this.oracle = oracle;
  }

  /** The state the save writes. */
  public Tree after() {
    return after;
  }
}

package dev.setree.internal.store;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeChanges;
import dev.setree.internal.core.TreeStore.StaleStateException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;

/**
 * The two saves of a tree with its oracle, each the body of one write transaction: a build replaces every
 * row ({@link #replace}); a maintenance run writes only the rows that differ from the state it started
 * from ({@link #plan}, worked out ahead) and is refused when another writer saved since
 * ({@link #applyChanges}). Both drop the mutations they applied and increase the generation;
 * {@link #checkReplace} and {@link #plan} validate the arguments before anything is written.
 */
final class TreeSaves {
  /** What a save did: the generation it committed and the bytes of text and blobs it wrote. */
  record Saved(long generation, long bytes) {}

  private final Path path;
  private final int dimension;

  TreeSaves(Path path, int dimension) {
    this.path = path;
    this.dimension = dimension;
  }

  /** Validates the arguments of {@link #replace}. */
  void checkReplace(Tree tree, HierarchyState hierarchy, long appliedThroughSeq) {
    check(tree, hierarchy);
    if (appliedThroughSeq < 0) {
      throw new IllegalArgumentException("appliedThroughSeq must not be negative: " + appliedThroughSeq);
    }
  }

  /**
   * A maintenance run's save worked out from the two states alone (and the run's change log, when it has one
   * from {@code before}), its arguments checked: what {@link #applyChanges} writes.
   */
  SavePlan plan(Tree before, HierarchyState beforeHierarchy, Tree after, HierarchyState afterHierarchy,
      TreeChanges changes) {
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(beforeHierarchy, "beforeHierarchy");
    check(after, afterHierarchy);
    if (before.dimension() != dimension && !before.isEmpty()) {
      throw new IllegalArgumentException("the previous tree has dimension " + before.dimension());
    }
    boolean oracleUsable = beforeHierarchy.levels().stream().allMatch(l -> l.centroids() != null);
    return new SavePlan(before, beforeHierarchy, after, afterHierarchy, NodeRows.diff(before, after, changes),
        oracleUsable ? OracleRows.diff(beforeHierarchy, after, afterHierarchy) : null);
  }

  private void check(Tree tree, HierarchyState hierarchy) {
    Objects.requireNonNull(tree, "tree");
    Objects.requireNonNull(hierarchy, "hierarchy");
    Objects.requireNonNull(hierarchy.levels(), "hierarchy levels");
    if (tree.dimension() != dimension) {
      throw new IllegalArgumentException(
          "the tree has dimension " + tree.dimension() + ", but " + path + " holds dimension " + dimension);
    }
    for (int i = 0; i < hierarchy.levels().size(); i++) {
      String problem = OracleRows.problem(hierarchy.levels().get(i), i, tree, dimension);
      if (problem != null) {
        throw new IllegalArgumentException("hierarchy level " + i + " " + problem);
      }
    }
  }

  /**
   * A build's save: deletes every row of the tree and oracle, writes {@code tree} and {@code hierarchy},
   * drops the mutations up to {@code appliedThroughSeq}. {@code afterNodesWritten} runs between the nodes
   * and the oracle (a test hook).
   */
  Saved replace(Connection c, Tree tree, HierarchyState hierarchy, long appliedThroughSeq,
      Runnable afterNodesWritten) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.executeUpdate("DELETE FROM nodes");
      st.executeUpdate("DELETE FROM levels");
      st.executeUpdate("DELETE FROM members");
    }
    long bytes = NodeRows.writeAll(c, tree);
    afterNodesWritten.run();
    bytes += OracleRows.writeAll(c, tree, hierarchy);
    PendingMutationRows.dropThrough(c, appliedThroughSeq);
    long generation = GenerationRow.bump(c);
    return new Saved(generation, bytes);
  }

  /**
   * A maintenance run's save: refused with {@link StaleStateException} when the generation is not
   * {@code expectedGeneration}; else writes what {@code plan} found different (the whole oracle when the
   * previous one lacks centroids) and drops exactly {@code appliedSeqs}. The tables must hold the plan's
   * {@code before} state, which the generation stands for.
   */
  Saved applyChanges(Connection c, SavePlan plan, long expectedGeneration, long[] appliedSeqs,
      Runnable afterNodesWritten) throws SQLException {
    long generation = GenerationRow.read(c);
    if (generation != expectedGeneration) {
      throw new StaleStateException(path + " is at generation " + generation + ", not at "
          + expectedGeneration + ": another writer saved in between");
    }
    long bytes = NodeRows.write(c, plan.nodes);
    afterNodesWritten.run();
    if (plan.oracle != null) {
      bytes += OracleRows.write(c, plan.oracle);
    } else {
      try (Statement st = c.createStatement()) {
        st.executeUpdate("DELETE FROM levels");
        st.executeUpdate("DELETE FROM members");
      }
      bytes += OracleRows.writeAll(c, plan.after, plan.afterHierarchy);
    }
    PendingMutationRows.drop(c, appliedSeqs);
    return new Saved(GenerationRow.bump(c), bytes);
  }
}

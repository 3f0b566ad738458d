package dev.setree.internal.store;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.State;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Predicate;

/**
 * Reads one committed state of a knowledge base inside the caller's read transaction: the tree and the
 * oracle in the file's format version (version 1 only for a read-only open of an old file), with the
 * generation and the pending mutations, so that the parts of a {@link State} always match.
 */
final class StateReader {
  private final Path path;
  private final int dimension;
  private final int version;
  /** Whether the trees read have room for more leaf rows (a writer's: {@link NodeRowReader#read}). */
  private final boolean roomForLeaves;

  StateReader(Path path, int dimension, int version, boolean roomForLeaves) {
    this.path = path;
    this.dimension = dimension;
    this.version = version;
    this.roomForLeaves = roomForLeaves;
  }

  Tree tree(Connection c) throws SQLException {
    return tree(c, null);
  }

  /** The tree, telling {@code rows} (when not null) its leaf rows as they are read, then the tree. */
  Tree tree(Connection c, SqliteTreeStore.TreeRows rows) throws SQLException {
    Tree tree = version == 1 ? NodeTable.read(c, dimension, path)
        : NodeRowReader.read(c, dimension, path, rows, roomForLeaves);
    if (rows != null) {
      rows.tree(tree); // version 1: no leaf rows were told; the listener finds them missing
    }
    return tree;
  }

  HierarchyState hierarchy(Connection c, Tree tree) throws SQLException {
    return version == 1 ? LevelTable.read(c, dimension, path) : OracleRowReader.read(c, tree, path);
  }

  /** Generation, tree, oracle, pending mutations and the last sequence number. */
  State state(Connection c) throws SQLException {
    Tree tree = tree(c);
    return new State(GenerationRow.read(c), tree, hierarchy(c, tree), PendingMutationRows.read(c, path),
        PendingMutationRows.lastSeq(c));
  }

  /**
   * {@link #state}, without tree and oracle when the generation is still {@code knownGeneration}, and
   * with the oracle only when {@code withHierarchy} accepts the tree just read; {@code rows} (may be null) is
   * told the tree's rows as they are read.
   */
  State stateIfChanged(Connection c, long knownGeneration, Predicate<Tree> withHierarchy,
      SqliteTreeStore.TreeRows rows) throws SQLException {
    long generation = GenerationRow.read(c);
    if (generation == knownGeneration) {
      return new State(generation, null, null, PendingMutationRows.read(c, path), PendingMutationRows.lastSeq(c));
    }
    Tree tree = tree(c, rows);
    HierarchyState h = withHierarchy.test(tree) ? hierarchy(c, tree) : HierarchyState.empty();
    return new State(generation, tree, h, PendingMutationRows.read(c, path), PendingMutationRows.lastSeq(c));
  }
}

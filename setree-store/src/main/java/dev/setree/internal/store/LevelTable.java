package dev.setree.internal.store;

import dev.setree.internal.core.HierarchyState;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Reads the {@code hierarchy_levels} table of store format version 1 (one row of arrays per level), for
 * {@link Migration} and for read-only opens of version-1 files, and checks the array lengths of a level
 * (also for version 2). Array components may be null except the member ids; non-null ones must have the
 * lengths documented on {@link HierarchyState.Level}. Version 2 is {@link OracleRows}.
 */
final class LevelTable {
  private static final String SELECT = "SELECT level, member_count, member_ids, centroids, parent_ids,"
      + " assignment, knn_offsets, knn_neighbors, knn_weights, resolution FROM hierarchy_levels ORDER BY level";

  private LevelTable() {}

  /**
   * Describes the first inconsistency of a level with the store's dimension, or returns null.
   */
  static String problem(HierarchyState.Level l, int dim) {
    if (l == null) {
      return "is null";
    }
    if (l.memberIds() == null) {
      return "has no member ids";
    }
    int m = l.memberIds().length;
    if (l.centroids() != null && l.centroids().length < (long) m * dim) {
      return "has " + l.centroids().length + " centroid components, expected " + m + " members x " + dim;
    }
    if (l.parentIds() != null && l.parentIds().length != m) {
      return "has " + l.parentIds().length + " parent ids for " + m + " members";
    }
    if (l.assignment() != null && l.assignment().length != m) {
      return "has " + l.assignment().length + " assignments for " + m + " members";
    }
    if (l.knn() != null && l.knn().paged()) { // a run's rows, of one length each: their shape holds by construction
      return l.knn().size() == m ? null : "has kNN rows for " + l.knn().size() + " members, not " + m;
    }
    if (l.knnOffsets() != null && l.knnOffsets().length != m + 1 && !(m == 0 && l.knnOffsets().length == 0)) {
      return "has " + l.knnOffsets().length + " kNN offsets for " + m + " members (expected " + (m + 1) + ")";
    }
    if (l.knnNeighbors() != null && l.knnWeights() != null
        && l.knnNeighbors().length != l.knnWeights().length) {
      return "has " + l.knnNeighbors().length + " kNN neighbours but " + l.knnWeights().length + " weights";
    }
    return null;
  }

  /** Reads every level, level 0 first. */
  static HierarchyState read(Connection c, int dim, Path file) throws SQLException {
    List<HierarchyState.Level> levels = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SELECT)) {
      while (rs.next()) {
        int level = rs.getInt(1);
        if (level != levels.size()) {
          throw bad(file, level, "is out of sequence (expected level " + levels.size() + ")");
        }
        int m = rs.getInt(2);
        HierarchyState.Level l = new HierarchyState.Level(
            decode(file, level, "member_ids", rs.getBytes(3), b -> Blobs.toStrings(b, m)),
            decode(file, level, "centroids", rs.getBytes(4), Blobs::toFloats),
            decode(file, level, "parent_ids", rs.getBytes(5), b -> Blobs.toStrings(b, m)),
            decode(file, level, "assignment", rs.getBytes(6), Blobs::toInts),
            decode(file, level, "knn_offsets", rs.getBytes(7), Blobs::toInts),
            decode(file, level, "knn_neighbors", rs.getBytes(8), Blobs::toInts),
            decode(file, level, "knn_weights", rs.getBytes(9), Blobs::toFloats),
            rs.getObject(10) == null ? Double.NaN : rs.getDouble(10));
        String problem = problem(l, dim);
        if (problem != null) {
          throw bad(file, level, problem);
        }
        levels.add(l);
      }
    }
    return levels.isEmpty() ? HierarchyState.empty() : new HierarchyState(List.copyOf(levels));
  }

  private static <T> T decode(Path file, int level, String column, byte[] blob, Function<byte[], T> decoder) {
    if (blob == null) {
      return null;
    }
    try {
      return decoder.apply(blob);
    } catch (IllegalArgumentException e) {
      throw bad(file, level, "column " + column + " " + e.getMessage());
    }
  }

  private static StoreFormatException bad(Path file, int level, String problem) {
    return new StoreFormatException(file + " is corrupt: hierarchy level " + level + " " + problem);
  }
}

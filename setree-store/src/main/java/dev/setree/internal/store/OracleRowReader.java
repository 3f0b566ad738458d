package dev.setree.internal.store;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the hierarchy oracle of format version 2 back from its {@code levels} and {@code members} rows
 * (written by {@link OracleRows}), checking every row: levels without gaps, each member listed once and
 * given exactly one member row, kNN neighbours that are members, well-formed blobs. A violation is a
 * {@link StoreFormatException} ("... is corrupt: hierarchy level ..."). What the format leaves out is
 * restored from the tree: level 0's member list and centroids, and an assignment derived from the parent ids.
 */
final class OracleRowReader {
  private OracleRowReader() {}

  /** Reads the oracle of {@code tree}; the caller holds a read transaction. */
  static HierarchyState read(Connection c, Tree tree, Path file) throws SQLException {
    int dim = tree.dimension();
    record LevelRow(int count, String[] ids, int[] assignment, double resolution) {}
    List<LevelRow> rows = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT level, member_count, member_ids, assignment, resolution FROM levels ORDER BY level");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        int level = rs.getInt(1);
        if (level != rows.size()) {
          throw bad(file, level, "is out of sequence (expected level " + rows.size() + ")");
        }
        int m = rs.getInt(2);
        byte[] idBlob = rs.getBytes(3);
        String[] ids;
        if (idBlob == null) {
          if (level != 0 || m != tree.leafCount()) {
            throw bad(file, level, "has no member list (only level 0 may omit it, with one member per leaf)");
          }
          ids = new String[m];
          for (int v = 0; v < m; v++) {
            ids[v] = tree.id(v);
          }
        } else {
          try {
            ids = Blobs.toStrings(idBlob, m);
          } catch (IllegalArgumentException e) {
            throw bad(file, level, "column member_ids " + e.getMessage());
          }
        }
        byte[] aBlob = rs.getBytes(4);
        int[] assignment = null;
        if (aBlob != null) {
          try {
            assignment = Blobs.toInts(aBlob);
          } catch (IllegalArgumentException e) {
            throw bad(file, level, "column assignment " + e.getMessage());
          }
        }
        rows.add(new LevelRow(m, ids, assignment, rs.getObject(5) == null ? Double.NaN : rs.getDouble(5)));
      }
    }
    if (rows.isEmpty()) {
      return HierarchyState.empty();
    }
    int levels = rows.size();
    String[][] parents = new String[levels][];
    float[][] centroids = new float[levels][];
    String[][][] knnIds = new String[levels][][];
    float[][][] knnW = new float[levels][][];
    List<Map<String, Integer>> pos = new ArrayList<>();
    for (int level = 0; level < levels; level++) {
      LevelRow r = rows.get(level);
      parents[level] = new String[r.count];
      centroids[level] = new float[r.count * dim];
      knnIds[level] = new String[r.count][];
      knnW[level] = new float[r.count][];
      Map<String, Integer> p = new HashMap<>(r.count * 2);
      for (int i = 0; i < r.count; i++) {
        if (p.put(r.ids[i], i) != null) {
          throw bad(file, level, "lists member " + r.ids[i] + " twice");
        }
      }
      pos.add(p);
    }
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT level, member_id, parent_id, centroid, knn_ids, knn_weights FROM members");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        int level = rs.getInt(1);
        String id = rs.getString(2);
        Integer i = level >= 0 && level < levels ? pos.get(level).get(id) : null;
        if (i == null) {
          throw bad(file, level, "has a member row for " + id + ", which is not one of its members");
        }
        parents[level][i] = rs.getString(3);
        byte[] cen = rs.getBytes(4);
        try {
          if (cen == null) {
            int v = tree.indexOf(id);
            if (v < 0) {
              throw bad(file, level, "member " + id + " has no centroid and is no node of the tree");
            }
            System.arraycopy(tree.centroid(v), 0, centroids[level], i * dim, dim);
          } else {
            Blobs.toFloats(cen, centroids[level], i * dim, dim);
          }
          float[] w = Blobs.toFloats(rs.getBytes(6));
          knnW[level][i] = w;
          knnIds[level][i] = Blobs.toStrings(rs.getBytes(5), w.length);
        } catch (IllegalArgumentException | NullPointerException e) {
          throw bad(file, level, "member " + id + ": " + e.getMessage());
        }
      }
    }
    List<HierarchyState.Level> out = new ArrayList<>(levels);
    for (int level = 0; level < levels; level++) {
      LevelRow r = rows.get(level);
      int[] offsets = new int[r.count + 1];
      for (int i = 0; i < r.count; i++) {
        if (parents[level][i] == null) {
          throw bad(file, level, "has no member row for " + r.ids[i]);
        }
        offsets[i + 1] = offsets[i] + knnW[level][i].length;
      }
      int[] neighbors = new int[offsets[r.count]];
      float[] weights = new float[offsets[r.count]];
      for (int i = 0; i < r.count; i++) {
        for (int e = 0; e < knnW[level][i].length; e++) {
          Integer nb = pos.get(level).get(knnIds[level][i][e]);
          if (nb == null) {
            throw bad(file, level, "member " + r.ids[i] + " has the unknown kNN neighbour " + knnIds[level][i][e]);
          }
          neighbors[offsets[i] + e] = nb;
          weights[offsets[i] + e] = knnW[level][i][e];
        }
      }
      int[] assignment = r.assignment != null ? r.assignment : OracleRows.derivedAssignment(parents[level]);
      if (assignment.length != r.count) {
        throw bad(file, level, "has " + assignment.length + " assignments for " + r.count + " members");
      }
      out.add(new HierarchyState.Level(r.ids, centroids[level], parents[level], assignment, offsets, neighbors,
          weights, r.resolution));
    }
    return new HierarchyState(List.copyOf(out));
  }

  private static StoreFormatException bad(Path file, int level, String problem) {
    return new StoreFormatException(file + " is corrupt: hierarchy level " + level + " " + problem);
  }
}

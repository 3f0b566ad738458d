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
    record LevelRow(int count, String[] ids, int[] assignment, double resolution, boolean fromTree) {}
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
          for (int j = 0; j < m; j++) {
            ids[j] = treeString(tree, ids[j]);
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
        rows.add(new LevelRow(m, ids, assignment, rs.getObject(5) == null ? Double.NaN : rs.getDouble(5),
            idBlob == null));
      }
    }
    if (rows.isEmpty()) {
      return HierarchyState.empty();
    }
    int levels = rows.size();
    String[][] parents = new String[levels][];
    float[][] centroids = new float[levels][];
    // Per member its kNN neighbours: positions, found by the ids' bytes (the usual case), or the ids
    // decoded when that failed (then looked up, and any problem reported, as a map lookup would).
    int[][][] knnPos = new int[levels][][];
    String[][][] knnIds = new String[levels][][];
    float[][][] knnW = new float[levels][][];
    IdTable[] tables = new IdTable[levels];
    List<Map<String, Integer>> pos = new ArrayList<>();
    for (int level = 0; level < levels; level++) {
      LevelRow r = rows.get(level);
      parents[level] = new String[r.count];
      // Level 0's centroids are the leaves' embeddings: the tree's own array when its members are the leaves.
      centroids[level] = level == 0 && r.fromTree && r.count == tree.leafCount() && tree.dimension() == dim
          ? tree.leafEmbeddings() : new float[r.count * dim];
      knnPos[level] = new int[r.count][];
      knnIds[level] = new String[r.count][];
      knnW[level] = new float[r.count][];
      tables[level] = new IdTable(r.ids);
      if (!tables[level].complete()) {
        pos.add(positions(file, level, r.ids));
      } else if (tables[level].duplicate() >= 0) {
        throw bad(file, level, "lists member " + r.ids[tables[level].duplicate()] + " twice");
      } else {
        pos.add(null); // made only if some row needs it
      }
    }
    // Level 0's members are the tree's leaves in order when its member list was not stored.
    boolean leavesAtLevel0 = rows.get(0).fromTree;
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT level, member_id, parent_id, centroid, knn_ids, knn_weights FROM members");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        int level = rs.getInt(1);
        byte[] idBytes = rs.getBytes(2);
        int i = -1;
        if (level >= 0 && level < levels && idBytes != null && tables[level].complete()) {
          i = tables[level].indexOf(idBytes, 0, idBytes.length);
        }
        String id = null;
        if (i < 0) {
          id = rs.getString(2);
          Integer at = level >= 0 && level < levels ? map(pos, level, rows.get(level).ids, file).get(id) : null;
          if (at == null) {
            throw bad(file, level, "has a member row for " + id + ", which is not one of its members");
          }
          i = at;
        }
        // The parent is a member of the next level (its node, or the member carried up alone): that level's string.
        byte[] parentBytes = rs.getBytes(3);
        int p = parentBytes != null && level + 1 < levels && tables[level + 1].complete()
            ? tables[level + 1].indexOf(parentBytes, 0, parentBytes.length) : -1;
        parents[level][i] = p >= 0 ? rows.get(level + 1).ids[p] : treeString(tree, rs.getString(3));
        byte[] cen = rs.getBytes(4);
        try {
          if (level == 0 && centroids[0] == tree.leafEmbeddings()) {
            if (cen != null) { // a centroid stored for a leaf: level 0 gets its own array (checked on save)
              centroids[0] = centroids[0].clone();
              Blobs.toFloats(cen, centroids[0], i * dim, dim);
            }
          } else if (cen == null) {
            int v = level == 0 && leavesAtLevel0 ? i : tree.indexOf(rows.get(level).ids[i]);
            if (v < 0) {
              throw bad(file, level, "member " + rows.get(level).ids[i] + " has no centroid and is no node of the tree");
            }
            System.arraycopy(tree.centroid(v), 0, centroids[level], i * dim, dim);
          } else {
            Blobs.toFloats(cen, centroids[level], i * dim, dim);
          }
          float[] w = Blobs.toFloats(rs.getBytes(6));
          knnW[level][i] = w;
          byte[] knn = rs.getBytes(5);
          int[] nb = tables[level].complete() ? tables[level].positions(knn, w.length) : null;
          if (nb != null) {
            knnPos[level][i] = nb;
          } else {
            knnIds[level][i] = Blobs.toStrings(knn, w.length);
          }
        } catch (IllegalArgumentException | NullPointerException e) {
          throw bad(file, level, "member " + rows.get(level).ids[i] + ": " + e.getMessage());
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
        int[] nb = knnPos[level][i];
        if (nb != null) {
          System.arraycopy(nb, 0, neighbors, offsets[i], nb.length);
        } else {
          for (int e = 0; e < knnW[level][i].length; e++) {
            Integer at = map(pos, level, r.ids, file).get(knnIds[level][i][e]);
            if (at == null) {
              throw bad(file, level, "member " + r.ids[i] + " has the unknown kNN neighbour " + knnIds[level][i][e]);
            }
            neighbors[offsets[i] + e] = at;
          }
        }
        System.arraycopy(knnW[level][i], 0, weights, offsets[i], knnW[level][i].length);
      }
      int[] assignment = r.assignment != null ? r.assignment : DerivedAssignment.of(parents[level]);
      if (assignment.length != r.count) {
        throw bad(file, level, "has " + assignment.length + " assignments for " + r.count + " members");
      }
      HierarchyState.Level l = new HierarchyState.Level(r.ids, centroids[level], parents[level], assignment, offsets,
          neighbors, weights, r.resolution);
      if (r.assignment == null) { // left out because derived (a stored one is checked when compared or saved)
        l.rememberAssignmentDerived(true);
      }
      out.add(l);
    }
    return new HierarchyState(List.copyOf(out));
  }

  /**
   * The tree's own string for node id {@code id}, or {@code id} when it is no node of the tree: the oracle's ids are
   * then the very strings of the tree's nodes, as after a maintenance run, so that comparing a member's parent id
   * with its node's id takes no look at their characters (and the oracle holds no copy of them).
   */
  private static String treeString(Tree tree, String id) {
    int v = id == null ? -1 : tree.indexOf(id);
    return v >= 0 ? tree.id(v) : id;
  }

  /** A level's member positions by id, made the first time a row needs them. */
  private static Map<String, Integer> map(List<Map<String, Integer>> pos, int level, String[] ids, Path file) {
    Map<String, Integer> p = pos.get(level);
    if (p == null) {
      p = positions(file, level, ids);
      pos.set(level, p);
    }
    return p;
  }

  private static Map<String, Integer> positions(Path file, int level, String[] ids) {
    Map<String, Integer> p = new HashMap<>(ids.length * 2);
    for (int i = 0; i < ids.length; i++) {
      if (p.put(ids[i], i) != null) {
        throw bad(file, level, "lists member " + ids[i] + " twice");
      }
    }
    return p;
  }

  private static StoreFormatException bad(Path file, int level, String problem) {
    return new StoreFormatException(file + " is corrupt: hierarchy level " + level + " " + problem);
  }
}

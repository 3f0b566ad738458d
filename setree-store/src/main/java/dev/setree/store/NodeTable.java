package dev.setree.store;

import dev.setree.core.Tree;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;

/** Writes a {@link Tree} to the {@code nodes} table and reads it back. */
final class NodeTable {
  private static final int BATCH = 256;

  private static final String INSERT = "INSERT INTO nodes (idx, id, is_leaf, level, parent_idx, text, time,"
      + " tokens, subtree_depth, leaf_count, summarizer, embedding, centroid, fidelity, loss, faithfulness,"
      + " sources) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private static final String SELECT = "SELECT idx, id, is_leaf, level, parent_idx, text, time, tokens,"
      + " summarizer, embedding, centroid, faithfulness, sources FROM nodes ORDER BY idx";

  private NodeTable() {}

  /** Inserts every node of {@code tree}; the table must be empty and a transaction open. */
  static void write(Connection c, Tree tree) throws SQLException {
    int dim = tree.dimension();
    float[] embeddings = tree.embeddings();
    float[] centroids = tree.internalCentroids();
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      for (int v = 0; v < tree.size(); v++) {
        boolean leaf = tree.isLeaf(v);
        ps.setInt(1, v);
        ps.setString(2, tree.id(v));
        ps.setInt(3, leaf ? 1 : 0);
        ps.setInt(4, tree.level(v));
        if (tree.parent(v) < 0) {
          ps.setNull(5, Types.INTEGER);
        } else {
          ps.setInt(5, tree.parent(v));
        }
        ps.setString(6, tree.text(v));
        ps.setString(7, tree.time(v));
        ps.setInt(8, tree.tokens(v));
        ps.setInt(9, tree.subtreeDepth(v));
        ps.setInt(10, tree.leavesUnder(v));
        ps.setString(11, tree.summarizerKind(v));
        ps.setBytes(12, Blobs.floats(embeddings, v * dim, dim));
        if (leaf) {
          ps.setNull(13, Types.BLOB);
          ps.setNull(14, Types.BLOB);
        } else {
          ps.setBytes(13, Blobs.floats(centroids, (v - tree.leafCount()) * dim, dim));
          ps.setBytes(14, Blobs.floats(tree.fidelity(v)));
        }
        ps.setDouble(15, tree.loss(v));
        if (tree.faithfulness(v) == Tree.UNKNOWN_FAITHFULNESS) {
          ps.setNull(16, Types.INTEGER);
        } else {
          ps.setInt(16, tree.faithfulness(v));
        }
        ps.setString(17, sources(tree, v));
        ps.addBatch();
        if ((v + 1) % BATCH == 0) {
          ps.executeBatch();
        }
      }
      ps.executeBatch();
    }
  }

  private static String sources(Tree tree, int v) {
    int n = tree.sourceCount(v);
    if (n == 0) {
      return null;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(tree.source(v, i));
    }
    return sb.toString();
  }

  /** Reads the tree; the caller holds a read transaction so that count and rows agree. */
  static Tree read(Connection c, int dim, Path file) throws SQLException {
    int n;
    int leafCount;
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*), coalesce(sum(is_leaf), 0) FROM nodes")) {
      rs.next();
      n = rs.getInt(1);
      leafCount = rs.getInt(2);
    }
    if (n == 0) {
      return Tree.empty(dim);
    }
    String[] ids = new String[n];
    String[] texts = new String[n];
    String[] times = new String[n];
    String[] summarizers = new String[n];
    int[] tokens = new int[n];
    int[] level = new int[n];
    int[] parent = new int[n];
    float[] embeddings = new float[n * dim];
    float[] centroids = new float[(n - leafCount) * dim];
    int[] faithfulness = new int[n];
    int[][] sources = new int[n][];
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SELECT)) {
      int v = 0;
      while (rs.next()) {
        if (v >= n || rs.getInt(1) != v) {
          throw bad(file, "node indexes are not 0.." + (n - 1) + " (found " + rs.getInt(1) + " at row " + v + ")");
        }
        ids[v] = rs.getString(2);
        if ((rs.getInt(3) == 1) != (v < leafCount)) {
          throw bad(file, "leaves are not the first " + leafCount + " nodes (node " + v + ")");
        }
        level[v] = rs.getInt(4);
        int p = rs.getInt(5);
        parent[v] = rs.wasNull() ? -1 : p;
        texts[v] = rs.getString(6);
        times[v] = rs.getString(7);
        tokens[v] = rs.getInt(8);
        summarizers[v] = rs.getString(9);
        decode(file, "embedding", v, rs.getBytes(10), embeddings, v * dim, dim);
        if (v >= leafCount) {
          decode(file, "centroid", v, rs.getBytes(11), centroids, (v - leafCount) * dim, dim);
        }
        int f = rs.getInt(12);
        faithfulness[v] = rs.wasNull() ? Tree.UNKNOWN_FAITHFULNESS : f;
        sources[v] = parseSources(file, v, rs.getString(13));
        v++;
      }
      if (v != n) {
        throw bad(file, "expected " + n + " nodes, read " + v);
      }
    }
    try {
      return new Tree(dim, leafCount, ids, texts, times, summarizers, tokens, level, parent, embeddings,
          centroids, faithfulness, sources);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new StoreFormatException(file + " holds an inconsistent tree: " + e.getMessage(), e);
    }
  }

  private static void decode(Path file, String column, int v, byte[] blob, float[] dst, int off, int dim) {
    if (blob == null) {
      throw bad(file, "node " + v + " has no " + column);
    }
    try {
      Blobs.toFloats(blob, dst, off, dim);
    } catch (IllegalArgumentException e) {
      throw bad(file, "the " + column + " of node " + v + " " + e.getMessage() + " (dimension " + dim + ")");
    }
  }

  private static int[] parseSources(Path file, int v, String s) {
    if (s == null || s.isEmpty()) {
      return null;
    }
    String[] parts = s.split(" ");
    int[] out = new int[parts.length];
    try {
      for (int i = 0; i < parts.length; i++) {
        out[i] = Integer.parseInt(parts[i]);
      }
    } catch (NumberFormatException e) {
      throw bad(file, "the sources of node " + v + " are not a list of node indexes: '" + s + "'");
    }
    return out;
  }

  private static StoreFormatException bad(Path file, String problem) {
    return new StoreFormatException(file + " is corrupt: " + problem);
  }
}

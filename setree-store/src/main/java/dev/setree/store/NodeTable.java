package dev.setree.store;

import dev.setree.core.Tree;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Reads the {@code nodes} table of store format version 1 (rows numbered by tree index), for
 * {@link Migration} and for read-only opens of version-1 files. Version 2 is {@link NodeRows}.
 */
final class NodeTable {
  private static final String SELECT = "SELECT idx, id, is_leaf, level, parent_idx, text, time, tokens,"
      + " summarizer, embedding, centroid, faithfulness, sources FROM nodes ORDER BY idx";

  private NodeTable() {}

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
    NodeRows.decode(file, column, String.valueOf(v), blob, dst, off, dim);
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

package dev.setree.internal.store;

import dev.setree.internal.core.Tree;
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
    TreeColumns t = new TreeColumns(n, leafCount, dim);
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SELECT)) {
      int v = 0;
      while (rs.next()) {
        if (v >= n || rs.getInt(1) != v) {
          throw bad(file, "node indexes are not 0.." + (n - 1) + " (found " + rs.getInt(1) + " at row " + v + ")");
        }
        t.ids[v] = rs.getString(2);
        if ((rs.getInt(3) == 1) != (v < leafCount)) {
          throw bad(file, "leaves are not the first " + leafCount + " nodes (node " + v + ")");
        }
        t.level[v] = rs.getInt(4);
        int p = rs.getInt(5);
        t.parent[v] = rs.wasNull() ? -1 : p;
        t.texts[v] = rs.getString(6);
        t.times[v] = rs.getString(7);
        t.tokens[v] = rs.getInt(8);
        t.summarizers[v] = rs.getString(9);
        t.vectors(file, v, String.valueOf(v), rs.getBytes(10), rs.getBytes(11));
        int f = rs.getInt(12);
        t.faithfulness[v] = rs.wasNull() ? Tree.UNKNOWN_FAITHFULNESS : f;
        t.sources[v] = parseSources(file, v, rs.getString(13));
        v++;
      }
      if (v != n) {
        throw bad(file, "expected " + n + " nodes, read " + v);
      }
    }
    return t.toTree(file);
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

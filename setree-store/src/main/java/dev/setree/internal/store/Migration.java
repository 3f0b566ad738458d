package dev.setree.internal.store;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;

/**
 * Upgrades a knowledge base of store format version 1 to the current version, in one transaction: reads
 * the version-1 tree and oracle, replaces the {@code nodes} and {@code hierarchy_levels} tables by the
 * version-2 tables, writes the same tree and oracle into them and sets the version. Pending mutations keep
 * their table and sequence numbers. A crash at any point leaves the version-1 file; a second process that
 * migrated first is noticed inside the transaction and nothing is done twice.
 *
 * <p>A version-1 oracle whose levels lack arrays (version 1 allowed nulls) is migrated as the empty oracle:
 * the next maintenance run then clusters from scratch, as it would have.
 */
final class Migration {
  private Migration() {}

  static void toCurrent(Path path, Connection c, int dimension) throws SQLException {
    exec(c, "BEGIN IMMEDIATE");
    boolean done = false;
    try {
      int version;
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA user_version")) {
        version = rs.next() ? rs.getInt(1) : 0;
      }
      if (version == 1) {
        Tree tree = NodeTable.read(c, dimension, path);
        HierarchyState oracle = LevelTable.read(c, dimension, path);
        for (int i = 0; i < oracle.levels().size(); i++) {
          if (OracleRows.problem(oracle.levels().get(i), i, tree, dimension) != null) {
            oracle = HierarchyState.empty();
            break;
          }
        }
        exec(c, "DROP TABLE nodes");
        exec(c, "DROP TABLE hierarchy_levels");
        for (String ddl : Schema.TREE_DDL) {
          exec(c, ddl);
        }
        NodeRows.writeAll(c, tree);
        OracleRows.writeAll(c, tree, oracle);
        exec(c, "UPDATE state SET generation = 1");
        exec(c, "PRAGMA user_version = " + Schema.FORMAT_VERSION);
        try (PreparedStatement ps = c.prepareStatement("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)")) {
          ps.setString(1, Schema.META_FORMAT_VERSION);
          ps.setString(2, Integer.toString(Schema.FORMAT_VERSION));
          ps.executeUpdate();
          ps.setString(1, Schema.META_MIGRATED_AT);
          ps.setString(2, Instant.now().toString());
          ps.executeUpdate();
        }
      }
      exec(c, "COMMIT");
      done = true;
    } finally {
      if (!done) {
        try {
          exec(c, "ROLLBACK");
        } catch (SQLException ignored) {
          // SQLite may have rolled back already
        }
      }
    }
  }

  private static void exec(Connection c, String sql) throws SQLException {
    StoreConnections.exec(c, sql);
  }
}

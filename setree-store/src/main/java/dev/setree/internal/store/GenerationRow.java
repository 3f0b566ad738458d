package dev.setree.internal.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The generation in the one row of table {@code state}: read by every load, checked and increased by
 * every save, so that a maintenance run never saves over a state it did not start from (ADR 0012). Each
 * method runs inside the caller's transaction.
 */
final class GenerationRow {
  private GenerationRow() {}

  /** The committed generation; 0 for a knowledge base never saved and for a version-1 file open read-only. */
  static long read(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE name = 'state'")) {
      if (!rs.next()) {
        return 0; // a version-1 file open read-only
      }
    }
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT generation FROM state")) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  /** Increases the generation by one and returns the new one. */
  static long bump(Connection c) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.executeUpdate("UPDATE state SET generation = generation + 1");
      try (ResultSet rs = st.executeQuery("SELECT generation FROM state")) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}

package dev.setree.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The optional tables {@code lexical_index} and {@code lexical_files}: a copy of a BM25 index's files that
 * open reads instead of indexing every leaf (ADR 0030). They are a cache: whoever reads them checks every
 * document against the tree it loaded, so a copy from an older state, or none, is never wrong, only slower.
 * The tables are created by the first write; a file without them has no cache. Each method runs inside the
 * caller's transaction.
 */
final class LexicalCacheRows {
  static final String DDL_INDEX = "CREATE TABLE IF NOT EXISTS lexical_index ("
      + " id INTEGER PRIMARY KEY CHECK (id = 1),"
      + " format TEXT NOT NULL,"
      + " last_seq INTEGER NOT NULL,"
      + " generation INTEGER NOT NULL,"
      + " written_at TEXT NOT NULL)";
  static final String DDL_FILES = "CREATE TABLE IF NOT EXISTS lexical_files ("
      + " name TEXT PRIMARY KEY,"
      + " data BLOB NOT NULL)";

  private LexicalCacheRows() {}

  /** Whether the file has the cache's tables (a file written before them, or never cached, has not). */
  static boolean exists(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('lexical_index', 'lexical_files')")) {
      return rs.next() && rs.getInt(1) == 2;
    }
  }

  /**
   * The highest mutation sequence number given when the cache was written, or -1 when there is none of
   * {@code format}.
   */
  static long lastSeq(Connection c, String format) throws SQLException {
    if (!exists(c)) {
      return -1;
    }
    try (PreparedStatement ps = c.prepareStatement("SELECT last_seq FROM lexical_index WHERE id = 1 AND format = ?")) {
      ps.setString(1, format);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : -1;
      }
    }
  }

  /** The cache, or null when there is none. */
  static LexicalCache read(Connection c) throws SQLException {
    if (!exists(c)) {
      return null;
    }
    String format;
    long lastSeq;
    long generation;
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT format, last_seq, generation FROM lexical_index WHERE id = 1")) {
      if (!rs.next()) {
        return null;
      }
      format = rs.getString(1);
      lastSeq = rs.getLong(2);
      generation = rs.getLong(3);
    }
    Map<String, byte[]> files = new LinkedHashMap<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT name, data FROM lexical_files ORDER BY name")) {
      while (rs.next()) {
        byte[] data = rs.getBytes(2);
        files.put(rs.getString(1), data == null ? new byte[0] : data);
      }
    }
    return new LexicalCache(format, lastSeq, generation, files);
  }

  /**
   * Replaces the cache by {@code files} of the given format, noting the highest sequence number given so far
   * and the committed generation; returns the bytes written (names and contents).
   */
  static long replace(Connection c, String format, Map<String, byte[]> files, String writtenAt)
      throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(DDL_INDEX);
      st.execute(DDL_FILES);
      st.executeUpdate("DELETE FROM lexical_files");
    }
    long bytes = 0;
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO lexical_files (name, data) VALUES (?, ?)")) {
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        ps.setString(1, f.getKey());
        ps.setBytes(2, f.getValue());
        ps.executeUpdate();
        bytes += f.getKey().length() + f.getValue().length;
      }
    }
    try (PreparedStatement ps = c.prepareStatement("INSERT OR REPLACE INTO lexical_index"
        + " (id, format, last_seq, generation, written_at) VALUES (1, ?, ?, ?, ?)")) {
      ps.setString(1, format);
      ps.setLong(2, PendingMutationRows.lastSeq(c));
      ps.setLong(3, GenerationRow.read(c));
      ps.setString(4, writtenAt);
      ps.executeUpdate();
      bytes += format.length();
    }
    return bytes;
  }
}

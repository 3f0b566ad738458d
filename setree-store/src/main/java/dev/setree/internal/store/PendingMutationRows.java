package dev.setree.internal.store;

import dev.setree.internal.core.TreeStore.Mutation;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code pending_mutations} table: appends an accepted insert or delete, lists the pending ones in
 * sequence order, reports the highest sequence number ever given, and drops the ones a save applied. Each
 * method runs inside the caller's transaction.
 */
final class PendingMutationRows {
  private PendingMutationRows() {}

  /** Appends {@code mutation} (its own {@code seq} is ignored) and returns the sequence number it got. */
  static long append(Connection c, Mutation mutation) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "INSERT INTO pending_mutations (kind, leaf_id, text, time, created_at) VALUES (?, ?, ?, ?, ?)")) {
      ps.setString(1, mutation.kind().name().toLowerCase(Locale.ROOT));
      ps.setString(2, mutation.leafId());
      ps.setString(3, mutation.text());
      ps.setString(4, mutation.time());
      ps.setString(5, Instant.now().toString());
      ps.executeUpdate();
    }
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT last_insert_rowid()")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  /** The pending mutations in {@code seq} order. */
  static List<Mutation> read(Connection c, Path file) throws SQLException {
    List<Mutation> out = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT seq, kind, leaf_id, text, time FROM pending_mutations ORDER BY seq")) {
      while (rs.next()) {
        out.add(new Mutation(rs.getLong(1), kind(file, rs.getString(2), rs.getLong(1)), rs.getString(3),
            rs.getString(4), rs.getString(5)));
      }
    }
    return List.copyOf(out);
  }

  private static Mutation.Kind kind(Path file, String kind, long seq) {
    if ("insert".equals(kind)) {
      return Mutation.Kind.INSERT;
    }
    if ("delete".equals(kind)) {
      return Mutation.Kind.DELETE;
    }
    throw new StoreFormatException(file + " is corrupt: pending mutation " + seq + " has kind '" + kind + "'");
  }

  /** The highest sequence number ever given (kept by SQLite in {@code sqlite_sequence}), 0 when none. */
  static long lastSeq(Connection c) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
        "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'pending_mutations'), 0)")) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  /** Drops every mutation up to and including {@code appliedThroughSeq} (a build). */
  static void dropThrough(Connection c, long appliedThroughSeq) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM pending_mutations WHERE seq <= ?")) {
      ps.setLong(1, appliedThroughSeq);
      ps.executeUpdate();
    }
  }

  /** Drops exactly the mutations {@code appliedSeqs} (a maintenance run). */
  static void drop(Connection c, long[] appliedSeqs) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("DELETE FROM pending_mutations WHERE seq = ?")) {
      for (long seq : appliedSeqs) {
        ps.setLong(1, seq);
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }
}

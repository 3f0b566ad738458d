package dev.setree.internal.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteOpenMode;

/**
 * Opening a knowledge base file: the checks of {@code docs/store-format.md} ("What happens on open") that
 * run before anything is written, the creation of a new knowledge base, and the configuration of the
 * connections a {@link SqliteTreeStore} is made of (WAL, {@code synchronous=FULL}, busy timeout).
 */
final class StoreOpening {
  /** How long a connection waits for a lock another connection holds ({@code PRAGMA busy_timeout}). */
  static final int BUSY_TIMEOUT_MS = 5000;

  private StoreOpening() {}

  /** How a connection opens the file. */
  enum Mode {
    READ_ONLY,
    READ_WRITE,
    CREATE
  }

  static Connection connection(Path path, Mode mode) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setBusyTimeout(BUSY_TIMEOUT_MS);
    if (mode == Mode.READ_ONLY) {
      config.setReadOnly(true);
    } else if (mode == Mode.READ_WRITE) {
      config.resetOpenMode(SQLiteOpenMode.CREATE);
    }
    // A file: URI, so that '?' or '#' in the path cannot be taken for parameters.
    return config.createConnection("jdbc:sqlite:" + path.toUri());
  }

  /** What {@code meta} says about a knowledge base. */
  record Meta(String modelId, int dimension, int version) {
    void requireEmbedder(Path path, String wantedModel, int wantedDimension) {
      if (!modelId.equals(wantedModel)) {
        throw new StoreFormatException(path + " was built with embedder model '" + modelId
            + "', not with the requested model '" + wantedModel + "'; rebuild it or open it with '"
            + modelId + "'");
      }
      if (dimension != wantedDimension) {
        throw new StoreFormatException(path + " holds embeddings of dimension " + dimension
            + ", not of the requested dimension " + wantedDimension);
      }
    }
  }

  /**
   * Runs the checks that need SQLite on a read-only connection of its own. Only when SQLite reports that
   * it cannot read the file without writing (a hot journal or a write-ahead log left by a crash must be
   * recovered first) are they repeated on a read-write connection, which recovers the file.
   */
  static Meta inspectForWriting(Path path) {
    try {
      return inspect(path, Mode.READ_ONLY);
    } catch (StoreException e) {
      if (e.getCause() instanceof SQLException sql && (sql.getErrorCode() & 0xff) == 8 /* SQLITE_READONLY */) {
        return inspect(path, Mode.READ_WRITE);
      }
      throw e;
    }
  }

  static Meta inspect(Path path, Mode mode) {
    try (Connection c = connection(path, mode)) {
      return inspect(path, c);
    } catch (SQLException e) {
      throw StoreConnections.failure(path, "open", e);
    }
  }

  /**
   * Checks an existing database; returns null for a blank SQLite database (no tables, no application id),
   * which may become a knowledge base.
   */
  static Meta inspect(Path path, Connection c) throws SQLException {
    List<String> tables = new ArrayList<>();
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
      while (rs.next()) {
        tables.add(rs.getString(1));
      }
    }
    int applicationId = pragmaInt(c, "application_id");
    if (applicationId != Schema.APPLICATION_ID) {
      if (applicationId == 0 && tables.isEmpty()) {
        return null;
      }
      throw new StoreFormatException(path + " is not a SETree knowledge base (a SQLite database"
          + (applicationId == 0 ? "" : " with application_id 0x" + Integer.toHexString(applicationId))
          + (tables.isEmpty() ? " without tables" : " holding tables " + String.join(", ", tables)) + ")");
    }
    int version = pragmaInt(c, "user_version");
    FileHeader.checkVersion(path, version);
    List<String> expected = version == 1 ? Schema.V1_TABLES : Schema.TABLES;
    for (String table : expected) {
      if (!tables.contains(table)) {
        throw new StoreFormatException(path + " is damaged: it has no table '" + table + "'");
      }
    }
    checkStructure(path, c, expected);
    Map<String, String> meta = new HashMap<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT key, value FROM meta")) {
      while (rs.next()) {
        meta.put(rs.getString(1), rs.getString(2));
      }
    }
    String formatVersion = required(path, meta, Schema.META_FORMAT_VERSION);
    if (!formatVersion.equals(Integer.toString(version))) {
      throw new StoreFormatException(path + " is damaged: meta says format version " + formatVersion
          + " but user_version says " + version);
    }
    String model = required(path, meta, Schema.META_MODEL_ID);
    String dim = required(path, meta, Schema.META_DIMENSION);
    try {
      int d = Integer.parseInt(dim);
      if (d <= 0) {
        throw new NumberFormatException();
      }
      return new Meta(model, d, version);
    } catch (NumberFormatException e) {
      throw new StoreFormatException(path + " is damaged: meta holds the invalid dimension '" + dim + "'");
    }
  }

  static String required(Path path, Map<String, String> meta, String key) {
    String value = meta.get(key);
    if (value == null) {
      throw new StoreFormatException(path + " is damaged: its meta table has no " + key);
    }
    return value;
  }

  /**
   * The structural check of open, in time independent of the knowledge base's size: SQLite's
   * {@code quick_check} of the schema and of the small tables, and a walk of the large tables' id indexes
   * and of their rows' b-tree root. The rows of the large tables are read, and their content checked, by
   * the load that follows every open; a whole-file {@code quick_check} would read them a second time.
   */
  static void checkStructure(Path path, Connection c, List<String> tables) throws SQLException {
    List<String> problems = new ArrayList<>();
    try (Statement st = c.createStatement()) {
      List<String> checked = new ArrayList<>(List.of("sqlite_schema"));
      for (String t : tables) {
        if (!Schema.LARGE_TABLES.contains(t)) {
          checked.add(t);
        }
      }
      for (String t : checked) {
        try (ResultSet rs = st.executeQuery("PRAGMA quick_check('" + t + "')")) {
          while (rs.next()) {
            if (!"ok".equals(rs.getString(1))) {
              problems.add(rs.getString(1));
            }
          }
        }
      }
      for (String t : tables) {
        if (Schema.LARGE_TABLES.contains(t)) {
          st.executeQuery("SELECT count(*) FROM " + t).close(); // its smallest index, each page once
          st.executeQuery("SELECT max(rowid) FROM " + t).close(); // the table b-tree's root and right edge
        }
      }
    } catch (SQLException e) {
      if ((e.getErrorCode() & 0xff) == 11 /* SQLITE_CORRUPT */ || (e.getErrorCode() & 0xff) == 26 /* NOTADB */) {
        problems.add(e.getMessage());
      } else {
        throw e;
      }
    }
    if (!problems.isEmpty()) {
      throw new StoreFormatException(path + " is corrupt: SQLite's structural check reports: "
          + String.join("; ", problems.subList(0, Math.min(5, problems.size()))));
    }
  }

  static int pragmaInt(Connection c, String pragma) throws SQLException {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA " + pragma)) {
      return rs.next() ? rs.getInt(1) : 0;
    }
  }

  /** {@link SqliteTreeStore#open}: checks the file, then connects to it or creates it. */
  static SqliteTreeStore open(Path file, String modelId, int dimension) {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(modelId, "modelId");
    if (modelId.isBlank()) {
      throw new IllegalArgumentException("the embedder model id must not be blank");
    }
    if (dimension <= 0) {
      throw new IllegalArgumentException("the embedding dimension must be positive, not " + dimension);
    }
    Path path = file.toAbsolutePath().normalize();
    // Two attempts: another process may turn a missing or blank file into a database between our look
    // and our create; the second look then checks what it made.
    for (int attempt = 0; attempt < 2; attempt++) {
      FileHeader header = FileHeader.read(path);
      if (!header.isFresh()) {
        header.check(path, hasRecoveryLog(path));
        Meta meta = inspectForWriting(path);
        if (meta != null) {
          meta.requireEmbedder(path, modelId, dimension);
          return connect(path, meta);
        }
      }
      SqliteTreeStore created = create(path, modelId, dimension);
      if (created != null) {
        return created;
      }
    }
    throw new StoreException("cannot create " + path + ": another process keeps changing it");
  }

  /** {@link SqliteTreeStore#openReadOnly}: checks the file, then connects to it read-only. */
  static SqliteTreeStore openReadOnly(Path file) {
    Objects.requireNonNull(file, "file");
    Path path = file.toAbsolutePath().normalize();
    FileHeader header = FileHeader.read(path);
    if (header.kind == FileHeader.Kind.MISSING) {
      throw new StoreException(path + " does not exist");
    }
    if (header.kind == FileHeader.Kind.EMPTY) {
      throw new StoreFormatException(path + " is an empty file, not a SETree knowledge base");
    }
    header.check(path, hasRecoveryLog(path));
    Connection c = null;
    try {
      c = connection(path, Mode.READ_ONLY);
      Meta meta = inspect(path, c);
      if (meta == null) {
        throw new StoreFormatException(path + " is an empty SQLite database, not a SETree knowledge base");
      }
      SqliteTreeStore store = new SqliteTreeStore(path, meta.modelId(), meta.dimension(), meta.version(), null, c);
      c = null;
      return store;
    } catch (SQLException e) {
      throw StoreConnections.failure(path, "open", e);
    } finally {
      StoreConnections.closeQuietly(c);
    }
  }

  /**
   * Creates the schema in a missing, empty or blank file; returns null when another process turned it
   * into a database with content first.
   */
  static SqliteTreeStore create(Path path, String modelId, int dimension) {
    try {
      Path parent = path.getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
    } catch (IOException e) {
      throw new StoreException("cannot create " + path + ": " + e, e);
    }
    Connection c = null;
    try {
      c = connection(path, Mode.CREATE);
      StoreConnections.exec(c, "BEGIN IMMEDIATE");
      boolean blank;
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM sqlite_master")) {
        rs.next();
        blank = rs.getInt(1) == 0 && pragmaInt(c, "application_id") == 0;
      }
      if (!blank) {
        StoreConnections.exec(c, "ROLLBACK");
        return null;
      }
      for (String ddl : Schema.DDL) {
        StoreConnections.exec(c, ddl);
      }
      StoreConnections.exec(c, "PRAGMA application_id = " + Schema.APPLICATION_ID);
      StoreConnections.exec(c, "PRAGMA user_version = " + Schema.FORMAT_VERSION);
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO meta (key, value) VALUES (?, ?)")) {
        String[][] rows = {
          {Schema.META_FORMAT_VERSION, Integer.toString(Schema.FORMAT_VERSION)},
          {Schema.META_MODEL_ID, modelId},
          {Schema.META_DIMENSION, Integer.toString(dimension)},
          {Schema.META_CREATED_AT, Instant.now().toString()},
        };
        for (String[] row : rows) {
          ps.setString(1, row[0]);
          ps.setString(2, row[1]);
          ps.executeUpdate();
        }
      }
      StoreConnections.exec(c, "COMMIT");
      SqliteTreeStore store = finishOpen(path, modelId, dimension, Schema.FORMAT_VERSION, c);
      c = null;
      return store;
    } catch (SQLException e) {
      throw StoreConnections.failure(path, "create", e);
    } finally {
      StoreConnections.closeQuietly(c);
    }
  }

  static SqliteTreeStore connect(Path path, Meta meta) {
    Connection c = null;
    try {
      c = connection(path, Mode.READ_WRITE);
      if (meta.version < Schema.FORMAT_VERSION) {
        Migration.toCurrent(path, c, meta.dimension);
      }
      SqliteTreeStore store = finishOpen(path, meta.modelId, meta.dimension, Schema.FORMAT_VERSION, c);
      c = null;
      return store;
    } catch (SQLException e) {
      throw StoreConnections.failure(path, "open", e);
    } finally {
      StoreConnections.closeQuietly(c);
    }
  }

  /** Configures the checked writer connection and opens the reader; closes the writer on failure. */
  static SqliteTreeStore finishOpen(Path path, String modelId, int dimension, int version,
      Connection writer) throws SQLException {
    try (Statement st = writer.createStatement()) {
      String mode = enterWalMode(st);
      if (!"wal".equalsIgnoreCase(mode)) {
        throw new StoreException("cannot open " + path + " in WAL mode (journal mode is " + mode + ")");
      }
      st.execute("PRAGMA synchronous = FULL");
      st.execute("PRAGMA foreign_keys = OFF");
    }
    Connection reader = connection(path, Mode.READ_ONLY);
    return new SqliteTreeStore(path, modelId, dimension, version, writer, reader);
  }

  /**
   * Switches the file to WAL mode and returns the journal mode SQLite reports. The last connection to close
   * returns the file to rollback-journal mode, so an open usually switches it. While another connection
   * holds a write lock on a file in rollback mode (another process creating, migrating or switching the same
   * file), SQLite refuses the switch at once with SQLITE_BUSY instead of waiting its busy timeout: the switch
   * is then retried, with short pauses, for up to {@link #BUSY_TIMEOUT_MS}.
   */
  private static String enterWalMode(Statement st) throws SQLException {
    long deadline = System.nanoTime() + BUSY_TIMEOUT_MS * 1_000_000L;
    for (int pause = 1; ; pause = Math.min(2 * pause, 50)) {
      try (ResultSet rs = st.executeQuery("PRAGMA journal_mode = WAL")) {
        return rs.next() ? rs.getString(1) : null;
      } catch (SQLException e) {
        if ((e.getErrorCode() & 0xff) != 5 /* SQLITE_BUSY */ || System.nanoTime() - deadline > 0) {
          throw e;
        }
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SQLException("interrupted while waiting for the file's write lock", e);
      }
    }
  }

  /** Whether a non-empty write-ahead log or rollback journal, which SQLite will recover, lies next to the file. */
  static boolean hasRecoveryLog(Path path) {
    for (String suffix : List.of("-wal", "-journal")) {
      try {
        Path log = sibling(path, suffix);
        if (Files.exists(log) && Files.size(log) > 0) {
          return true;
        }
      } catch (IOException e) {
        return true; // cannot tell: leave the decision to SQLite's own checks
      }
    }
    return false;
  }

  static Path sibling(Path path, String suffix) {
    return path.resolveSibling(path.getFileName() + suffix);
  }
}

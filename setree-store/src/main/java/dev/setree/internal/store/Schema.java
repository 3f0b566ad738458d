package dev.setree.internal.store;

import java.util.List;

/** The constants and DDL of store format version {@value #FORMAT_VERSION}; see docs/store-format.md. */
final class Schema {
  /** {@code PRAGMA application_id}: the ASCII bytes "SETR". */
  static final int APPLICATION_ID = 0x53455452;

  /** The format version written to {@code PRAGMA user_version} and {@code meta.format_version}. */
  static final int FORMAT_VERSION = 2;

  /** The oldest format version this code reads (and migrates when it opens the file for writing). */
  static final int OLDEST_READABLE_VERSION = 1;

  static final String META_FORMAT_VERSION = "format_version";
  static final String META_MODEL_ID = "model_id";
  static final String META_DIMENSION = "dimension";
  static final String META_CREATED_AT = "created_at";
  static final String META_MIGRATED_AT = "migrated_from_v1_at";

  /** The tables every store of this version holds (besides SQLite's own {@code sqlite_sequence}). */
  static final List<String> TABLES = List.of("meta", "state", "nodes", "levels", "members", "pending_mutations");

  /** The tables of format version 1. */
  static final List<String> V1_TABLES = List.of("meta", "nodes", "hierarchy_levels", "pending_mutations");

  /**
   * The tables whose size grows with the knowledge base (both versions): open does not {@code quick_check}
   * them, the load reads every row of them (docs/store-format.md, "What happens on open").
   */
  static final List<String> LARGE_TABLES = List.of("nodes", "members", "hierarchy_levels");

  static final String PENDING_DDL = "CREATE TABLE pending_mutations ("
      + " seq INTEGER PRIMARY KEY AUTOINCREMENT,"
      + " kind TEXT NOT NULL CHECK (kind IN ('insert', 'delete')),"
      + " leaf_id TEXT NOT NULL,"
      + " text TEXT,"
      + " time TEXT,"
      + " created_at TEXT NOT NULL)";

  /** The tables of version 2 that replace version 1's {@code nodes} and {@code hierarchy_levels}. */
  static final List<String> TREE_DDL = List.of(
      "CREATE TABLE state ("
          + " id INTEGER PRIMARY KEY CHECK (id = 1),"
          + " generation INTEGER NOT NULL)",
      "INSERT INTO state (id, generation) VALUES (1, 0)",
      "CREATE TABLE nodes ("
          + " ord INTEGER PRIMARY KEY,"
          + " id TEXT NOT NULL UNIQUE,"
          + " is_leaf INTEGER NOT NULL CHECK (is_leaf IN (0, 1)),"
          + " level INTEGER NOT NULL,"
          + " parent_id TEXT,"
          + " text TEXT NOT NULL,"
          + " time TEXT,"
          + " tokens INTEGER NOT NULL,"
          + " subtree_depth INTEGER NOT NULL,"
          + " leaf_count INTEGER NOT NULL,"
          + " summarizer TEXT,"
          + " embedding BLOB NOT NULL,"
          + " centroid BLOB,"
          + " loss REAL NOT NULL,"
          + " faithfulness INTEGER,"
          + " sources BLOB)",
      "CREATE TABLE levels ("
          + " level INTEGER PRIMARY KEY,"
          + " member_count INTEGER NOT NULL,"
          + " member_ids BLOB,"
          + " assignment BLOB,"
          + " resolution REAL)",
      "CREATE TABLE members ("
          + " level INTEGER NOT NULL,"
          + " member_id TEXT NOT NULL,"
          + " parent_id TEXT NOT NULL,"
          + " centroid BLOB,"
          + " knn_ids BLOB NOT NULL,"
          + " knn_weights BLOB NOT NULL,"
          + " PRIMARY KEY (level, member_id))");

  static final List<String> DDL;

  static {
    java.util.ArrayList<String> all = new java.util.ArrayList<>();
    all.add("CREATE TABLE meta ("
        + " key TEXT PRIMARY KEY,"
        + " value TEXT NOT NULL)");
    all.addAll(TREE_DDL);
    all.add(PENDING_DDL);
    DDL = List.copyOf(all);
  }

  private Schema() {}
}

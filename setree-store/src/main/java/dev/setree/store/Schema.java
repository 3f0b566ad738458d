package dev.setree.store;

import java.util.List;

/** The constants and DDL of store format version {@value #FORMAT_VERSION}; see docs/store-format.md. */
final class Schema {
  /** {@code PRAGMA application_id}: the ASCII bytes "SETR". */
  static final int APPLICATION_ID = 0x53455452;

  /** The format version written to {@code PRAGMA user_version} and {@code meta.format_version}. */
  static final int FORMAT_VERSION = 1;

  static final String META_FORMAT_VERSION = "format_version";
  static final String META_MODEL_ID = "model_id";
  static final String META_DIMENSION = "dimension";
  static final String META_CREATED_AT = "created_at";

  /** The tables every store of this version holds (besides SQLite's own {@code sqlite_sequence}). */
  static final List<String> TABLES = List.of("meta", "nodes", "hierarchy_levels", "pending_mutations");

  static final List<String> DDL = List.of(
      "CREATE TABLE meta ("
          + " key TEXT PRIMARY KEY,"
          + " value TEXT NOT NULL)",
      "CREATE TABLE nodes ("
          + " idx INTEGER PRIMARY KEY,"
          + " id TEXT NOT NULL UNIQUE,"
          + " is_leaf INTEGER NOT NULL CHECK (is_leaf IN (0, 1)),"
          + " level INTEGER NOT NULL,"
          + " parent_idx INTEGER,"
          + " text TEXT NOT NULL,"
          + " time TEXT,"
          + " tokens INTEGER NOT NULL,"
          + " subtree_depth INTEGER NOT NULL,"
          + " leaf_count INTEGER NOT NULL,"
          + " summarizer TEXT,"
          + " embedding BLOB NOT NULL,"
          + " centroid BLOB,"
          + " fidelity BLOB,"
          + " loss REAL NOT NULL,"
          + " faithfulness INTEGER,"
          + " sources TEXT)",
      "CREATE TABLE hierarchy_levels ("
          + " level INTEGER PRIMARY KEY,"
          + " member_count INTEGER NOT NULL,"
          + " member_ids BLOB NOT NULL,"
          + " centroids BLOB,"
          + " parent_ids BLOB,"
          + " assignment BLOB,"
          + " knn_offsets BLOB,"
          + " knn_neighbors BLOB,"
          + " knn_weights BLOB,"
          + " resolution REAL)",
      "CREATE TABLE pending_mutations ("
          + " seq INTEGER PRIMARY KEY AUTOINCREMENT,"
          + " kind TEXT NOT NULL CHECK (kind IN ('insert', 'delete')),"
          + " leaf_id TEXT NOT NULL,"
          + " text TEXT,"
          + " time TEXT,"
          + " created_at TEXT NOT NULL)");

  private Schema() {}
}

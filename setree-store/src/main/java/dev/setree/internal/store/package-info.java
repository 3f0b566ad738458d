/**
 * Internal (no compatibility promise; ADR 0021). Durable storage of a SETree knowledge base in one SQLite
 * file: {@link dev.setree.internal.store.SqliteTreeStore} implements {@link dev.setree.internal.core.TreeStore}. The file format is described in
 * {@code docs/store-format.md}.
 */
package dev.setree.internal.store;

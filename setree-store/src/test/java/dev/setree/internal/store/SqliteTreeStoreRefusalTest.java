package dev.setree.internal.store;

import static dev.setree.internal.store.TestFiles.listing;
import static dev.setree.internal.store.TestFiles.sha256;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every refusal throws {@link StoreFormatException} naming the file and the problem, and leaves the file's
 * bytes, its modification time and the directory's listing (no -wal, -shm or -journal) unchanged.
 */
class SqliteTreeStoreRefusalTest {
  private static final String MODEL = "test-model";

  @TempDir Path dir;

  @Test
  void randomBytesAreNotASqliteDatabase() throws IOException {
    byte[] bytes = new byte[8192];
    new Random(1).nextBytes(bytes);
    Path file = Files.write(dir.resolve("random.db"), bytes);
    assertRefused(file, "is not a SQLite database");
    assertRefusedReadOnly(file, "is not a SQLite database");
  }

  @Test
  void textFileIsNotASqliteDatabase() throws IOException {
    Path file = Files.writeString(dir.resolve("notes.txt"), "remember the milk\n".repeat(20));
    assertRefused(file, "is not a SQLite database");
  }

  @Test
  void shortFileWithSqliteMagicIsNotASqliteDatabase() throws IOException {
    Path file = Files.write(dir.resolve("short.db"), "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII));
    assertRefused(file, "is not a SQLite database");
  }

  @Test
  void otherApplicationsDatabaseIsRefused() throws SQLException {
    Path file = dir.resolve("other.db");
    exec(file, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)",
        "INSERT INTO customers (name) VALUES ('ada')");
    StoreFormatException e = assertRefused(file, "is not a SETree knowledge base");
    assertTrue(e.getMessage().contains("customers"), e.getMessage());
    assertRefusedReadOnly(file, "is not a SETree knowledge base");
  }

  @Test
  void otherApplicationIdIsRefused() throws SQLException {
    Path file = dir.resolve("other.db");
    exec(file, "CREATE TABLE things (x)", "PRAGMA application_id = 305419896");
    StoreFormatException e = assertRefused(file, "is not a SETree knowledge base");
    assertTrue(e.getMessage().contains("0x12345678"), e.getMessage());
  }

  @Test
  void newerFormatVersionIsRefusedNamingBothVersions() throws SQLException {
    Path file = storeWithNodes(10);
    exec(file, "PRAGMA user_version = 99");
    StoreFormatException e = assertRefused(file, "format version 99");
    assertTrue(e.getMessage().contains("version 2"), e.getMessage());
    assertRefusedReadOnly(file, "format version 99");
  }

  @Test
  void otherEmbedderModelIsRefusedNamingBoth() {
    Path file = storeWithNodes(10);
    StoreFormatException e = assertRefused(file, s -> SqliteTreeStore.open(s, "other-model", RandomTrees.DIM),
        "'" + MODEL + "'");
    assertTrue(e.getMessage().contains("'other-model'"), e.getMessage());
  }

  @Test
  void otherDimensionIsRefusedNamingBoth() {
    Path file = storeWithNodes(10);
    StoreFormatException e = assertRefused(file, s -> SqliteTreeStore.open(s, MODEL, 384), "dimension 8");
    assertTrue(e.getMessage().contains("384"), e.getMessage());
  }

  @Test
  void truncatedStoreIsRefused() throws IOException {
    Path file = storeWithNodes(400);
    long size = Files.size(file);
    assertTrue(size > 16 * 4096, "the store should span many pages, has " + size + " bytes");
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size / 2);
    }
    assertRefused(file, "truncated");
    assertRefusedReadOnly(file, "truncated");
  }

  @Test
  void corruptRootPageIsRefusedOnOpen() throws Exception {
    Path file = storeWithNodes(400);
    int rootPage;
    int pageSize;
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
        Statement st = c.createStatement()) {
      try (ResultSet rs = st.executeQuery("SELECT rootpage FROM sqlite_master WHERE name = 'nodes'")) {
        rs.next();
        rootPage = rs.getInt(1);
      }
      try (ResultSet rs = st.executeQuery("PRAGMA page_size")) {
        rs.next();
        pageSize = rs.getInt(1);
      }
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      byte[] garbage = new byte[pageSize];
      Arrays.fill(garbage, (byte) 0xA5);
      ch.write(ByteBuffer.wrap(garbage), (long) (rootPage - 1) * pageSize);
    }
    assertRefused(file, "is corrupt");
  }

  /**
   * Open checks the structure in time independent of the file's size and the load reads every row: a page
   * of garbage anywhere in a knowledge base is refused by one or the other, never loaded as a tree.
   */
  @Test
  void corruptPageAnywhereIsRefusedByOpenOrLoad() throws Exception {
    Path file = storeWithNodes(400);
    byte[] original = Files.readAllBytes(file);
    int pageSize = ByteBuffer.wrap(original, 16, 2).getShort() & 0xffff;
    int pages = original.length / pageSize;
    assertTrue(pages > 16, "the store should span many pages, has " + pages);
    Path copy = dir.resolve("copy.db");
    for (int page = 2; page <= pages; page++) { // page 1 holds the header, checked by its own tests
      byte[] bytes = original.clone();
      Arrays.fill(bytes, (page - 1) * pageSize, page * pageSize, (byte) 0xA5);
      Files.write(copy, bytes);
      StoreFormatException e = assertThrows(StoreFormatException.class, () -> {
        try (SqliteTreeStore store = SqliteTreeStore.openReadOnly(copy)) {
          store.load();
        }
      }, "page " + page + " of " + pages);
      assertTrue(e.getMessage().contains("corrupt"), "page " + page + ": " + e.getMessage());
    }
  }

  /** A leaf row that quotes leaves (only a summary quotes) is refused by the load, naming the file and the leaf. */
  @Test
  void aLeafThatQuotesLeavesIsRefusedOnLoad() throws Exception {
    Path file = storeWithNodes(40);
    exec(file, "UPDATE nodes SET sources = (SELECT sources FROM nodes WHERE sources IS NOT NULL LIMIT 1)"
        + " WHERE id = (SELECT id FROM nodes WHERE is_leaf = 1 ORDER BY id LIMIT 1)");
    StoreFormatException e = assertThrows(StoreFormatException.class, () -> {
      try (SqliteTreeStore store = SqliteTreeStore.openReadOnly(file)) {
        store.load();
      }
    });
    assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("quotes leaves: only a summary"
        + " quotes"), e.getMessage());
  }

  @Test
  void readOnlyOpenRefusesMissingAndEmptyFilesWithoutCreatingThem() throws IOException {
    Path missing = dir.resolve("missing.db");
    StoreException e = assertThrows(StoreException.class, () -> SqliteTreeStore.openReadOnly(missing));
    assertTrue(e.getMessage().contains(missing.toString()) && e.getMessage().contains("does not exist"),
        e.getMessage());
    assertTrue(Files.notExists(missing));
    assertEquals(List.of(), listing(dir));
    Path empty = Files.createFile(dir.resolve("empty.db"));
    assertRefusedReadOnly(empty, "is an empty file");
  }

  // ---------------------------------------------------------------------------------------------------

  /** A closed store of {@code leaves} leaves. */
  private Path storeWithNodes(int leaves) {
    Path file = dir.resolve("kb.db");
    Tree tree = RandomTrees.tree(5, leaves, RandomTrees.DIM, "n");
    try (SqliteTreeStore store = SqliteTreeStore.open(file, MODEL, RandomTrees.DIM)) {
      store.saveTreeWithHierarchy(tree, leaves > 1 ? RandomTrees.hierarchy(tree, 5) : HierarchyState.empty(), 0);
    }
    return file;
  }

  private StoreFormatException assertRefused(Path file, String problem) {
    return assertRefused(file, s -> SqliteTreeStore.open(s, MODEL, RandomTrees.DIM), problem);
  }

  private StoreFormatException assertRefusedReadOnly(Path file, String problem) {
    return assertRefused(file, SqliteTreeStore::openReadOnly, problem);
  }

  private StoreFormatException assertRefused(Path file, Function<Path, SqliteTreeStore> opener, String problem) {
    try {
      String hash = sha256(file);
      FileTime mtime = Files.getLastModifiedTime(file);
      List<String> files = listing(dir);
      StoreFormatException e = assertThrows(StoreFormatException.class, () -> opener.apply(file).close());
      assertTrue(e.getMessage().contains(file.toAbsolutePath().toString()), "names the file: " + e.getMessage());
      assertTrue(e.getMessage().contains(problem), "names the problem '" + problem + "': " + e.getMessage());
      assertEquals(hash, sha256(file), "file bytes changed");
      assertEquals(mtime, Files.getLastModifiedTime(file), "file modification time changed");
      assertEquals(files, listing(dir), "files appeared or vanished");
      return e;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static void exec(Path file, String... sql) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement st = c.createStatement()) {
      for (String s : sql) {
        st.execute(s);
      }
    }
  }
}

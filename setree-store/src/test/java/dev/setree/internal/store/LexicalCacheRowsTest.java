package dev.setree.internal.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.setree.internal.core.TreeStore;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cached BM25 index's tables (ADR 0030): absent until the first write, replaced whole by each write, read
 * back byte for byte, also read-only, and absent from a version-1 file.
 */
class LexicalCacheRowsTest {
  @TempDir Path dir;

  @Test
  void writtenReplacedAndReadBack() {
    Path file = dir.resolve("kb.db");
    Map<String, byte[]> first = new LinkedHashMap<>();
    first.put("_0.doc", new byte[] {1, 2, 3});
    first.put("segments_1", new byte[] {9});
    first.put("empty", new byte[0]);
    Map<String, byte[]> second = Map.of("_1.doc", new byte[] {4, 5}, "segments_2", new byte[] {8, 7});
    try (SqliteTreeStore store = SqliteTreeStore.open(file, "m", 4)) {
      assertNull(store.lexicalCache());
      assertEquals(-1, store.lexicalCacheSeq("f1"));
      store.appendMutation(new TreeStore.Mutation(0, TreeStore.Mutation.Kind.INSERT, "a", "some text", null));
      long bytes = store.saveLexicalCache("f1", first);
      assertEquals(6 + 3 + 10 + 1 + 5 + 0 + 2, bytes, "names, contents and the format");
      LexicalCache c = store.lexicalCache();
      assertEquals("f1", c.format());
      assertEquals(1, c.lastSeq());
      assertEquals(first.keySet(), c.files().keySet());
      for (String name : first.keySet()) {
        assertArrayEquals(first.get(name), c.files().get(name), name);
      }
      assertEquals(1, store.lexicalCacheSeq("f1"));
      assertEquals(-1, store.lexicalCacheSeq("f2"), "a copy of another format is no copy");
      store.appendMutation(new TreeStore.Mutation(0, TreeStore.Mutation.Kind.DELETE, "a", null, null));
      store.saveLexicalCache("f2", second);
    }
    try (SqliteTreeStore ro = SqliteTreeStore.openReadOnly(file)) {
      LexicalCache c = ro.lexicalCache();
      assertEquals("f2", c.format());
      assertEquals(2, c.lastSeq());
      assertEquals(second.keySet(), c.files().keySet(), "the second write replaced the first");
      assertArrayEquals(new byte[] {8, 7}, c.files().get("segments_2"));
      assertThrows(IllegalStateException.class, () -> ro.saveLexicalCache("f3", Map.of()));
    }
  }

  @Test
  void versionOneFileHasNoCache() throws Exception {
    Path file = dir.resolve("v1.db");
    try (InputStream in = LexicalCacheRowsTest.class.getResourceAsStream("/fixtures/v1-small.db")) {
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
    }
    try (SqliteTreeStore ro = SqliteTreeStore.openReadOnly(file)) {
      assertNull(ro.lexicalCache());
      assertEquals(-1, ro.lexicalCacheSeq("f1"));
    }
  }
}

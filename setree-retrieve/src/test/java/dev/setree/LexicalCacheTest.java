package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.store.LexicalCache;
import dev.setree.internal.store.SqliteTreeStore;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.TempKnowledgeBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The BM25 index cached in the knowledge base (ADR 0030), on real SQLite files: written by a build, read by
 * open, brought to the tree when it lags, ignored when damaged or of another format, and replaced by the next
 * writer then.
 */
@ExtendWith(TempKnowledgeBase.class)
class LexicalCacheTest {
  private static final List<String> PROMPTS = List.of("Anna plays piano every weekend", "who visits kyoto",
      "the zebra crossing near the harbour", "Chen codes rust at night");

  @Test
  void openReadsTheCopyAndGivesWhatIndexingGives(@TempKnowledgeBase.File Path kb) throws Exception {
    try (SETree t = SETree.open(kb, SETreeTest.config(null))) {
      t.build(Corpora.synthetic(300, 11), BuildProgress.NONE);
    }
    LexicalCache cache = cache(kb);
    assertNotNull(cache, "a build caches the index");
    assertEquals(CachedLexicalIndex.FORMAT, cache.format());
    Path plain = copyWithout(kb, "DELETE FROM lexical_index");
    assertContextsEqual(kb, plain);

    // Mutations after the copy: open brings it to the tree (the copy lags by fewer than cacheLag mutations).
    List<String> texts = List.of("Zed keeps a zebra called Quincy near the harbour", "Anna sold her piano");
    try (SETree t = SETree.open(kb, SETreeTest.config(null))) {
      t.insert(Fact.of("z1", texts.get(0)));
      t.insert(Fact.of("z2", texts.get(1)));
      t.delete(t.tree().id(5));
      t.awaitMaintenance().get(2, TimeUnit.MINUTES);
    }
    assertEquals(cache.lastSeq(), cache(kb).lastSeq(), "three mutations do not replace the copy");
    try (SETree t = SETree.open(kb, SETreeTest.config(null))) {
      LexicalIndex index = t.currentSnapshot().lexical();
      assertEquals(t.tree().leafCount(), index.documents(), "one document per leaf");
      Context c = t.retrieve("zebra called Quincy", 40);
      assertTrue(c.text().contains(texts.get(0)), c.text());
    }
    assertContextsEqual(kb, copyWithout(kb, "DELETE FROM lexical_index"));
  }

  @Test
  void damagedOrForeignCopiesAreIgnoredAndReplaced(@TempKnowledgeBase.File Path kb) throws Exception {
    try (SETree t = SETree.open(kb, SETreeTest.config(null))) {
      t.build(Corpora.synthetic(200, 12), BuildProgress.NONE);
    }
    Path plain = copyWithout(kb, "DELETE FROM lexical_index");
    Path damaged = copyWithout(kb, "UPDATE lexical_files SET data = zeroblob(length(data)) WHERE name LIKE '%.doc'");
    Path foreign = copyWithout(kb, "UPDATE lexical_index SET format = 'some other format'");
    assertContextsEqual(damaged, plain);
    assertContextsEqual(foreign, plain);
    for (Path f : List.of(foreign, plain)) {
      try (SETree t = SETree.open(f, SETreeTest.config(null))) {
        t.insert(Fact.of("z1", "Zed keeps a zebra near the harbour"));
        t.awaitMaintenance().get(2, TimeUnit.MINUTES);
      }
      assertEquals(CachedLexicalIndex.FORMAT, cache(f).format(), f + ": the next run writes a copy");
    }
  }

  /**
   * A reader that follows another writer's commits takes its BM25 index from the copy too: one document per leaf
   * of the new tree, and the contexts a fresh open gives.
   */
  @Test
  void aFollowerMatchesTheCopyToTheNewTree(@TempKnowledgeBase.File Path kb) throws Exception {
    List<String> contexts = new java.util.ArrayList<>();
    try (SETree writer = SETree.open(kb, SETreeTest.config(null))) {
      writer.build(Corpora.synthetic(250, 13), BuildProgress.NONE);
      try (SETree reader = SETree.openReadOnly(kb, SETreeTest.config(null))) {
        writer.insert(Fact.of("z1", "Zed keeps a zebra called Quincy near the harbour"));
        writer.delete(writer.tree().id(3));
        writer.awaitMaintenance().get(2, TimeUnit.MINUTES);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (reader.tree().indexOf("z1") < 0 && System.nanoTime() < deadline) {
          reader.retrieve("zebra", 32);
          Thread.sleep(20);
        }
        assertTrue(reader.tree().indexOf("z1") >= 0, "the reader loaded the writer's new generation");
        LexicalIndex index = reader.currentSnapshot().lexical();
        assertEquals(reader.tree().leafCount(), index.documents(), "one document per leaf");
        assertEquals(1, index.deletedDocuments(), "the build's copy with the deleted leaf's document deleted");
        assertTrue(index.leafTerms().distinctTerms(reader.tree().indexOf("z1")) > 0);
        for (String p : PROMPTS) {
          contexts.add(reader.retrieve(p, 200).text());
        }
      }
    }
    Path plain = copyWithout(kb, "DELETE FROM lexical_index");
    try (SETree fresh = SETree.openReadOnly(plain, SETreeTest.config(null))) {
      for (int i = 0; i < PROMPTS.size(); i++) {
        assertEquals(fresh.retrieve(PROMPTS.get(i), 200).text(), contexts.get(i), PROMPTS.get(i));
      }
    }
  }

  private static LexicalCache cache(Path kb) {
    try (SqliteTreeStore s = SqliteTreeStore.openReadOnly(kb)) {
      return s.lexicalCache();
    }
  }

  /** A copy of {@code kb} with {@code sql} run on it. */
  private static Path copyWithout(Path kb, String sql) throws Exception {
    Path copy = Files.createTempFile(kb.getParent(), "copy", ".db");
    Files.copy(kb, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + copy); Statement st = c.createStatement()) {
      assertFalse(st.executeUpdate(sql) == 0, sql);
    }
    return copy;
  }

  private static void assertContextsEqual(Path a, Path b) {
    try (SETree x = SETree.open(a, SETreeTest.config(null)); SETree y = SETree.open(b, SETreeTest.config(null))) {
      for (String p : PROMPTS) {
        for (int budget : new int[] {40, 200}) {
          assertEquals(y.retrieve(p, budget).text(), x.retrieve(p, budget).text(), p + " @" + budget);
        }
      }
    }
  }
}

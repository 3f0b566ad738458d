package dev.setree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.Tree;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

/**
 * The BM25 top hits searched in several ranges of documents on several threads equal Lucene's one-thread
 * search of the same index: the same leaves, scores, order (ties by document) and completeness, for random
 * corpora with many tied scores, before and after the deletes and additions of maintenance runs.
 */
class ParallelTopHitsTest {
  /** Few words, drawn skewed, so that postings are long and scores tie often. */
  private static final String[] WORDS = {"union", "state", "congress", "war", "peace", "tax", "nation",
      "economy", "the", "our", "we", "people", "america", "work", "jobs", "freedom", "world", "year", "new",
      "rare", "oddity", "unique"};
  private static final int[] KS = {1, 2, 7, 10, 64, 512};
  private static final int[] RANGES = {2, 3, 4, 7};

  @Test
  void splitSearchEqualsOneThreadBeforeAndAfterMaintenanceRuns() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    int checks = 0;
    int skipping = 0;
    int complete = 0;
    for (int corpus = 0; corpus < 6; corpus++) {
      int n = corpus == 0 ? 1 : corpus == 5 ? 12_000 : 1 + r.nextInt(3000);
      List<String> ids = new ArrayList<>();
      List<String> texts = new ArrayList<>();
      int next = 0;
      for (int v = 0; v < n; v++) {
        ids.add("s" + next++);
        texts.add(text(r, texts));
      }
      Tree tree = SnapshotNextTest.tree(ids, texts);
      LexicalIndex index = LexicalIndex.of(tree);
      for (int run = 0; run < 5; run++) {
        String at = "seed=" + seed + " corpus " + corpus + " run " + run + " (" + tree.leafCount() + " leaves)";
        for (int q = 0; q < 12; q++) {
          String prompt = text(r, List.of()) + " " + text(r, List.of());
          LexicalIndex.Prompt p = index.prompt(prompt);
          for (int k : KS) {
            LexicalIndex.Top one = p.top(k, 1);
            complete += one.complete() ? 1 : 0;
            for (int ranges : RANGES) {
              LexicalIndex.Top split = p.top(k, ranges);
              String ctx = at + " '" + prompt + "' k=" + k + " ranges=" + ranges;
              assertArrayEquals(one.leaves(), split.leaves(), ctx + ": leaves");
              assertArrayEquals(one.scores(), split.scores(), ctx + ": scores");
              assertEquals(one.complete(), split.complete(), ctx + ": complete");
              checks++;
            }
            for (int seedDocs : new int[] {k + 1, 2 * k + 5, 40 * k}) { // EXPERIMENT: seeded thresholds
              for (int ranges : new int[] {1, 2}) {
                LexicalIndex.Top seeded = p.top(k, ranges, seedDocs);
                String ctx = at + " '" + prompt + "' k=" + k + " seeded " + seedDocs + " ranges=" + ranges;
                assertArrayEquals(one.leaves(), seeded.leaves(), ctx + ": leaves");
                assertArrayEquals(one.scores(), seeded.scores(), ctx + ": scores");
                assertEquals(one.complete(), seeded.complete(), ctx + ": complete");
              }
            }
          }
        }
        // A maintenance run: some leaves deleted, some added (new ids, some with the texts of others).
        List<Integer> gone = new ArrayList<>();
        List<String> nextIds = new ArrayList<>();
        List<String> nextTexts = new ArrayList<>();
        for (int v = 0; v < tree.leafCount(); v++) {
          if (r.nextInt(10) == 0) {
            gone.add(v);
          } else {
            nextIds.add(tree.id(v));
            nextTexts.add(tree.text(v));
          }
        }
        List<Integer> added = new ArrayList<>();
        for (int a = r.nextInt(1 + tree.leafCount() / 5); a >= 0; a--) {
          added.add(nextIds.size());
          nextIds.add("s" + next++);
          nextTexts.add(text(r, nextTexts));
        }
        Tree nextTree = SnapshotNextTest.tree(nextIds, nextTexts);
        index = index.next(tree, gone, nextTree, added);
        tree = nextTree;
      }
    }
    assertTrue(checks > 1000, "checks: " + checks);
    assertTrue(complete > 0, "no complete top hits were compared");
    // Skipping is on in the split search (else the thresholds' ties go untested): count it directly.
    skipping = skippingSearches(r);
    assertTrue(skipping > 0, "seed=" + seed + ": no split search skipped documents");
  }

  /** How many split searches of a several-segment index with deletions skipped documents (and were right). */
  private static int skippingSearches(Random r) {
    try (EnglishAnalyzer analyzer = new EnglishAnalyzer();
        IndexWriter w = new IndexWriter(new ByteBuffersDirectory(),
            new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity())
                .setMergePolicy(NoMergePolicy.INSTANCE))) {
      List<String> texts = new ArrayList<>();
      for (int v = 0; v < 20_000; v++) {
        texts.add(text(r, texts));
        w.addDocument(LexicalIndex.document("s" + v, texts.get(v)));
        if (v % 3_333 == 3_332) {
          w.flush(); // several segments, of unequal sizes
        }
      }
      for (int v = 0; v < 20_000; v += 1 + r.nextInt(40)) {
        w.deleteDocuments(new Term("id", "s" + v));
      }
      int skipping = 0;
      try (DirectoryReader reader = DirectoryReader.open(w)) {
        assertTrue(reader.leaves().size() > 3);
        IndexSearcher searcher = new IndexSearcher(reader);
        searcher.setSimilarity(new BM25Similarity());
        for (int q = 0; q < 30; q++) {
          Query query = query(analyzer, text(r, List.of()) + " " + text(r, List.of()));
          for (int k : KS) {
            TopDocs expected = searcher.search(query, k);
            for (int ranges : RANGES) {
              TopDocs actual = ParallelTopHits.search(searcher, query, k, ranges);
              String ctx = query + " k=" + k + " ranges=" + ranges;
              assertEquals(expected.scoreDocs.length, actual.scoreDocs.length, ctx);
              for (int i = 0; i < expected.scoreDocs.length; i++) {
                assertEquals(expected.scoreDocs[i].doc, actual.scoreDocs[i].doc, ctx + " hit " + i);
                assertEquals(expected.scoreDocs[i].score, actual.scoreDocs[i].score, ctx + " hit " + i);
              }
              if (expected.totalHits.relation == TotalHits.Relation.EQUAL_TO && expected.totalHits.value <= k) {
                assertEquals(expected.totalHits, actual.totalHits, ctx);
              }
              skipping += actual.totalHits.relation == TotalHits.Relation.EQUAL_TO ? 0 : 1;
            }
          }
        }
      }
      return skipping;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static Query query(EnglishAnalyzer analyzer, String prompt) throws IOException {
    Set<String> terms = new LinkedHashSet<>();
    try (TokenStream ts = analyzer.tokenStream("text", prompt)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        terms.add(term.toString());
      }
      ts.end();
    }
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (String t : terms) {
      b.add(new TermQuery(new Term("text", t)), BooleanClause.Occur.SHOULD);
    }
    return b.build();
  }

  /** A random text; one in eight repeats an earlier one (equal scores), one in fifty is empty. */
  private static String text(Random r, List<String> earlier) {
    if (!earlier.isEmpty() && r.nextInt(8) == 0) {
      return earlier.get(r.nextInt(earlier.size()));
    }
    if (r.nextInt(50) == 0) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    for (int w = 1 + r.nextInt(10); w > 0; w--) {
      double u = r.nextDouble();
      b.append(WORDS[(int) (WORDS.length * u * u * u)]).append(' '); // skewed towards the first words
    }
    return b.toString().strip();
  }
}

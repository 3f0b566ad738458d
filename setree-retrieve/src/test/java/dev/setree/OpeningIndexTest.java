package dev.setree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.setree.internal.core.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.junit.jupiter.api.Test;

/**
 * The BM25 index open builds on a second thread from the leaf rows it is told equals the index built from the
 * tree: the same scores, top hits and forward index, also when the rows told are not the tree's leaves.
 */
class OpeningIndexTest {
  private static final String[] WORDS = {"union", "unions", "state", "states", "congress", "war", "peace",
      "tax", "taxes", "the", "of", "and", "nation's", "economy", "economic", "café", "1999", "running", "ran"};

  @Test
  void streamedIndexEqualsTheIndexOfTheTree() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    for (int round = 0; round < 9; round++) {
      int n = round == 0 ? 0 : 2 + r.nextInt(round == 8 ? 3000 : 400); // 0 leaves, a few, several batches
      List<String> ids = new ArrayList<>();
      List<String> texts = new ArrayList<>();
      for (int v = 0; v < n; v++) {
        ids.add("s" + v);
        texts.add(text(r));
      }
      Tree tree = n == 0 ? Tree.empty(2) : SnapshotNextTest.tree(ids, texts);
      String at = "seed=" + seed + " round " + round;
      // 0: the leaves in order (the load's case); 1: one missing; 2: two swapped; 3: none told
      int mode = round % 4;
      OpeningIndex opening = new OpeningIndex();
      for (int v = 0; v < n; v++) {
        if (mode == 1 && v == n / 2) {
          continue;
        }
        int w = mode == 2 && v < 2 ? 1 - v : v;
        if (mode != 3) {
          opening.leaf(ids.get(w), texts.get(w));
        }
      }
      opening.tree(tree);
      LexicalIndex streamed = opening.index();
      LexicalIndex built = LexicalIndex.of(tree);
      for (int q = 0; q < 20; q++) {
        CachedLexicalIndexTest.assertSameScores(built, streamed, text(r) + " " + text(r), at);
      }
      for (int v = 0; v < tree.leafCount(); v++) {
        LeafTerms x = built.leafTerms();
        LeafTerms y = streamed.leafTerms();
        assertEquals(x.norm(v), y.norm(v), at + " leaf " + v);
        assertEquals(x.distinctTerms(v), y.distinctTerms(v), at + " leaf " + v);
      }
    }
  }

  /** Leaving positions out of the index (ADR 0025) changes no BM25 score: an index with them scores alike. */
  @Test
  void scoresEqualThoseOfAnIndexWithPositions() throws Exception {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    List<String> ids = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    for (int v = 0; v < 1500; v++) {
      ids.add("s" + v);
      texts.add(text(r));
    }
    Tree tree = SnapshotNextTest.tree(ids, texts);
    LexicalIndex index = LexicalIndex.of(tree);
    try (EnglishAnalyzer analyzer = new EnglishAnalyzer();
        IndexWriter w = new IndexWriter(new ByteBuffersDirectory(),
            new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity()))) {
      for (String t : texts) {
        Document d = new Document();
        d.add(new TextField("text", t, Field.Store.NO)); // positions, as before ADR 0025
        w.addDocument(d);
      }
      w.forceMerge(1);
      try (DirectoryReader reader = DirectoryReader.open(w)) {
        IndexSearcher searcher = new IndexSearcher(reader);
        searcher.setSimilarity(new BM25Similarity());
        for (int q = 0; q < 40; q++) {
          String prompt = text(r) + " " + text(r);
          BooleanQuery.Builder b = new BooleanQuery.Builder();
          java.util.Set<String> terms = new java.util.LinkedHashSet<>();
          try (TokenStream ts = analyzer.tokenStream("text", prompt)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
              terms.add(term.toString());
            }
            ts.end();
          }
          for (String t : terms) {
            b.add(new TermQuery(new Term("text", t)), BooleanClause.Occur.SHOULD);
          }
          float[] expected = new float[texts.size()];
          for (ScoreDoc d : searcher.search(b.build(), texts.size()).scoreDocs) {
            expected[d.doc] = d.score;
          }
          float[] actual = new float[texts.size()];
          index.scores(prompt, actual);
          assertArrayEquals(expected, actual, "seed=" + seed + " '" + prompt + "'");
        }
      }
    }
  }

  @Test
  void abandonedOrUnfinishedStreamsEnd() {
    OpeningIndex abandoned = new OpeningIndex();
    abandoned.leaf("a", "some text");
    abandoned.abandon();
    abandoned.abandon(); // idempotent
    OpeningIndex untold = new OpeningIndex();
    assertThrows(IllegalStateException.class, untold::index);
  }

  private static String text(Random r) {
    StringBuilder b = new StringBuilder();
    for (int w = 1 + r.nextInt(8); w > 0; w--) {
      b.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
    }
    return b.toString().strip();
  }
}

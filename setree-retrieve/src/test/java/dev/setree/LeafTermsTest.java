package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.Tree;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.Test;

/**
 * The forward index that open reads back from the BM25 index's postings holds what analysing every leaf again
 * holds: per leaf the same norm, the same distinct terms and the same frequency of each.
 */
class LeafTermsTest {
  private static final String[] WORDS = {"union", "unions", "state", "states", "congress", "congressional",
      "war", "wars", "peace", "tax", "taxes", "taxation", "the", "of", "and", "nation's", "nations", "café",
      "naïve", "1999", "2001", "mr.", "smith", "smiths", "x\uD800y", "\uDC00lone", "\uD83D\uDE00ok", "running",
      "runs", "ran", "economy", "economic", "economies"};

  @Test
  void forwardIndexFromThePostingsEqualsTheAnalysedOne() throws IOException {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    List<String> texts = new ArrayList<>();
    texts.add("the of and"); // stop words only: no term, norm 0
    texts.add("?!"); // no token at all
    StringBuilder longText = new StringBuilder();
    for (int i = 0; i < 90_000; i++) {
      longText.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
    }
    texts.add(longText.toString()); // a norm byte above 127
    for (int i = 0; i < 3000; i++) {
      StringBuilder b = new StringBuilder();
      for (int w = 1 + r.nextInt(30); w > 0; w--) {
        b.append(WORDS[r.nextInt(WORDS.length)]).append(r.nextInt(5) == 0 ? ", " : " ");
      }
      texts.add(b.toString().strip());
    }
    texts.add(texts.get(7)); // a duplicate text
    Tree tree = leavesUnderRoot(texts);
    LexicalIndex index = LexicalIndex.of(tree);
    try (Analyzer analyzer = new EnglishAnalyzer()) {
      LeafTerms analysed = LeafTerms.of(tree, analyzer, "text");
      LeafTerms read = index.leafTerms();
      int norms = 0;
      for (int v = 0; v < tree.leafCount(); v++) {
        String ctx = "seed=" + seed + " leaf " + v + " '" + tree.text(v) + "'";
        assertEquals(analysed.norm(v), read.norm(v), ctx + ": norm");
        norms += read.norm(v) > 127 ? 1 : 0;
        Map<String, Integer> terms = terms(analyzer, tree.text(v));
        assertEquals(terms.size(), analysed.distinctTerms(v), ctx);
        assertEquals(analysed.distinctTerms(v), read.distinctTerms(v), ctx + ": distinct terms");
        for (Map.Entry<String, Integer> t : terms.entrySet()) {
          assertEquals(t.getValue(), analysed.freq(v, analysed.termId(t.getKey())), ctx + " " + t.getKey());
          assertEquals(t.getValue(), read.freq(v, read.termId(t.getKey())), ctx + ": term " + t.getKey());
        }
      }
      assertTrue(norms > 0, "no leaf long enough for a norm byte above 127");
      assertEquals(0, read.distinctTerms(0));
      assertEquals(0, read.distinctTerms(1));
      // A later version analyses its new leaves into the same dictionary.
      List<String> more = new ArrayList<>(texts);
      more.add("x\uD800y \uDC00lone taxes fresh");
      Tree next = leavesUnderRoot(more);
      LeafTerms after = index.next(tree, List.of(), next, List.of(texts.size()), true).leafTerms();
      int v = texts.size();
      for (Map.Entry<String, Integer> t : terms(analyzer, more.get(v)).entrySet()) {
        assertTrue(t.getKey().equals("fresh") || after.termId(t.getKey()) == read.termId(t.getKey()), t.getKey());
        assertEquals(t.getValue(), after.freq(v, after.termId(t.getKey())), "new leaf, term " + t.getKey());
      }
    }
  }

  /**
   * An index of several segments (flushed every few documents, in shuffled order): the entries read back are
   * sorted by term id and equal the analysed ones.
   */
  @Test
  void forwardIndexFromSeveralSegments() throws IOException {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      StringBuilder b = new StringBuilder();
      b.append("aaa").append(i).append(' '); // a term of its own, before the shared ones in term order
      for (int w = 1 + r.nextInt(12); w > 0; w--) {
        b.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
      }
      texts.add(b.toString().strip());
    }
    Tree tree = leavesUnderRoot(texts);
    List<Integer> order = new ArrayList<>();
    for (int v = 0; v < texts.size(); v++) {
      order.add(v);
    }
    java.util.Collections.shuffle(order, r);
    try (Analyzer analyzer = new EnglishAnalyzer();
        org.apache.lucene.store.ByteBuffersDirectory dir = new org.apache.lucene.store.ByteBuffersDirectory();
        org.apache.lucene.index.IndexWriter w = new org.apache.lucene.index.IndexWriter(dir,
            new org.apache.lucene.index.IndexWriterConfig(analyzer)
                .setMergePolicy(org.apache.lucene.index.NoMergePolicy.INSTANCE))) {
      for (int x = 0; x < order.size(); x++) {
        org.apache.lucene.document.Document d = new org.apache.lucene.document.Document();
        d.add(new org.apache.lucene.document.TextField("text", texts.get(order.get(x)),
            org.apache.lucene.document.Field.Store.NO));
        d.add(new org.apache.lucene.document.NumericDocValuesField("leaf", order.get(x)));
        w.addDocument(d);
        if (x % 37 == 36) {
          w.flush();
        }
      }
      try (org.apache.lucene.index.DirectoryReader reader = org.apache.lucene.index.DirectoryReader.open(w)) {
        assertTrue(reader.leaves().size() > 3, "segments: " + reader.leaves().size());
        LeafTerms read = LeafTerms.fromIndex(texts.size(), reader, "text", segment -> {
          int[] leaves = new int[segment.maxDoc()];
          org.apache.lucene.index.NumericDocValues dv = segment.getNumericDocValues("leaf");
          for (int doc = 0; doc < leaves.length; doc++) {
            leaves[doc] = dv.advanceExact(doc) ? (int) dv.longValue() : -1;
          }
          return leaves;
        });
        LeafTerms analysed = LeafTerms.of(tree, analyzer, "text");
        for (int v = 0; v < texts.size(); v++) {
          String ctx = "seed=" + seed + " leaf " + v;
          assertEquals(analysed.norm(v), read.norm(v), ctx);
          assertEquals(analysed.distinctTerms(v), read.distinctTerms(v), ctx);
          for (Map.Entry<String, Integer> t : terms(analyzer, texts.get(v)).entrySet()) {
            assertEquals(t.getValue(), read.freq(v, read.termId(t.getKey())), ctx + ": term " + t.getKey());
          }
        }
      }
    }
  }

  private static Map<String, Integer> terms(Analyzer analyzer, String text) throws IOException {
    Map<String, Integer> out = new LinkedHashMap<>();
    try (TokenStream ts = analyzer.tokenStream("text", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.merge(term.toString(), 1, Integer::sum);
      }
      ts.end();
    }
    return out;
  }

  /** A tree of the texts as leaves {@code l0, l1, ...} under one root (unit embeddings, dimension 2). */
  private static Tree leavesUnderRoot(List<String> texts) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      ids.add("l" + i);
    }
    return SnapshotNextTest.tree(ids, texts);
  }
}

package dev.setree;

import dev.setree.core.Tree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * BM25 over a snapshot's leaves (Apache Lucene, {@link EnglishAnalyzer}, {@link BM25Similarity} with its
 * defaults k1 = 1.2, b = 0.75), held in memory beside the snapshot. It supplies the lexical half of leaf
 * relevance and the {@code bm25} evaluation baseline. Read-only after construction; thread-safe.
 */
final class LexicalIndex {
  private static final String FIELD = "text";
  private static final String IDX = "idx";

  private final Analyzer analyzer = new EnglishAnalyzer();
  private final IndexSearcher searcher;
  private final int leaves;

  LexicalIndex(Tree tree) {
    this.leaves = tree.leafCount();
    try {
      ByteBuffersDirectory dir = new ByteBuffersDirectory();
      IndexWriterConfig cfg = new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity());
      cfg.setRAMBufferSizeMB(256);
      try (IndexWriter w = new IndexWriter(dir, cfg)) {
        for (int v = 0; v < leaves; v++) {
          Document d = new Document();
          d.add(new TextField(FIELD, tree.text(v), Field.Store.NO));
          d.add(new NumericDocValuesField(IDX, v));
          w.addDocument(d);
        }
        w.commit();
      }
      IndexSearcher s = new IndexSearcher(DirectoryReader.open(dir));
      s.setSimilarity(new BM25Similarity());
      this.searcher = s;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot index leaves for BM25", e);
    }
  }

  /**
   * BM25 score of every leaf for the prompt (0 where no term matches), in {@code out} (length = leaves).
   *
   * @return the highest score (0 when nothing matches)
   */
  float scores(String prompt, float[] out) {
    java.util.Arrays.fill(out, 0f);
    Set<String> terms = terms(prompt);
    if (terms.isEmpty() || leaves == 0) {
      return 0f;
    }
    BooleanQuery.Builder q = new BooleanQuery.Builder();
    for (String t : terms) {
      q.add(new TermQuery(new Term(FIELD, t)), BooleanClause.Occur.SHOULD);
    }
    float[] max = {0f};
    try {
      searcher.search(q.build(), new SimpleCollector() {
        private Scorable scorer;
        private NumericDocValues idx;

        @Override
        public void setScorer(Scorable scorer) {
          this.scorer = scorer;
        }

        @Override
        protected void doSetNextReader(LeafReaderContext context) throws IOException {
          idx = context.reader().getNumericDocValues(IDX);
        }

        @Override
        public void collect(int doc) throws IOException {
          if (idx.advanceExact(doc)) {
            float s = scorer.score();
            out[(int) idx.longValue()] = s;
            if (s > max[0]) {
              max[0] = s;
            }
          }
        }

        @Override
        public ScoreMode scoreMode() {
          return ScoreMode.COMPLETE;
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException("BM25 search failed", e);
    }
    return max[0];
  }

  private Set<String> terms(String prompt) {
    Set<String> terms = new LinkedHashSet<>();
    try (TokenStream ts = analyzer.tokenStream(FIELD, prompt)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        terms.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return terms;
  }
}

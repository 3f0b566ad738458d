package dev.setree;

import dev.setree.internal.core.Ranking;
import java.io.IOException;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.BM25Similarity;

/**
 * Lucene's searcher over a BM25 index version's reader, whose statistics also count the version's tail: the
 * leaves {@code [from, to)} whose documents the shared writer holds but the reader does not show yet
 * ({@link LexicalIndex#next}). The tail's counts come from the forward index ({@link LeafTerms}), so the
 * statistics (documents with the field, total and distinct term frequencies, each term's document and total
 * frequency) are those of one reader over every leaf, and the reader's documents score as they would there.
 * Without a tail it is Lucene's searcher unchanged.
 */
final class TailSearcher extends IndexSearcher {
  private final LeafTerms terms;
  private final int from;
  private final int to;
  /** The tail's leaves that hold a term, their total term frequency and their distinct terms. */
  private final long docCount;
  private final long sumTotalTermFreq;
  private final long sumDocFreq;

  TailSearcher(IndexReader reader, LeafTerms terms, int from, int to) {
    super(reader);
    setSimilarity(new BM25Similarity());
    this.terms = terms;
    this.from = from;
    this.to = to;
    long docs = 0;
    long total = 0;
    long distinct = 0;
    for (int v = from; v < to; v++) {
      int d = terms.distinctTerms(v);
      docs += d > 0 ? 1 : 0;
      distinct += d;
      total += terms.totalFreq(v);
    }
    this.docCount = docs;
    this.sumTotalTermFreq = total;
    this.sumDocFreq = distinct;
  }

  /** How many leaves the tail holds. */
  int tailSize() {
    return to - from;
  }

  /** The first leaf of the tail (the end of the leaves the reader shows). */
  int tailStart() {
    return from;
  }

  /** The documents of the reader and the tail, deleted ones included (Lucene's {@code maxDoc}). */
  int maxDoc() {
    return getIndexReader().maxDoc() + tailSize();
  }

  /** How many leaves of the tail hold {@code term} (of the text field). */
  int tailDocFreq(String term) {
    return to == from ? 0 : (int) tailFreqs(term)[0];
  }

  @Override
  public CollectionStatistics collectionStatistics(String field) throws IOException {
    CollectionStatistics reader = super.collectionStatistics(field);
    if (to == from || !field.equals(LeafDocument.FIELD)) {
      return reader;
    }
    if (reader == null) {
      return docCount == 0 ? null
          : new CollectionStatistics(field, maxDoc(), docCount, sumTotalTermFreq, sumDocFreq);
    }
    return new CollectionStatistics(field, maxDoc(), reader.docCount() + docCount,
        reader.sumTotalTermFreq() + sumTotalTermFreq, reader.sumDocFreq() + sumDocFreq);
  }

  /**
   * The term's statistics over the reader ({@code docFreq}, {@code totalTermFreq}, which may be 0 for a term
   * only the tail holds) and the tail; the sum's document frequency must be positive.
   */
  @Override
  public TermStatistics termStatistics(Term term, int docFreq, long totalTermFreq) throws IOException {
    if (to == from || !term.field().equals(LeafDocument.FIELD)) {
      return super.termStatistics(term, docFreq, totalTermFreq);
    }
    long[] tail = tailFreqs(term.text());
    return new TermStatistics(term.bytes(), docFreq + tail[0], totalTermFreq + tail[1]);
  }

  /** The tail's leaves that match, best first (ties in leaf order), with their scores. */
  BestHits tailTop(LeafScorer scorer) {
    long[] keyed = new long[to - from];
    int n = 0;
    for (int v = from; v < to; v++) {
      float s = scorer.score(v);
      if (s > 0f) {
        keyed[n++] = Ranking.key(s, v); // score down, then leaf up
      }
    }
    java.util.Arrays.sort(keyed, 0, n);
    int[] leaves = new int[n];
    float[] scores = new float[n];
    for (int i = 0; i < n; i++) {
      leaves[i] = Ranking.index(keyed[i]);
      scores[i] = Ranking.score(keyed[i]);
    }
    return new BestHits(leaves, scores, true);
  }

  /** The tail's document frequency and total frequency of {@code term}. */
  private long[] tailFreqs(String term) {
    long df = 0;
    long ttf = 0;
    int id = to == from ? -1 : terms.termId(term);
    for (int v = from; v < to && id >= 0; v++) {
      int f = terms.freq(v, id);
      if (f > 0) {
        df++;
        ttf += f;
      }
    }
    return new long[] {df, ttf};
  }
}

package dev.setree;

import dev.setree.internal.core.Tree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TermStates;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.CollectionStatistics;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.SimpleCollector;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermStatistics;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;

/**
 * BM25 over a snapshot's leaves (Apache Lucene, {@link EnglishAnalyzer}, {@link BM25Similarity} with its
 * defaults k1 = 1.2, b = 0.75), held in memory beside the snapshot. It supplies the lexical half of leaf
 * relevance and the {@code bm25} evaluation baseline.
 *
 * <p>The index follows mutations instead of being rebuilt: {@link #next} deletes the documents of leaves
 * that are gone and adds those of new leaves through one {@link IndexWriter} shared by the versions, and
 * opens a near-real-time reader, so its cost grows with the change, not with the knowledge base. Each
 * version is a point-in-time view bound to its tree; versions are read-only and thread-safe. Until Lucene
 * merges them away, deleted documents still count in BM25's collection statistics (document count and
 * mean length), so scores after many deletions differ slightly from those of an index built afresh.
 */
final class LexicalIndex {
  /** Distinct prompt terms queried at most (Lucene refuses a query of more than 1024 clauses). */
  private static final int MAX_TERMS = 512;

  private final Analyzer analyzer;
  private final IndexWriter writer;
  private final IndexSearcher searcher;
  private final Tree tree;
  private final LeafTerms leafTerms;
  /** Per segment (by its core cache key), the leaf index in this version's tree of each document. */
  final Map<Object, int[]> leavesBySegment = new java.util.concurrent.ConcurrentHashMap<>();

  LexicalIndex(Analyzer analyzer, IndexWriter writer, DirectoryReader reader, Tree tree,
      LeafTerms leafTerms) {
    this.analyzer = analyzer;
    this.writer = writer;
    this.leafTerms = leafTerms;
    IndexSearcher s = new IndexSearcher(reader);
    s.setSimilarity(new BM25Similarity());
    this.searcher = s;
    this.tree = tree;
  }

  /** Indexes every leaf of {@code tree}. */
  static LexicalIndex of(Tree tree) {
    LexicalIndexBuilder b = new LexicalIndexBuilder();
    try {
      for (int v = 0; v < tree.leafCount(); v++) {
        b.add(tree.id(v), tree.text(v));
      }
      return b.finish(tree);
    } catch (RuntimeException | Error e) {
      b.abandon();
      throw e;
    }
  }

  /**
   * The index of {@code next}, made from this one (the index of {@code previous}) by deleting the documents of
   * the leaves {@code gone} (indexes in {@code previous}) and adding those of {@code added} (indexes in
   * {@code next}). Called by one writer at a time.
   */
  LexicalIndex next(Tree previous, List<Integer> gone, Tree next, List<Integer> added) {
    try {
      for (int v : gone) {
        writer.deleteDocuments(new Term(LeafDocument.ID, previous.id(v)));
      }
      for (int v : added) {
        writer.addDocument(LeafDocument.of(next.id(v), next.text(v)));
      }
      DirectoryReader current = (DirectoryReader) searcher.getIndexReader();
      DirectoryReader reader = gone.isEmpty() && added.isEmpty() ? null
          : DirectoryReader.openIfChanged(current, writer);
      LexicalIndex index = new LexicalIndex(analyzer, writer, reader == null ? current : reader, next,
          leafTerms.next(previous, gone, next, added, analyzer, LeafDocument.FIELD));
      if (gone.isEmpty() && added.stream().allMatch(v -> v >= previous.leafCount())) {
        // The old leaves keep their indexes (none went, the new ones come after them): a segment this version
        // shares keeps its documents' leaves.
        for (LeafReaderContext seg : index.searcher.getIndexReader().leaves()) {
          Object key = seg.reader().getCoreCacheHelper().getKey();
          int[] leaves = leavesBySegment.get(key);
          if (leaves != null) {
            index.leavesBySegment.put(key, leaves);
          }
        }
      }
      return index;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot update the BM25 index", e);
    }
  }

  /**
   * Commits the writer the versions share and returns the files of that commit, name to contents: the index as
   * the latest version sees it, for the knowledge base's cached copy ({@link CachedLexicalIndex}). Called by the
   * one writer, on the latest version.
   */
  Map<String, byte[]> committedFiles() throws IOException {
    writer.commit();
    Directory dir = writer.getDirectory();
    Map<String, byte[]> files = new java.util.LinkedHashMap<>();
    for (String name : SegmentInfos.readLatestCommit(dir).files(true)) {
      try (IndexInput in = dir.openInput(name, IOContext.READONCE)) {
        byte[] data = new byte[Math.toIntExact(in.length())];
        in.readBytes(data, 0, data.length);
        files.put(name, data);
      }
    }
    return files;
  }

  /**
   * BM25 score of every leaf for the prompt (0 where no term matches), in {@code out} (length = leaves of
   * this index's tree).
   *
   * @return the highest score (0 when nothing matches)
   */
  float scores(String prompt, float[] out) {
    java.util.Arrays.fill(out, 0f);
    Set<String> terms = terms(prompt);
    if (terms.isEmpty() || tree.leafCount() == 0) {
      return 0f;
    }
    BooleanQuery.Builder q = new BooleanQuery.Builder();
    for (String t : terms) {
      q.add(new TermQuery(new Term(LeafDocument.FIELD, t)), BooleanClause.Occur.SHOULD);
    }
    float[] max = {0f};
    try {
      searcher.search(q.build(), new SimpleCollector() {
        private Scorable scorer;
        private int[] leaves;

        @Override
        public void setScorer(Scorable scorer) {
          this.scorer = scorer;
        }

        @Override
        protected void doSetNextReader(LeafReaderContext context) throws IOException {
          leaves = leavesOf(context.reader());
        }

        @Override
        public void collect(int doc) throws IOException {
          int v = leaves[doc];
          if (v >= 0 && v < out.length) {
            float s = scorer.score();
            out[v] = s;
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

  /** Scores one leaf at a time for one prompt: the score {@link #scores} gives it, without the others. */
  static final class LeafScorer {
    private final LeafTerms leafTerms;
    private final int[] termIds;
    private final Similarity.SimScorer[] sims;

    private LeafScorer(LeafTerms leafTerms, int[] termIds, Similarity.SimScorer[] sims) {
      this.leafTerms = leafTerms;
      this.termIds = termIds;
      this.sims = sims;
    }

    /** Leaf {@code v}'s BM25 score for the prompt (0 when no term matches). */
    float score(int v) {
      double sum = 0;
      long norm = leafTerms.norm(v);
      for (int i = 0; i < termIds.length; i++) {
        int f = leafTerms.freq(v, termIds[i]);
        if (f > 0) {
          sum += sims[i].score(f, norm);
        }
      }
      return (float) sum;
    }
  }

  /**
   * A prompt's terms looked up once in this version (their statistics and per-segment states), for both the
   * top-k search and single-leaf scores: the candidate path's lexical side.
   */
  final class Prompt {
    private final Query query;
    private final LeafScorer scorer;

    private Prompt(Query query, LeafScorer scorer) {
      this.query = query;
      this.scorer = scorer;
    }

    /** The {@code k} best-scoring leaves (see {@link LexicalIndex#top(Query, int)}). */
    Top top(int k) {
      return LexicalIndex.this.top(query, k);
    }

    /** Scores one leaf at a time, as {@link #scores} would. */
    LeafScorer leafScorer() {
      return scorer;
    }
  }

  /** The prompt's terms, looked up once. */
  Prompt prompt(String prompt) {
    return prompt(prompt, PromptStopWords.MAX_POSTINGS);
  }

  /** {@link #prompt(String)} with another limit on a stop word's postings (for tests and measurements). */
  Prompt prompt(String prompt, int maxPostings) {
    Set<String> terms = PromptStopWords.analyse(analyzer, LeafDocument.FIELD, prompt, MAX_TERMS);
    int[] ids = new int[terms.size()];
    Similarity.SimScorer[] sims = new Similarity.SimScorer[terms.size()];
    BooleanQuery.Builder q = new BooleanQuery.Builder();
    int m = 0;
    try {
      CollectionStatistics collection =
          tree.leafCount() == 0 ? null : searcher.collectionStatistics(LeafDocument.FIELD);
      if (collection != null) {
        // each term looked up once: its states give both the postings' length and the query's statistics
        Map<String, TermStates> looked = new HashMap<>();
        for (String t : terms) {
          looked.put(t, TermStates.build(searcher, new Term(LeafDocument.FIELD, t), true));
        }
        PromptStopWords.dropCommon(terms, prompt, searcher.getIndexReader().maxDoc(),
            t -> looked.get(t).docFreq(), maxPostings);
        for (String t : terms) {
          Term term = new Term(LeafDocument.FIELD, t);
          TermStates states = looked.get(t);
          int id = leafTerms.termId(t);
          if (states.docFreq() > 0 && id >= 0) {
            TermStatistics stats = searcher.termStatistics(term, states.docFreq(), states.totalTermFreq());
            ids[m] = id;
            sims[m++] = searcher.getSimilarity().scorer(1f, collection, stats);
            q.add(new TermQuery(term, states), BooleanClause.Occur.SHOULD);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("BM25 statistics failed", e);
    }
    LeafScorer scorer = new LeafScorer(leafTerms, java.util.Arrays.copyOf(ids, m),
        java.util.Arrays.copyOf(sims, m));
    return new Prompt(m == 0 ? null : q.build(), scorer);
  }

  /** The best BM25 hits of a prompt: leaf indexes and scores, best first; {@code complete} when no other leaf matches. */
  record Top(int[] leaves, float[] scores, boolean complete) {
    /** The highest score, 0 when nothing matches. */
    float max() {
      return scores.length == 0 ? 0f : scores[0];
    }

    /** The lowest score listed: a bound of every unlisted leaf's score unless {@link #complete}. */
    float floor() {
      return complete || scores.length == 0 ? 0f : scores[scores.length - 1];
    }
  }

  /**
   * The {@code k} best-scoring leaves for a prompt's query, found with Lucene's top-k collection (block-max
   * scoring skips documents that cannot enter the top), so its cost follows the prompt's postings, not the
   * knowledge base's size.
   */
  Top top(Query query, int k) {
    if (query == null || k <= 0) {
      return new Top(new int[0], new float[0], true);
    }
    try {
      TopDocs top = searcher.search(query, k);
      List<LeafReaderContext> segments = searcher.getIndexReader().leaves();
      int[] leaves = new int[top.scoreDocs.length];
      float[] scores = new float[leaves.length];
      int m = 0;
      for (ScoreDoc d : top.scoreDocs) {
        LeafReaderContext seg = segments.get(ReaderUtil.subIndex(d.doc, segments));
        int v = leavesOf(seg.reader())[d.doc - seg.docBase];
        if (v >= 0 && v < tree.leafCount()) {
          leaves[m] = v;
          scores[m++] = d.score;
        }
      }
      boolean complete = top.totalHits.relation == TotalHits.Relation.EQUAL_TO && top.totalHits.value <= k;
      return new Top(java.util.Arrays.copyOf(leaves, m), java.util.Arrays.copyOf(scores, m), complete);
    } catch (IOException e) {
      throw new UncheckedIOException("BM25 search failed", e);
    }
  }

  /** The number of live documents: one per leaf of this version's tree. */
  int documents() {
    return searcher.getIndexReader().numDocs();
  }

  /** The number of deleted documents that still count in BM25's statistics until Lucene merges them away. */
  int deletedDocuments() {
    return searcher.getIndexReader().numDeletedDocs();
  }

  /** The forward index of this version. */
  LeafTerms leafTerms() {
    return leafTerms;
  }

  /** Maps every segment's documents to leaves now, so that no retrieve pays for it (after a maintenance run). */
  void prepare() {
    try {
      for (LeafReaderContext seg : searcher.getIndexReader().leaves()) {
        leavesOf(seg.reader());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot map the BM25 index's documents to leaves", e);
    }
  }

  /** The leaf index (in this version's tree; -1 if none) of every document of a segment, once per version. */
  private int[] leavesOf(LeafReader reader) throws IOException {
    Object key = reader.getCoreCacheHelper().getKey();
    int[] leaves = leavesBySegment.get(key);
    if (leaves == null) {
      leaves = DocumentLeaves.of(reader, tree);
      leavesBySegment.put(key, leaves);
    }
    return leaves;
  }

  /**
   * The prompt's distinct terms (at most {@link #MAX_TERMS}), in order, without those that only its stop words
   * give and that more than {@link PromptStopWords#MAX_POSTINGS} leaves hold.
   */
  private Set<String> terms(String prompt) {
    return terms(prompt, PromptStopWords.MAX_POSTINGS);
  }

  /** {@link #terms(String)} with another limit on a stop word's postings (for tests). */
  Set<String> terms(String prompt, int maxPostings) {
    Set<String> terms = PromptStopWords.analyse(analyzer, LeafDocument.FIELD, prompt, MAX_TERMS);
    IndexReader reader = searcher.getIndexReader();
    PromptStopWords.dropCommon(terms, prompt, reader.maxDoc(), t -> {
      try {
        return reader.docFreq(new Term(LeafDocument.FIELD, t));
      } catch (IOException e) {
        throw new UncheckedIOException("BM25 statistics failed", e);
      }
    }, maxPostings);
    return terms;
  }
}

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
 * opens a near-real-time reader, or, when leaves were only appended, keeps the reader and scores the new
 * leaves (its tail) from the forward index, so its cost grows with the change, not with the knowledge base.
 * Each version is a point-in-time view bound to its tree; versions are read-only and thread-safe. Until Lucene
 * merges them away, deleted documents still count in BM25's collection statistics (document count and
 * mean length), so scores after many deletions differ slightly from those of an index built afresh.
 */
final class LexicalIndex {
  /** Distinct prompt terms queried at most (Lucene refuses a query of more than 1024 clauses). */
  private static final int MAX_TERMS = 512;

  private final Analyzer analyzer;
  private final IndexWriter writer;
  private final TailSearcher searcher;
  private final Tree tree;
  private final LeafTerms leafTerms;
  /** Per segment (by its core cache key), the leaf index in this version's tree of each document. */
  final Map<Object, int[]> leavesBySegment = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * At most this many leaves a version holds outside its reader (its tail, see {@link #next}); a run that would
   * make the tail longer opens a new reader.
   */
  static final int TAIL_LIMIT = 64;

  /** The version of {@code tree} whose reader shows every leaf. */
  LexicalIndex(Analyzer analyzer, IndexWriter writer, DirectoryReader reader, Tree tree,
      LeafTerms leafTerms) {
    this(analyzer, writer, reader, tree, leafTerms, tree.leafCount());
  }

  /** The version of {@code tree} whose reader shows the leaves before {@code readerLeaves}; the rest are its tail. */
  private LexicalIndex(Analyzer analyzer, IndexWriter writer, DirectoryReader reader, Tree tree,
      LeafTerms leafTerms, int readerLeaves) {
    this.analyzer = analyzer;
    this.writer = writer;
    this.leafTerms = leafTerms;
    this.searcher = new TailSearcher(reader, leafTerms, readerLeaves, tree.leafCount());
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
   * {@code next}) in the shared writer. {@code inPlace} says that every leaf of {@code previous} is at the same
   * index in {@code next} (so none is gone, and the new ones come after them). Called by one writer at a time.
   *
   * <p>A run that only appends leaves keeps this version's reader, and the new leaves join its tail: they are
   * scored from the forward index, and the searcher's statistics count them ({@link TailSearcher}), so every
   * score is the one a reader over every leaf gives (to the last bits of a sum). Opening a near-real-time
   * reader flushes the new documents into a segment of their own, and every ninth such run also merges ten
   * segments: a fixed cost of several milliseconds per run, paid once per {@link #TAIL_LIMIT} appended leaves
   * instead, or at the next run that removes or changes a leaf (ADR 0035).
   */
  LexicalIndex next(Tree previous, List<Integer> gone, Tree next, List<Integer> added, boolean inPlace) {
    try {
      for (int v : gone) {
        writer.deleteDocuments(new Term(LeafDocument.ID, previous.id(v)));
      }
      for (int v : added) {
        writer.addDocument(LeafDocument.of(next.id(v), next.text(v)));
      }
      DirectoryReader current = (DirectoryReader) searcher.getIndexReader();
      boolean keepReader = inPlace && next.leafCount() - searcher.tailStart() <= TAIL_LIMIT;
      DirectoryReader reader = keepReader ? null : DirectoryReader.openIfChanged(current, writer);
      LexicalIndex index = new LexicalIndex(analyzer, writer, reader == null ? current : reader, next,
          leafTerms.next(previous, gone, next, added, analyzer, LeafDocument.FIELD),
          keepReader ? searcher.tailStart() : next.leafCount());
      if (inPlace) {
        // A segment this version shares keeps its documents' leaves.
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
    if (searcher.tailSize() > 0) {
      LeafScorer tail = prompt(prompt).leafScorer();
      for (int v = searcher.tailStart(); v < tree.leafCount(); v++) {
        out[v] = tail.score(v);
        max[0] = Math.max(max[0], out[v]);
      }
    }
    return max[0];
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

    /** The {@code k} best-scoring leaves (see {@link LexicalIndex#top(Query, LeafScorer, int)}). */
    BestHits top(int k) {
      return LexicalIndex.this.top(query, scorer, k);
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
    int clauses = 0;
    try {
      CollectionStatistics collection =
          tree.leafCount() == 0 ? null : searcher.collectionStatistics(LeafDocument.FIELD);
      if (collection != null) {
        // each term looked up once: its states give both the postings' length and the query's statistics
        Map<String, TermStates> looked = new HashMap<>();
        for (String t : terms) {
          looked.put(t, TermStates.build(searcher, new Term(LeafDocument.FIELD, t), true));
        }
        PromptStopWords.dropCommon(terms, prompt, searcher.maxDoc(),
            t -> looked.get(t).docFreq() + searcher.tailDocFreq(t), maxPostings);
        for (String t : terms) {
          Term term = new Term(LeafDocument.FIELD, t);
          TermStates states = looked.get(t);
          int id = leafTerms.termId(t);
          if (id >= 0 && states.docFreq() + searcher.tailDocFreq(t) > 0) {
            TermStatistics stats = searcher.termStatistics(term, states.docFreq(), states.totalTermFreq());
            ids[m] = id;
            sims[m++] = searcher.getSimilarity().scorer(1f, collection, stats);
            if (states.docFreq() > 0) { // a term only the tail holds has no postings to query
              q.add(new TermQuery(term, states), BooleanClause.Occur.SHOULD);
              clauses++;
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("BM25 statistics failed", e);
    }
    LeafScorer scorer = new LeafScorer(leafTerms, java.util.Arrays.copyOf(ids, m),
        java.util.Arrays.copyOf(sims, m));
    return new Prompt(clauses == 0 ? null : q.build(), scorer);
  }

  /**
   * The {@code k} best-scoring leaves for a prompt's query (null: none of its terms is in the reader), found
   * with Lucene's top-k collection (block-max scoring skips documents that cannot enter the top), so its cost
   * follows the prompt's postings, not the knowledge base's size; the tail's leaves are scored by
   * {@code scorer} and merged in after the reader's equal scores, as their later documents would be.
   */
  BestHits top(Query query, LeafScorer scorer, int k) {
    if (k <= 0) {
      return BestHits.NONE;
    }
    try {
      TopDocs top = query == null ? null : searcher.search(query, k);
      ScoreDoc[] docs = top == null ? new ScoreDoc[0] : top.scoreDocs;
      BestHits tail = searcher.tailTop(scorer);
      List<LeafReaderContext> segments = searcher.getIndexReader().leaves();
      int[] leaves = new int[Math.min(k, docs.length + tail.leaves().length)];
      float[] scores = new float[leaves.length];
      int m = 0;
      for (int i = 0, j = 0; m < leaves.length && (i < docs.length || j < tail.leaves().length); ) {
        if (j < tail.leaves().length && (i == docs.length || tail.scores()[j] > docs[i].score)) {
          leaves[m] = tail.leaves()[j];
          scores[m++] = tail.scores()[j++];
          continue;
        }
        ScoreDoc d = docs[i++];
        LeafReaderContext seg = segments.get(ReaderUtil.subIndex(d.doc, segments));
        int v = leavesOf(seg.reader())[d.doc - seg.docBase];
        if (v >= 0 && v < tree.leafCount()) {
          leaves[m] = v;
          scores[m++] = d.score;
        }
      }
      boolean complete = (top == null || top.totalHits.relation == TotalHits.Relation.EQUAL_TO)
          && (top == null ? 0 : top.totalHits.value) + tail.leaves().length <= k;
      return new BestHits(java.util.Arrays.copyOf(leaves, m), java.util.Arrays.copyOf(scores, m), complete);
    } catch (IOException e) {
      throw new UncheckedIOException("BM25 search failed", e);
    }
  }

  /** The number of live documents, the tail's included: one per leaf of this version's tree. */
  int documents() {
    return searcher.getIndexReader().numDocs() + searcher.tailSize();
  }

  /** How many of this version's leaves its reader does not show yet, scored from the forward index. */
  int tailSize() {
    return searcher.tailSize();
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
    PromptStopWords.dropCommon(terms, prompt, searcher.maxDoc(), t -> {
      try {
        return reader.docFreq(new Term(LeafDocument.FIELD, t)) + searcher.tailDocFreq(t);
      } catch (IOException e) {
        throw new UncheckedIOException("BM25 statistics failed", e);
      }
    }, maxPostings);
    return terms;
  }
}

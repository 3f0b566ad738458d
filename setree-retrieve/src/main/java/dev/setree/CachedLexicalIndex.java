package dev.setree;

import dev.setree.internal.core.Tree;
import dev.setree.internal.store.SqliteTreeStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.Version;

/**
 * A BM25 index opened from the copy of its files that the knowledge base keeps (ADR 0030), instead of indexed
 * leaf by leaf. Open's indexing thread ({@link OpeningIndex}) loads the copy while the load reads the tree's
 * rows: every file is checked against its Lucene checksum, and each document's leaf id, text hash
 * ({@link LeafDocument#TEXT_HASH}) and forward-index entry are read before the tree is known. Then each leaf
 * row the load tells ({@link #leaf}) is matched to the copy's document of its id if that document's text hash
 * is the row's; a row without one is indexed there and then. Once told the tree, {@link #finish} checks that
 * the rows were the tree's leaves in order, deletes the documents no row matched, and makes the index. The
 * copy may thus come from any earlier state of the knowledge base: the result holds one live document per leaf
 * of the tree, with the tree's texts, as {@link LexicalIndex#of} would. Its scores differ from a fresh index's
 * only as a long-lived index's do: deleted documents count in BM25's statistics until Lucene merges them away.
 *
 * <p>A copy that fails any check is refused with an {@link IOException} (after which the object must not be
 * used), and the caller indexes the leaves instead. Used by one thread.
 *
 * <p>The writer replaces the copy through {@link #save}, after a build and after a run it leaves lagging too far.
 */
final class CachedLexicalIndex {
  /**
   * What the copy's files are: this class's layout (fields, analysis, {@link LeafDocument#textHash}) and the
   * Lucene version that wrote them. A copy of another format is not read (it is replaced by the next writer), so
   * any change to the documents or the hash must change this string: a copy whose hashes no longer match would
   * still be read correctly, but by indexing every leaf again.
   */
  static final String FORMAT = "setree-bm25 1; lucene " + Version.LATEST;

  private final Analyzer analyzer;
  private final IndexWriter writer;
  private final DirectoryReader copy;
  /** The copy's documents, by index-wide number: leaf id (null: deleted), text hash, forward-index entry. */
  private final String[] docIds;
  private final long[] docHashes;
  private final int[][] docTerms;
  private final Map<String, Integer> dictionary;
  /** The live document of each leaf id, or -1 for an id held by more than one. */
  private final Map<String, Integer> docOf;
  private final boolean[] matched;
  /** Per leaf row told, in order: its id and text, and its document in the copy (-1: indexed anew). */
  private final List<String> ids = new ArrayList<>();
  private final List<String> texts = new ArrayList<>();
  private final List<Integer> docOfRow = new ArrayList<>();
  private boolean changed;

  private CachedLexicalIndex(Analyzer analyzer, IndexWriter writer, DirectoryReader copy) throws IOException {
    this.analyzer = analyzer;
    this.writer = writer;
    this.copy = copy;
    int n = copy.maxDoc();
    docIds = new String[n];
    docHashes = new long[n];
    docOf = new HashMap<>(2 * n);
    for (LeafReaderContext ctx : copy.leaves()) {
      LeafReader segment = ctx.reader();
      Bits live = segment.getLiveDocs();
      SortedDocValues idValues = DocValues.getSorted(segment, LeafDocument.ID);
      NumericDocValues hashes = DocValues.getNumeric(segment, LeafDocument.TEXT_HASH);
      for (int doc = 0; doc < segment.maxDoc(); doc++) {
        if (live != null && !live.get(doc)) {
          continue;
        }
        if (!idValues.advanceExact(doc) || !hashes.advanceExact(doc)) {
          throw new IOException("a cached BM25 document has no leaf id or text hash");
        }
        int d = ctx.docBase + doc;
        docIds[d] = idValues.lookupOrd(idValues.ordValue()).utf8ToString();
        docHashes[d] = hashes.longValue();
        docOf.merge(docIds[d], d, (a, b) -> -1);
      }
    }
    matched = new boolean[n];
    dictionary = new ConcurrentHashMap<>();
    docTerms = LeafTerms.byDocument(copy, LeafDocument.FIELD, dictionary);
  }

  /**
   * Loads the files of a cached copy into memory, checks them, opens a writer and a reader on them and reads
   * the documents' ids, hashes and terms.
   *
   * @throws IOException when a file is damaged or the copy is not a Lucene index of this layout
   */
  static CachedLexicalIndex load(Map<String, byte[]> files) throws IOException {
    LuceneClasses.ensure();
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriter writer = null;
    try {
      for (Map.Entry<String, byte[]> f : files.entrySet()) {
        try (IndexOutput out = dir.createOutput(f.getKey(), IOContext.DEFAULT)) {
          out.writeBytes(f.getValue(), f.getValue().length);
        }
        try (IndexInput in = dir.openInput(f.getKey(), IOContext.READONCE)) {
          CodecUtil.checksumEntireFile(in);
        }
      }
      Analyzer analyzer = new EnglishAnalyzer();
      IndexWriterConfig cfg = LexicalIndexBuilder.config(analyzer).setOpenMode(IndexWriterConfig.OpenMode.APPEND);
      writer = new IndexWriter(dir, cfg);
      return new CachedLexicalIndex(analyzer, writer, DirectoryReader.open(writer));
    } catch (IOException | RuntimeException e) {
      if (writer != null) {
        rollback(writer);
      }
      dir.close();
      throw e instanceof IOException io ? io : new IOException("the cached BM25 index is unreadable: " + e, e);
    }
  }

  /**
   * The index of {@code tree} from a cached copy's files, told the tree's leaves at once: for a tree already
   * loaded (another process's commit), where open tells them during its load.
   *
   * @throws IOException when the copy is unusable
   */
  static LexicalIndex of(Map<String, byte[]> files, Tree tree) throws IOException {
    CachedLexicalIndex copy = load(files);
    for (int v = 0; v < tree.leafCount(); v++) {
      copy.leaf(tree.id(v), tree.text(v));
    }
    return copy.finish(tree);
  }

  /** The next leaf row of the load: matched to the copy's document, or indexed now. */
  void leaf(String id, String text) throws IOException {
    try {
      Integer d = docOf.get(id);
      ids.add(id);
      texts.add(text);
      if (d != null && d >= 0 && !matched[d] && docHashes[d] == LeafDocument.textHash(text)) {
        matched[d] = true;
        docOfRow.add(d);
        return;
      }
      if (d != null) { // the copy's document of this id holds another text (or the id is there twice)
        writer.deleteDocuments(new Term(LeafDocument.ID, id));
        markMatched(id);
      }
      writer.addDocument(LeafDocument.of(id, text));
      docOfRow.add(-1);
      changed = true;
    } catch (IOException | RuntimeException e) {
      abandon();
      throw e instanceof IOException io ? io : new IOException("the cached BM25 index is unusable: " + e, e);
    }
  }

  /**
   * The index of {@code tree}: the copy with the documents no row matched deleted and those of the rows it
   * lacked added.
   *
   * @throws IOException when the rows told were not the tree's leaves in order, or the copy cannot be read
   *     (the writer is then rolled back)
   */
  LexicalIndex finish(Tree tree) throws IOException {
    try {
      if (!OpeningIndex.told(tree, ids, texts)) {
        throw new IOException("the rows told are not the tree's leaves");
      }
      for (int d = 0; d < docIds.length; d++) {
        if (docIds[d] != null && !matched[d]) { // a leaf that is gone, or an id the copy holds twice
          writer.deleteDocuments(new Term(LeafDocument.ID, docIds[d]));
          markMatched(docIds[d]);
          changed = true;
        }
      }
      DirectoryReader reader = copy;
      if (changed) {
        DirectoryReader current = DirectoryReader.openIfChanged(copy, writer);
        if (current != null) {
          reader = current;
        }
      }
      int[][] byLeaf = new int[tree.leafCount()][];
      for (int v = 0; v < byLeaf.length; v++) {
        int d = docOfRow.get(v);
        byLeaf[v] = d >= 0 ? docTerms[d] : LeafTerms.analyse(texts.get(v), analyzer, LeafDocument.FIELD, dictionary);
      }
      LexicalIndex index = new LexicalIndex(analyzer, writer, reader, tree, LeafTerms.of(dictionary, byLeaf));
      // The copy's segments keep their document numbers (and core keys) in the reader: each matched row's
      // document is its leaf. The segment of the rows indexed anew is mapped by id, now.
      List<LeafReaderContext> segments = copy.leaves();
      int[][] leavesOf = new int[segments.size()][];
      for (int s = 0; s < segments.size(); s++) {
        leavesOf[s] = new int[segments.get(s).reader().maxDoc()];
        java.util.Arrays.fill(leavesOf[s], -1);
        index.leavesBySegment.put(segments.get(s).reader().getCoreCacheHelper().getKey(), leavesOf[s]);
      }
      for (int v = 0; v < byLeaf.length; v++) {
        int d = docOfRow.get(v);
        if (d >= 0) {
          int s = ReaderUtil.subIndex(d, segments);
          leavesOf[s][d - segments.get(s).docBase] = v;
        }
      }
      index.prepare();
      return index;
    } catch (IOException | RuntimeException e) {
      abandon();
      throw e instanceof IOException io ? io : new IOException("the cached BM25 index is unusable: " + e, e);
    }
  }

  /** Drops the copy (it will not be used). */
  void abandon() {
    rollback(writer);
  }

  /** Marks every document of {@code id} as dealt with (deleted by id, or matched). */
  private void markMatched(String id) {
    Integer only = docOf.get(id);
    if (only != null && only >= 0) {
      matched[only] = true;
      return;
    }
    for (int d = 0; d < docIds.length; d++) { // an id the copy holds more than once
      if (id.equals(docIds[d])) {
        matched[d] = true;
      }
    }
  }

  private static void rollback(IndexWriter writer) {
    try {
      writer.rollback();
    } catch (IOException | RuntimeException e) {
      // nothing to keep: the directory is in memory
    }
  }

  /**
   * Replaces the knowledge base's cached BM25 index (ADR 0030) by the snapshot's, after a build ({@code lastSeq}
   * -1) or when a copy of its format is missing or lags the highest mutation sequence number {@code lastSeq} by
   * at least {@link #cacheLag} mutations, so that open reads it instead of indexing every leaf. Returns the bytes
   * written. The copy is a cache: a failure to write it leaves the previous one, which open checks anyway, and
   * fails nothing. Called by the writer, holding the writer lock.
   */
  static long save(SqliteTreeStore store, Snapshot s, long lastSeq) {
    if (!s.bm25().isDone()) {
      return 0; // open is still indexing: a later run writes the copy
    }
    try {
      if (lastSeq >= 0) {
        long cachedSeq = store.lexicalCacheSeq(FORMAT);
        if (cachedSeq >= 0 && lastSeq - cachedSeq < cacheLag(s.tree().leafCount())) {
          return 0;
        }
      }
      return store.saveLexicalCache(FORMAT, s.lexical().committedFiles());
    } catch (IOException | RuntimeException e) {
      System.getLogger(SETree.class.getName()).log(System.Logger.Level.WARNING,
          "cannot cache the BM25 index in " + store.path() + "; open will index the leaves: " + e, e);
      return 0;
    }
  }

  /**
   * How many mutations the cached BM25 index may lag before a run replaces it: each one open brings the copy to
   * the tree costs about one leaf's indexing, each replacement writes the whole index.
   */
  static long cacheLag(int leaves) {
    return Math.max(256, leaves / 64);
  }
}

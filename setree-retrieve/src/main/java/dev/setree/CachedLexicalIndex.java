package dev.setree;

import dev.setree.internal.core.Tree;
import java.io.IOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
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
 * leaf by leaf: open reads the files while the tree loads, and once the tree is known, brings the copy to it.
 * A document is kept when its leaf id is a leaf of the tree whose text hashes as the document's did
 * ({@link LexicalIndex#TEXT_HASH}), once; the others are deleted, and the leaves without a document are added.
 * The copy may thus come from any earlier state of the knowledge base: the result holds one live document per
 * leaf of the tree, with the tree's texts, as {@link LexicalIndex#of} would. Its scores differ from a fresh
 * index's only as a long-lived index's do: deleted documents count in BM25's statistics until Lucene merges
 * them away.
 *
 * <p>Every file is checked against its Lucene checksum before use; a copy that fails any check is refused
 * with an {@link IOException}, and the caller indexes the leaves instead. Used by one thread.
 */
final class CachedLexicalIndex {
  /**
   * What the copy's files are: this class's layout (fields, analysis) and the Lucene version that wrote them.
   * A copy of another format is not read (it is replaced by the next writer).
   */
  static final String FORMAT = "setree-bm25 1; lucene " + Version.LATEST;

  private final Analyzer analyzer;
  private final IndexWriter writer;

  private CachedLexicalIndex(Analyzer analyzer, IndexWriter writer) {
    this.analyzer = analyzer;
    this.writer = writer;
  }

  /**
   * Loads the files of a cached copy into memory, checks them and opens a writer on them.
   *
   * @throws IOException when a file is damaged or the copy is not a Lucene index this version reads
   */
  static CachedLexicalIndex load(Map<String, byte[]> files) throws IOException {
    LuceneClasses.ensure();
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
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
      return new CachedLexicalIndex(analyzer, new IndexWriter(dir, cfg));
    } catch (IOException | RuntimeException e) {
      dir.close();
      throw e instanceof IOException io ? io : new IOException("the cached BM25 index is unreadable: " + e, e);
    }
  }

  /**
   * The index of {@code tree}: the copy with the documents of leaves that are gone or changed deleted and
   * those of leaves it lacks added.
   *
   * @throws IOException when the copy cannot be read (the writer is then rolled back)
   */
  LexicalIndex finish(Tree tree) throws IOException {
    try {
      DirectoryReader reader = DirectoryReader.open(writer);
      boolean[] present = new boolean[tree.leafCount()];
      Set<String> stale = new HashSet<>();
      int hint = 0;
      for (LeafReaderContext ctx : reader.leaves()) {
        LeafReader segment = ctx.reader();
        Bits live = segment.getLiveDocs();
        SortedDocValues ids = DocValues.getSorted(segment, LexicalIndex.ID);
        NumericDocValues hashes = DocValues.getNumeric(segment, LexicalIndex.TEXT_HASH);
        for (int doc = 0; doc < segment.maxDoc(); doc++) {
          if (live != null && !live.get(doc)) {
            continue;
          }
          if (!ids.advanceExact(doc)) {
            throw new IOException("a cached BM25 document has no leaf id");
          }
          String id = ids.lookupOrd(ids.ordValue()).utf8ToString();
          int v = tree.indexOf(id, hint);
          if (v >= 0 && v < present.length && !present[v] && hashes.advanceExact(doc)
              && hashes.longValue() == LexicalIndex.textHash(tree.text(v))) {
            present[v] = true;
            hint = v + 1;
          } else {
            stale.add(id);
          }
        }
      }
      for (String id : stale) { // deleting by id deletes every copy: the leaf is then added again below
        writer.deleteDocuments(new Term(LexicalIndex.ID, id));
        int v = tree.indexOf(id);
        if (v >= 0 && v < present.length) {
          present[v] = false;
        }
      }
      int added = 0;
      for (int v = 0; v < present.length; v++) {
        if (!present[v]) {
          writer.addDocument(LexicalIndex.document(tree.id(v), tree.text(v)));
          added++;
        }
      }
      if (!stale.isEmpty() || added > 0) {
        DirectoryReader current = DirectoryReader.openIfChanged(reader, writer);
        if (current != null) {
          reader.close();
          reader = current;
        }
      }
      return LexicalIndex.over(analyzer, writer, reader, tree);
    } catch (IOException | RuntimeException e) {
      abandon();
      throw e instanceof IOException io ? io : new IOException("the cached BM25 index is unreadable: " + e, e);
    }
  }

  /** Drops the copy (it will not be used). */
  void abandon() {
    try {
      writer.rollback();
    } catch (IOException | RuntimeException e) {
      // nothing to keep: the directory is in memory
    }
  }
}

package dev.setree;

import dev.setree.internal.core.Tree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SerialMergeScheduler;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * Builds the first version of a {@link LexicalIndex} from leaves given one at a time, in the tree's leaf order, before
 * the tree itself exists: open indexes the leaves while the rest of the knowledge base loads
 * ({@link OpeningIndex}). Used by one thread at a time.
 */
final class LexicalIndexBuilder {
  private final Analyzer analyzer = new EnglishAnalyzer();
  private final IndexWriter writer;
  private int added;

  LexicalIndexBuilder() {
    try {
      IndexWriterConfig cfg = config(analyzer); // before IndexWriter's class is touched: see LuceneClasses
      writer = new IndexWriter(new ByteBuffersDirectory(), cfg);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot index leaves for BM25", e);
    }
  }

  /** The writer settings of every BM25 index, built here or opened from a cached copy. */
  static IndexWriterConfig config(Analyzer analyzer) {
    LuceneClasses.ensure();
    IndexWriterConfig cfg = new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity());
    cfg.setRAMBufferSizeMB(256);
    cfg.setMergeScheduler(new SerialMergeScheduler()); // no background threads
    cfg.setUseCompoundFile(false); // in memory: packing a flushed segment's files into one only copies them
    return cfg;
  }

  /** Adds the next leaf's document. */
  void add(String id, String text) {
    try {
      writer.addDocument(LeafDocument.of(id, text));
      added++;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot index leaves for BM25", e);
    }
  }

  /** The number of leaves added. */
  int added() {
    return added;
  }

  /** The index of {@code tree}, whose leaves, in order, are exactly the ones added. */
  LexicalIndex finish(Tree tree) {
    if (added != tree.leafCount()) {
      throw new IllegalStateException(added + " leaves indexed for a tree of " + tree.leafCount());
    }
    try {
      DirectoryReader reader = DirectoryReader.open(writer);
      Map<Object, int[]> segments = new HashMap<>();
      LeafTerms terms = LeafTerms.fromIndex(tree.leafCount(), reader, LeafDocument.FIELD, segment -> {
        int[] leaves = DocumentLeaves.of(segment, tree);
        segments.put(segment.getCoreCacheHelper().getKey(), leaves);
        return leaves;
      });
      LexicalIndex index = new LexicalIndex(analyzer, writer, reader, tree,
          terms != null ? terms : LeafTerms.of(tree, analyzer, LeafDocument.FIELD));
      index.leavesBySegment.putAll(segments);
      return index;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot index leaves for BM25", e);
    }
  }

  /**
   * Indexes one document into an index of its own, then drops it: loads the classes of Lucene's indexing chain
   * (about 110), which a writer whose index was opened from its cached copy ({@link CachedLexicalIndex}) would
   * otherwise load while its first run adds its first leaf. A writer does it on open, after the copy its first run
   * continues from (docs/adr/0040-first-run-work-done-on-open.md).
   */
  static void loadIndexingClasses() {
    LexicalIndexBuilder b = new LexicalIndexBuilder();
    b.add("setree-indexing-classes", "A document that loads the classes of the indexing chain.");
    b.abandon();
  }

  /** Drops what was added (the index will not be used). */
  void abandon() {
    try {
      writer.rollback();
    } catch (IOException | RuntimeException e) {
      // nothing to keep: the directory is in memory
    }
  }
}

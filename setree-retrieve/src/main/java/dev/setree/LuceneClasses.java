package dev.setree;

import org.apache.lucene.index.IndexWriterConfig;

/**
 * Initialises Lucene's index classes once, on one thread, before any code here uses them from several. Lucene
 * 9's {@code IndexWriter}, {@code ConcurrentMergeScheduler}, {@code SegmentReader} and {@code FilterIndexInput}
 * each register with {@code TestSecrets} while initialising, and {@code TestSecrets} initialises all of them
 * in turn, so two threads that start on two of them at once can wait for each other's class initialisation
 * forever (apache/lucene#12419, #15119). Open's indexing thread and a load on another thread can do just
 * that: a child process of {@code MultiProcessWritersTest} once hung with its indexing thread in
 * {@code ConcurrentMergeScheduler}'s initialisation and its main thread in {@code IndexWriter}'s.
 * Every entry point into Lucene here ({@link LexicalIndexBuilder}, {@link CachedLexicalIndex}) calls
 * {@link #ensure()} first: the first caller initialises them all inside this class's own initialisation, and
 * any other caller waits for that to finish.
 */
final class LuceneClasses {
  static {
    new IndexWriterConfig(); // ConcurrentMergeScheduler -> TestSecrets -> the others, on this thread
  }

  private LuceneClasses() {}

  /** Returns once Lucene's index classes are initialised. */
  static void ensure() {
    // the class initialisation above does the work
  }
}

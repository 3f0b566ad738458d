package dev.setree;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.BulkScorer;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.TotalHits;
import org.apache.lucene.search.Weight;

/**
 * Finds a query's {@code k} best hits in a large BM25 index on several threads: the index's documents are cut
 * into consecutive ranges (across or inside segments) and each range is scored by its own Lucene bulk scorer,
 * the caller's thread taking the first range and helper threads the others. The result is what
 * {@link IndexSearcher#search(Query, int)} returns: the same documents with the same scores in the same order
 * (score descending, ties by document id), and a total that is exact whenever at most {@code k} documents
 * match.
 *
 * <p>Why this equals the one-thread search: each range uses the same {@link Weight} (BM25 statistics of the
 * whole reader) and the same kind of bulk scorer, so a document's score does not depend on the range it is in.
 * Each range keeps its own {@code k} best; the merge takes the best {@code k} of all, ties by document id. A
 * range skips a document (Lucene's block-max skipping, through {@link Scorable#setMinCompetitiveScore}) only
 * when {@code k} documents that rank above it are already known: its own {@code k} best (a later document of the
 * same range loses a tie), or another range's, whose {@code k}-th score it must beat, and also tie only when
 * that range comes after it, or every range's share of {@code k} (k divided by the ranges, rounded up), whose
 * lowest share-th score it must reach. Nothing is skipped until more than {@code k} documents matched, so a
 * total of at most {@code k} is counted exactly. Lucene 9's own concurrent search cannot cut a segment
 * (Lucene 10 can), and its shared minimum score assumes ranges of distinct segments.
 *
 * <p>A range that no helper has started when the caller is done with its own is taken by the caller, so a busy
 * pool only makes the search sequential, never wait. Thread-safe.
 */
final class ParallelTopHits {
  /** Documents an index must hold before its search is split; below, one thread searches. */
  static final int MIN_DOCS = 200_000;
  /** Documents a range holds at least. */
  private static final int MIN_RANGE = 100_000;
  /** Collections between two looks at the other ranges' thresholds. */
  private static final int LOOK_EVERY = 64;
  private static final ExecutorService HELPERS = helpers();

  private ParallelTopHits() {}

  private static ExecutorService helpers() {
    int n = Math.max(1, Runtime.getRuntime().availableProcessors() - 1);
    ThreadPoolExecutor pool = new ThreadPoolExecutor(n, n, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
      Thread t = new Thread(r, "setree-bm25-top");
      t.setDaemon(true);
      return t;
    });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }

  /** How many ranges a search of an index of {@code maxDoc} documents uses on this machine (1: no split). */
  static int ranges(int maxDoc) {
    if (maxDoc < MIN_DOCS) {
      return 1;
    }
    return Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), maxDoc / MIN_RANGE));
  }

  /** The {@code k} best hits of {@code query}, the documents cut into {@code ranges} ranges (at least 1). */
  static TopDocs search(IndexSearcher searcher, Query query, int k, int ranges) throws IOException {
    return search(searcher, query, k, ranges, 0f);
  }

  /** EXPERIMENT: as above, every range skipping from the start what scores below {@code seed}. */
  static TopDocs search(IndexSearcher searcher, Query query, int k, int ranges, float seed) throws IOException {
    if (k <= 0) {
      throw new IllegalArgumentException("k must be positive: " + k);
    }
    Weight weight = searcher.createWeight(searcher.rewrite(query), ScoreMode.TOP_SCORES, 1f);
    List<LeafReaderContext> segments = searcher.getIndexReader().leaves();
    int maxDoc = searcher.getIndexReader().maxDoc();
    int n = Math.max(1, Math.min(ranges, Math.max(1, maxDoc)));
    Range[] parts = new Range[n];
    AtomicIntegerArray floors = new AtomicIntegerArray(n); // bits of each range's k-th score (0: none yet)
    AtomicIntegerArray shares = new AtomicIntegerArray(n);
    for (int i = 0; i < n; i++) {
      parts[i] = new Range(i, (int) ((long) maxDoc * i / n), (int) ((long) maxDoc * (i + 1) / n), k, floors,
          shares);
      if (seed > 0f) {
        parts[i].min = seed;
        parts[i].skipped = true;
      }
    }
    Throwable[] failures = new Throwable[n];
    AtomicBoolean[] taken = new AtomicBoolean[n];
    CountDownLatch helped = new CountDownLatch(n - 1);
    for (int i = 1; i < n; i++) {
      taken[i] = new AtomicBoolean();
      int r = i;
      HELPERS.execute(() -> {
        if (taken[r].compareAndSet(false, true)) {
          run(parts[r], weight, segments, failures);
          helped.countDown();
        }
      });
    }
    run(parts[0], weight, segments, failures);
    for (int i = 1; i < n; i++) { // the ranges no helper has started yet
      if (taken[i].compareAndSet(false, true)) {
        run(parts[i], weight, segments, failures);
        helped.countDown();
      }
    }
    try {
      helped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while searching BM25", e);
    }
    for (Throwable t : failures) {
      if (t instanceof IOException io) {
        throw io;
      } else if (t instanceof RuntimeException re) {
        throw re;
      } else if (t instanceof Error e) {
        throw e;
      }
    }
    return merge(parts, k);
  }

  private static void run(Range part, Weight weight, List<LeafReaderContext> segments, Throwable[] failures) {
    try {
      part.search(weight, segments);
    } catch (IOException | RuntimeException | Error e) {
      failures[part.index] = e;
    }
  }

  /** The best {@code k} of every range's hits (score descending, ties by document id). */
  private static TopDocs merge(Range[] parts, int k) {
    int all = 0;
    long total = 0;
    boolean exact = true;
    for (Range p : parts) {
      all += p.size;
      total += p.collected;
      exact &= !p.skipped;
    }
    ScoreDoc[] hits = new ScoreDoc[all];
    int m = 0;
    for (Range p : parts) {
      for (int j = 0; j < p.size; j++) {
        hits[m++] = new ScoreDoc(p.docs[j], p.scores[j]);
      }
    }
    Arrays.sort(hits, (a, b) -> a.score != b.score ? Float.compare(b.score, a.score) : Integer.compare(a.doc, b.doc));
    return new TopDocs(new TotalHits(total,
        exact ? TotalHits.Relation.EQUAL_TO : TotalHits.Relation.GREATER_THAN_OR_EQUAL_TO),
        Arrays.copyOf(hits, Math.min(k, all)));
  }

  /**
   * One range of documents ({@code [from, to)} in the reader's ids) and its {@code k} best hits: a binary heap in
   * plain arrays, the worst hit (lowest score, then highest id) at its root.
   */
  private static final class Range implements LeafCollector {
    final int index;
    final int from;
    final int to;
    final int k;
    final AtomicIntegerArray floors;
    final float[] scores;
    final int[] docs;
    int size;
    long collected;
    boolean skipped;
    private Scorable scorer;
    private int docBase;
    float min; // the minimum competitive score set on the scorer
    private int sinceLook;
    private boolean active; // more than k documents matched: skipping is on
    /** This range's share of k (k divided by the ranges, rounded up) and its best scores, a heap of that size. */
    private final int share;
    private final float[] best;
    private int shareSize;
    /** Per range, the bits of its share-th best score once more than its share matched (0: none yet). */
    final AtomicIntegerArray shares;

    Range(int index, int from, int to, int k, AtomicIntegerArray floors, AtomicIntegerArray shares) {
      this.index = index;
      this.from = from;
      this.to = to;
      this.k = k;
      this.floors = floors;
      this.shares = shares;
      this.scores = new float[k];
      this.docs = new int[k];
      this.share = (k + shares.length() - 1) / shares.length();
      this.best = new float[share];
    }

    void search(Weight weight, List<LeafReaderContext> segments) throws IOException {
      for (LeafReaderContext segment : segments) {
        int lo = Math.max(from, segment.docBase) - segment.docBase;
        int hi = Math.min(to, segment.docBase + segment.reader().maxDoc()) - segment.docBase;
        if (lo >= hi) {
          continue;
        }
        BulkScorer bulk = weight.bulkScorer(segment);
        if (bulk == null) {
          continue;
        }
        docBase = segment.docBase;
        bulk.score(this, segment.reader().getLiveDocs(), lo, hi);
      }
    }

    @Override
    public void setScorer(Scorable scorer) throws IOException {
      this.scorer = scorer;
      if (min > 0f) {
        scorer.setMinCompetitiveScore(min);
      }
    }

    @Override
    public void collect(int doc) throws IOException {
      float score = scorer.score();
      int d = docBase + doc;
      collected++;
      boolean changed;
      if (size < k) {
        scores[size] = score;
        docs[size] = d;
        up(size++);
        changed = size == k;
      } else if (score > scores[0] || (score == scores[0] && d < docs[0])) {
        scores[0] = score;
        docs[0] = d;
        down(0);
        changed = true;
      } else {
        changed = false;
      }
      if (shareSize < share) {
        best[shareSize] = score;
        floatUp(shareSize++);
      } else if (score > best[0]) {
        best[0] = score;
        floatDown(0);
        if (collected > share) {
          publish(shares, best[0]);
        }
      }
      if (size == k && collected > k && (changed || !active)) { // more than k matched here: skipping is on
        active = true;
        publish(floors, scores[0]);
        raise(Math.nextUp(scores[0])); // a later document of this range loses a tie to the root
      }
      if (++sinceLook >= LOOK_EVERY) {
        sinceLook = 0;
        if (shareSize == share && collected > share) {
          publish(shares, best[0]);
        }
        look();
      }
    }

    private void publish(AtomicIntegerArray to, float score) {
      int bits = Float.floatToIntBits(score);
      if (bits > to.get(index)) {
        to.set(index, bits);
      }
    }

    /**
     * Raises the minimum competitive score to what the other ranges know: another range's k-th score (beaten, or
     * tied by a document of an earlier range), and the lowest of every range's share-th score, when every range
     * has published one: each of those ranges holds its share of documents at or above it, k in all.
     */
    private void look() throws IOException {
      float lowestShare = Float.POSITIVE_INFINITY;
      for (int j = 0; j < floors.length(); j++) {
        int bits = floors.get(j);
        if (j != index && bits != 0) {
          float other = Float.intBitsToFloat(bits);
          raise(j < index ? Math.nextUp(other) : other); // an earlier range wins ties, a later one loses them
        }
        int shareBits = shares.get(j);
        lowestShare = Math.min(lowestShare, shareBits == 0 ? 0f : Float.intBitsToFloat(shareBits));
      }
      if (lowestShare > 0f) {
        raise(lowestShare);
      }
    }

    private void floatUp(int i) {
      while (i > 0) {
        int p = (i - 1) >>> 1;
        if (best[i] >= best[p]) {
          return;
        }
        float t = best[i];
        best[i] = best[p];
        best[p] = t;
        i = p;
      }
    }

    private void floatDown(int i) {
      while (true) {
        int l = 2 * i + 1;
        if (l >= shareSize) {
          return;
        }
        int c = l + 1 < shareSize && best[l + 1] < best[l] ? l + 1 : l;
        if (best[c] >= best[i]) {
          return;
        }
        float t = best[i];
        best[i] = best[c];
        best[c] = t;
        i = c;
      }
    }

    private void raise(float need) throws IOException {
      if (need > min) {
        min = need;
        skipped = true;
        scorer.setMinCompetitiveScore(need);
      }
    }

    /** Whether hit i ranks below hit j (lower score, or the same score and a higher id). */
    private boolean worse(int i, int j) {
      return scores[i] < scores[j] || (scores[i] == scores[j] && docs[i] > docs[j]);
    }

    private void up(int i) {
      while (i > 0) {
        int p = (i - 1) >>> 1;
        if (!worse(i, p)) {
          return;
        }
        swap(i, p);
        i = p;
      }
    }

    private void down(int i) {
      while (true) {
        int l = 2 * i + 1;
        if (l >= size) {
          return;
        }
        int c = l + 1 < size && worse(l + 1, l) ? l + 1 : l;
        if (!worse(c, i)) {
          return;
        }
        swap(i, c);
        i = c;
      }
    }

    private void swap(int i, int j) {
      float s = scores[i];
      scores[i] = scores[j];
      scores[j] = s;
      int d = docs[i];
      docs[i] = docs[j];
      docs[j] = d;
    }
  }
}

package dev.setree;

import dev.setree.internal.core.Tree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.SmallFloat;

/**
 * The forward index beside the BM25 index: per leaf, its analysed terms with their frequencies and its
 * length norm, so that the BM25 score of any one leaf can be computed on its own, exactly as Lucene scores
 * it (the same {@code SimScorer}, statistics and norm), without collecting every match of the prompt. The
 * candidate path of retrieve scores the leaves its walk reaches this way.
 *
 * <p>Each version belongs to one tree; {@link #next} reuses the entries of unchanged leaves and analyses only
 * new ones. The term dictionary is shared by the versions and only grows. Versions are read-only and
 * thread-safe.
 */
final class LeafTerms {
  /** Term ids by term; shared by every version, append-only. */
  private final Map<String, Integer> dictionary;
  /** Per leaf: {@code [norm, term id, freq, term id, freq, ...]}, term ids ascending. */
  private final int[][] byLeaf;

  private LeafTerms(Map<String, Integer> dictionary, int[][] byLeaf) {
    this.dictionary = dictionary;
    this.byLeaf = byLeaf;
  }

  static LeafTerms of(Tree tree, Analyzer analyzer, String field) {
    Map<String, Integer> dictionary = new ConcurrentHashMap<>();
    int[][] byLeaf = new int[tree.leafCount()][];
    for (int v = 0; v < byLeaf.length; v++) {
      byLeaf[v] = analyse(tree.text(v), analyzer, field, dictionary);
    }
    return new LeafTerms(dictionary, byLeaf);
  }

  /** The leaf index (-1: none) of each document of a segment. */
  interface SegmentLeaves {
    int[] of(LeafReader segment) throws IOException;
  }

  /**
   * The forward index of {@code leafCount} leaves read back from the postings and norms of {@code reader}, an
   * index holding one live document per leaf (deleted documents are skipped): the terms, frequencies and norms
   * the analysis of every leaf gives (Lucene indexed those very tokens), without analysing every leaf a second
   * time at open. Term ids are numbered in the order the terms are met. Null when some leaf has no live
   * document or more than one.
   */
  static LeafTerms fromIndex(int leafCount, IndexReader reader, String field, SegmentLeaves leavesOf)
      throws IOException {
    Map<String, Integer> dictionary = new ConcurrentHashMap<>();
    int[][] byLeaf = read(leafCount, reader, field, leavesOf, dictionary, true);
    return byLeaf == null ? null : new LeafTerms(dictionary, byLeaf);
  }

  /**
   * The entries of every live document of {@code reader}, by its index-wide document number (null for a
   * deleted one), with term ids in {@code dictionary} (filled here): what {@link #fromIndex} reads, before
   * the documents' leaves are known. {@link #of(Map, int[][])} then makes the forward index of a tree from them.
   */
  static int[][] byDocument(IndexReader reader, String field, Map<String, Integer> dictionary) throws IOException {
    return read(reader.maxDoc(), reader, field,
        segment -> {
          int base = -1;
          for (LeafReaderContext ctx : reader.leaves()) {
            if (ctx.reader() == segment) {
              base = ctx.docBase;
            }
          }
          int[] docs = new int[segment.maxDoc()];
          for (int doc = 0; doc < docs.length; doc++) {
            docs[doc] = base + doc;
          }
          return docs;
        }, dictionary, false);
  }

  /** The forward index made of entries read or analysed with {@code dictionary}, one per leaf in order. */
  static LeafTerms of(Map<String, Integer> dictionary, int[][] byLeaf) {
    return new LeafTerms(dictionary, byLeaf);
  }

  /** See {@link #fromIndex}; with {@code every}, null unless each of the {@code leafCount} slots has one entry. */
  private static int[][] read(int leafCount, IndexReader reader, String field, SegmentLeaves leavesOf,
      Map<String, Integer> dictionary, boolean every) throws IOException {
    List<LeafReaderContext> segments = reader.leaves();
    int[][] leavesBySegment = new int[segments.size()][];
    int[] count = new int[leafCount];
    int[] norm = new int[leafCount];
    boolean[] seen = new boolean[leafCount];
    // First pass: each leaf's norm and number of distinct terms, so that its entry is allocated once.
    for (int s = 0; s < segments.size(); s++) {
      LeafReader segment = segments.get(s).reader();
      int[] leaves = live(leavesOf.of(segment), segment.getLiveDocs());
      leavesBySegment[s] = leaves;
      NumericDocValues norms = segment.getNormValues(field);
      for (int doc = 0; doc < leaves.length; doc++) {
        int v = leaves[doc];
        if (v >= 0 && v < leafCount) {
          if (seen[v]) {
            return null; // a leaf indexed twice
          }
          seen[v] = true;
          norm[v] = norms != null && norms.advanceExact(doc) ? (int) (norms.longValue() & 0xFF) : 0;
        }
      }
      Terms terms = segment.terms(field);
      PostingsEnum pe = null;
      for (TermsEnum te = terms == null ? TermsEnum.EMPTY : terms.iterator(); te.next() != null; ) {
        pe = te.postings(pe, PostingsEnum.NONE);
        for (int doc = pe.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = pe.nextDoc()) {
          int v = leaves[doc];
          if (v >= 0 && v < leafCount) {
            count[v]++;
          }
        }
      }
    }
    int[][] byLeaf = new int[leafCount][];
    for (int v = 0; v < leafCount; v++) {
      if (!seen[v]) {
        if (every) {
          return null;
        }
        continue;
      }
      byLeaf[v] = new int[1 + 2 * count[v]];
      byLeaf[v][0] = norm[v];
      count[v] = 0;
    }
    // Second pass: (term id, frequency) pairs, term ids numbered in the order the terms are met.
    for (int s = 0; s < segments.size(); s++) {
      int[] leaves = leavesBySegment[s];
      Terms terms = segments.get(s).reader().terms(field);
      PostingsEnum pe = null;
      TermsEnum te = terms == null ? TermsEnum.EMPTY : terms.iterator();
      for (BytesRef t = te.next(); t != null; t = te.next()) {
        int id = dictionary.computeIfAbsent(t.utf8ToString(), k -> dictionary.size());
        pe = te.postings(pe, PostingsEnum.FREQS);
        for (int doc = pe.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = pe.nextDoc()) {
          int v = leaves[doc];
          if (v >= 0 && v < leafCount) {
            int[] e = byLeaf[v];
            e[1 + 2 * count[v]] = id;
            e[2 + 2 * count[v]++] = pe.freq();
          }
        }
      }
    }
    // A term met in a later segment may have a smaller id than one met before it: sort those segments' entries.
    // The first segment's terms are numbered in their (sorted) order, so its entries are sorted already.
    for (int s = 1; s < segments.size(); s++) {
      for (int v : leavesBySegment[s]) {
        if (v >= 0 && v < leafCount && byLeaf[v] != null) {
          sortPairs(byLeaf[v]);
        }
      }
    }
    return byLeaf;
  }

  /** {@code leaves} with -1 for every deleted document (a copy when some are deleted). */
  private static int[] live(int[] leaves, Bits liveDocs) {
    if (liveDocs == null) {
      return leaves;
    }
    int[] out = leaves.clone();
    for (int doc = 0; doc < out.length; doc++) {
      if (!liveDocs.get(doc)) {
        out[doc] = -1;
      }
    }
    return out;
  }

  /** Sorts an entry's (term id, frequency) pairs by term id. */
  private static void sortPairs(int[] e) {
    int m = (e.length - 1) / 2;
    long[] pairs = new long[m];
    for (int i = 0; i < m; i++) {
      pairs[i] = ((long) e[1 + 2 * i] << 32) | e[2 + 2 * i];
    }
    Arrays.sort(pairs);
    for (int i = 0; i < m; i++) {
      e[1 + 2 * i] = (int) (pairs[i] >>> 32);
      e[2 + 2 * i] = (int) pairs[i];
    }
  }

  /**
   * The version of {@code next}, {@code previous} changed by the leaves {@code gone} and {@code added} (indexes in
   * each): entries of leaves not added are carried, those of the leading leaves both trees hold at the same
   * indexes without a look.
   */
  LeafTerms next(Tree previous, List<Integer> gone, Tree next, List<Integer> added, Analyzer analyzer,
      String field) {
    int kept = unchangedLeaves(previous, gone, next, added);
    int[][] out = new int[next.leafCount()][];
    System.arraycopy(byLeaf, 0, out, 0, kept);
    for (int v : added) {
      out[v] = analyse(next.text(v), analyzer, field, dictionary);
    }
    // Leaves keep their relative order from version to version, so a leaf is first looked for just after the
    // previous one was found (the usual case, no lookup), then by id.
    int expected = kept;
    for (int v = kept; v < out.length; v++) {
      if (out[v] == null) {
        int o = previous.indexOf(next.id(v), expected);
        if (o >= 0) {
          expected = o + 1;
        }
        out[v] = o >= 0 && o < byLeaf.length ? byLeaf[o] : analyse(next.text(v), analyzer, field, dictionary);
      }
    }
    return new LeafTerms(dictionary, out);
  }

  /**
   * How many leading leaves {@code previous} and {@code next} share at the same indexes: those before the first
   * leaf gone and the first added (leaves keep their relative order from version to version).
   */
  private static int unchangedLeaves(Tree previous, List<Integer> gone, Tree next, List<Integer> added) {
    int kept = Math.min(previous.leafCount(), next.leafCount());
    for (int v : gone) {
      kept = Math.min(kept, v);
    }
    for (int v : added) {
      kept = Math.min(kept, v);
    }
    return kept;
  }

  /** The term id of {@code term}, or -1 when no leaf ever held it. */
  int termId(String term) {
    Integer id = dictionary.get(term);
    return id == null ? -1 : id;
  }

  /** Leaf {@code v}'s encoded length norm (as Lucene's BM25 stores it). */
  int norm(int v) {
    return byLeaf[v][0];
  }

  /** How often the term of id {@code termId} occurs in leaf {@code v} (0 when it does not). */
  int freq(int v, int termId) {
    int[] e = byLeaf[v];
    int lo = 0;
    int hi = (e.length - 1) / 2 - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int t = e[1 + 2 * mid];
      if (t < termId) {
        lo = mid + 1;
      } else if (t > termId) {
        hi = mid - 1;
      } else {
        return e[2 + 2 * mid];
      }
    }
    return 0;
  }

  /** The sum of leaf {@code v}'s term frequencies (its share of Lucene's {@code sumTotalTermFreq}). */
  int totalFreq(int v) {
    int[] e = byLeaf[v];
    int sum = 0;
    for (int i = 2; i < e.length; i += 2) {
      sum += e[i];
    }
    return sum;
  }

  /** How many distinct terms leaf {@code v} holds. */
  int distinctTerms(int v) {
    return (byLeaf[v].length - 1) / 2;
  }

  /** Analyses {@code text} into an entry, numbering new terms in {@code dictionary}. */
  static int[] analyse(String text, Analyzer analyzer, String field, Map<String, Integer> dictionary) {
    int[] ids = new int[16];
    int length = 0;
    try (TokenStream ts = analyzer.tokenStream(field, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        if (length == ids.length) {
          ids = Arrays.copyOf(ids, length * 2);
        }
        ids[length++] = dictionary.computeIfAbsent(term.toString(), t -> dictionary.size());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Arrays.sort(ids, 0, length);
    int[] entry = new int[1 + 2 * length];
    entry[0] = SmallFloat.intToByte4(length) & 0xFF;
    int m = 0;
    for (int i = 0; i < length; i++) {
      if (m > 0 && entry[2 * m - 1] == ids[i]) {
        entry[2 * m]++;
      } else {
        entry[1 + 2 * m] = ids[i];
        entry[2 + 2 * m] = 1;
        m++;
      }
    }
    return Arrays.copyOf(entry, 1 + 2 * m);
  }
}

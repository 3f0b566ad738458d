package dev.setree;

import dev.setree.internal.core.Tree;
import java.io.IOException;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SortedDocValues;

/**
 * Which leaf each document of a BM25 index segment ({@link LexicalIndex}) is: the documents' leaf ids, read
 * once per segment from the id doc values and kept while the segment lives, looked up in a version's tree.
 */
final class DocumentLeaves {
  /** Per segment (by its core cache key), the leaf id of each document. Segments never change. */
  private static final Map<Object, String[]> IDS_BY_SEGMENT = new WeakHashMap<>();

  private DocumentLeaves() {}

  /** The leaf index in {@code tree} (-1 if none) of every document of a segment. */
  static int[] of(LeafReader reader, Tree tree) throws IOException {
    String[] ids = idsOf(reader);
    int[] leaves = new int[ids.length];
    for (int doc = 0; doc < ids.length; doc++) {
      leaves[doc] = ids[doc] == null ? -1 : tree.indexOf(ids[doc]);
    }
    return leaves;
  }

  /** The leaf id of every document of a segment, computed once per segment. */
  private static String[] idsOf(LeafReader reader) throws IOException {
    Object key = reader.getCoreCacheHelper().getKey();
    synchronized (IDS_BY_SEGMENT) {
      String[] ids = IDS_BY_SEGMENT.get(key);
      if (ids != null) {
        return ids;
      }
    }
    String[] ids = new String[reader.maxDoc()];
    SortedDocValues dv = reader.getSortedDocValues(LeafDocument.ID);
    if (dv != null) {
      for (int doc = dv.nextDoc(); doc != SortedDocValues.NO_MORE_DOCS; doc = dv.nextDoc()) {
        ids[doc] = dv.lookupOrd(dv.ordValue()).utf8ToString();
      }
    }
    synchronized (IDS_BY_SEGMENT) {
      IDS_BY_SEGMENT.put(key, ids);
    }
    return ids;
  }
}

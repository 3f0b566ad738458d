package dev.setree;

import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.util.BytesRef;

/**
 * The BM25 document of one leaf ({@link LexicalIndex}): its text, analysed for BM25; its leaf id, as a term to
 * delete the document by and as doc values to map documents to leaves ({@link DocumentLeaves}); and a hash of
 * its text, by which a cached copy of the index tells a leaf whose text changed ({@link CachedLexicalIndex}).
 */
final class LeafDocument {
  static final String FIELD = "text";
  static final String ID = "id";
  /** A 64-bit hash of the leaf's text (doc values): tells a cached document of a leaf whose text changed. */
  static final String TEXT_HASH = "text_hash";

  /**
   * The text field: analysed like a {@link TextField}, with term frequencies but without positions, which no
   * query here reads (BM25 needs frequencies and the length norm, which positions do not change).
   */
  static final FieldType TEXT = textType();

  private LeafDocument() {}

  private static FieldType textType() {
    FieldType t = new FieldType(TextField.TYPE_NOT_STORED);
    t.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
    t.freeze();
    return t;
  }

  /** The document of the leaf {@code id} with {@code text}. */
  static Document of(String id, String text) {
    Document d = new Document();
    d.add(new Field(FIELD, text, TEXT));
    d.add(new StringField(ID, id, Field.Store.NO));
    d.add(new SortedDocValuesField(ID, new BytesRef(id)));
    d.add(new NumericDocValuesField(TEXT_HASH, textHash(text)));
    return d;
  }

  /**
   * The hash stored in {@link #TEXT_HASH}: 64-bit FNV-1a over the text's UTF-16 code units and its length,
   * finished by MurmurHash3's 64-bit mix. It tells a changed text, not a hostile one.
   */
  static long textHash(String text) {
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < text.length(); i++) {
      h = (h ^ text.charAt(i)) * 0x100000001b3L;
    }
    h ^= text.length();
    h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccdL;
    h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return h ^ (h >>> 33);
  }
}

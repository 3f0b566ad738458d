package dev.setree.internal.store;

import java.util.Map;

/**
 * A copy of the files of a BM25 index kept with the knowledge base, so that open can read it instead of
 * indexing every leaf (ADR 0030; tables {@code lexical_index} and {@code lexical_files}). A cache: it may lag the
 * tree, and whoever reads it must check it.
 *
 * @param format what wrote the files (a reader ignores a copy of a format it does not know)
 * @param lastSeq the highest mutation sequence number given when it was written: mutations after it may be
 *     missing from it; used only to decide when to replace it
 * @param generation the committed generation when it was written
 * @param files file name to contents
 */
public record LexicalCache(String format, long lastSeq, long generation, Map<String, byte[]> files) {}

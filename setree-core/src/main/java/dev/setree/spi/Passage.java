package dev.setree.spi;

/**
 * A piece of text with its embedding, as handed to a {@link Summarizer}: a leaf fact or a child's summary.
 *
 * @param id the node id (a leaf id for leaves)
 * @param text the verbatim text
 * @param embedding its unit-length embedding (not copied; do not modify)
 */
public record Passage(String id, String text, float[] embedding) {}

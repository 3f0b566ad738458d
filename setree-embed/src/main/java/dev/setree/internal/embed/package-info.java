/**
 * Internal (no compatibility promise; ADR 0021): the bundled all-MiniLM-L6-v2 embedder on ONNX Runtime and
 * its WordPiece token counter, loaded by {@code dev.setree.SETree}.
 */
package dev.setree.internal.embed;

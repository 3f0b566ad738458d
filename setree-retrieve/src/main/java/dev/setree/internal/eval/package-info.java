/**
 * Internal (no compatibility promise; ADR 0021): the evaluation's door into SETree, for {@code setree eval}:
 * the evaluation-only baselines and research knobs that are not part of the user API.
 */
package dev.setree.internal.eval;

/**
 * Internal (no compatibility promise; ADR 0021): building the summary hierarchy (kNN, Leiden, deferred
 * summaries) and the maintenance runs that apply mutations to it, driven by {@code dev.setree.SETree}.
 */
package dev.setree.internal.maintain;

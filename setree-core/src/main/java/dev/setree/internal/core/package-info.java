/**
 * Internal (no compatibility promise; ADR 0021): the tree snapshot, the oracle, the tree-cover walk and the
 * vector kernels every other module of SETree shares. Use {@code dev.setree} and {@code dev.setree.spi}.
 */
package dev.setree.internal.core;

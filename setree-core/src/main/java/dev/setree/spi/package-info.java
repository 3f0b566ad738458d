/**
 * What a host plugs into SETree (the service-provider interface): its {@link dev.setree.spi.Fact facts}, an
 * {@link dev.setree.spi.Embedder}, a {@link dev.setree.spi.TokenCounter} and a
 * {@link dev.setree.spi.Summarizer}. Exported with {@code dev.setree}; every other package is internal
 * (ADR 0021).
 */
package dev.setree.spi;

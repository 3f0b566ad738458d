/**
 * SETree's public API: open a knowledge base ({@link dev.setree.SETree}), configure it
 * ({@link dev.setree.SETreeConfig}, {@link dev.setree.LlmConfig}, {@link dev.setree.ConfigFile}), retrieve a
 * {@link dev.setree.Context} per prompt, insert and delete ({@link dev.setree.Ack}), and read what happened
 * ({@link dev.setree.BuildReport}, {@link dev.setree.MaintenanceReport}, {@link dev.setree.TreeView}). What a
 * host plugs in is in {@code dev.setree.spi}. Every other package of SETree is internal (ADR 0021).
 */
package dev.setree;

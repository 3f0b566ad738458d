/**
 * Internal (no compatibility promise; ADR 0021): the clients of the Target LLM (an OpenAI-compatible
 * endpoint) that write summaries and answer the web host's chat; configured through
 * {@code dev.setree.LlmConfig}.
 */
package dev.setree.internal.maintain.llm;

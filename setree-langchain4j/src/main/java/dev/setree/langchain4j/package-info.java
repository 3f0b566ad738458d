/**
 * SETree for LangChain4j applications: {@link dev.setree.langchain4j.SETreeContentRetriever} (the tree cover
 * as a {@code ContentRetriever}), {@link dev.setree.langchain4j.LangChain4jEmbedder} and
 * {@link dev.setree.langchain4j.LangChain4jSummarizer} (LangChain4j models behind SETree's SPI). Depends on
 * {@code langchain4j-core} only; see {@code docs/adr/0014-langchain4j-module.md}.
 */
package dev.setree.langchain4j;

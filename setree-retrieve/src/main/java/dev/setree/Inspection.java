package dev.setree;

/**
 * A knowledge base as {@link SETree#inspect} read it, for tools that show a tree (the command line's
 * {@code inspect}): the committed tree and what the file says about it.
 *
 * @param tree the committed tree (pending mutations not applied)
 * @param modelId the embedder model the knowledge base was built with
 * @param dimension the embedding dimension
 * @param pendingMutations inserts and deletes stored but not yet applied by a maintenance run
 */
public record Inspection(TreeView tree, String modelId, int dimension, int pendingMutations) {}

package dev.setree;

import dev.setree.internal.store.StoreException;

/**
 * Reports that a knowledge-base file could not be opened, read or deleted: it is missing, is not a SETree
 * knowledge base, is damaged or of a newer format, was built with another embedder, or a file operation on it
 * failed. The message names the file and says why; the store's own exception is the cause. Unchecked.
 */
public final class KnowledgeBaseException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private KnowledgeBaseException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The facade's form of a store failure: the same message, the store's exception as the cause. */
  static KnowledgeBaseException of(StoreException e) {
    return new KnowledgeBaseException(e.getMessage(), e);
  }
}

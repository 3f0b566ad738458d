package dev.setree.internal.store;

/**
 * Reports that a file is refused as a knowledge base: it is not a SQLite database, belongs to another
 * application, has a newer format version, was built with another embedder, or is corrupt. The message
 * names the file and the problem. When opening fails with this exception the file was not modified.
 */
public class StoreFormatException extends StoreException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with a message that names the file and the problem.
   *
   * @param message the problem, naming the file
   */
  public StoreFormatException(String message) {
    super(message);
  }

  /**
   * Creates an exception with a message that names the file and the problem, and its cause.
   *
   * @param message the problem, naming the file
   * @param cause the underlying failure
   */
  public StoreFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}

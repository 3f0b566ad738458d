package dev.setree.internal.store;

/**
 * Reports that a knowledge-base file could not be read or written: an I/O or SQLite failure, a failed
 * save, a missing file. The message always names the file. Unchecked, like every failure of the
 * {@link dev.setree.internal.core.TreeStore} interface.
 */
public class StoreException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with a message that names the file.
   *
   * @param message what failed, naming the file
   */
  public StoreException(String message) {
    super(message);
  }

  /**
   * Creates an exception with a message that names the file, and the failure that caused it.
   *
   * @param message what failed, naming the file
   * @param cause the underlying failure
   */
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}

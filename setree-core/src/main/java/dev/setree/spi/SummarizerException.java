package dev.setree.spi;

/** Signals that a {@link Summarizer} could not summarise a node; the builder then falls back. */
public class SummarizerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message naming the node and the cause. */
  public SummarizerException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Creates the exception with a message naming the node and the problem. */
  public SummarizerException(String message) {
    super(message);
  }
}

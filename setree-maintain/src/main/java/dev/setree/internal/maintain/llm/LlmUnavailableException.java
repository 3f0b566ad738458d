package dev.setree.internal.maintain.llm;

import dev.setree.spi.SummarizerException;

/**
 * Signals that the Target LLM could not be reached: connections refused or timed out, or the server kept
 * answering HTTP 429 or 5xx, after every retry. The message names the URL. A build checks reachability
 * first ({@link TargetLlmSummarizer#checkReachable()}) and fails with this exception instead of falling
 * back for every node; during a build it is one more summariser failure, counted as a fallback.
 */
public class LlmUnavailableException extends SummarizerException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception with a message naming the URL and the cause. */
  public LlmUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Creates the exception with a message naming the URL and the problem. */
  public LlmUnavailableException(String message) {
    super(message);
  }
}

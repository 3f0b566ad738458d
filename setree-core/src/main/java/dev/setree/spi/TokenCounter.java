package dev.setree.spi;

/**
 * Service interface for counting tokens: the single measure of every budget in the library (summary
 * caps, the budget-monotone rule and the retrieve budget all use the same counter).
 *
 * <p>Implementations must be thread-safe and additive over whitespace: the count of two texts joined by
 * a line break equals the sum of their counts. The walk relies on it to keep a rendered context within
 * budget without re-counting.
 */
@FunctionalInterface
public interface TokenCounter {

  /** Returns the number of tokens of {@code text} (0 for an empty or blank text). */
  int count(String text);
}

package dev.setree.testing;

import dev.setree.spi.TokenCounter;

/**
 * A deterministic {@link TokenCounter} for tests: one token per run of letters or digits and one per
 * other non-space character, so it is additive over whitespace as the contract requires.
 */
public final class SimpleTokenCounter implements TokenCounter {
  @Override
  public int count(String text) {
    int n = 0;
    boolean inWord = false;
    for (int i = 0; i < text.length(); i++) {
      char ch = text.charAt(i);
      if (Character.isLetterOrDigit(ch)) {
        if (!inWord) {
          n++;
          inWord = true;
        }
      } else {
        inWord = false;
        if (!Character.isWhitespace(ch)) {
          n++;
        }
      }
    }
    return n;
  }
}

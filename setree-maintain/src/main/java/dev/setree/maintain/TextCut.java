package dev.setree.maintain;

import dev.setree.core.TokenCounter;

/** Cuts text to a token cap: at the last sentence end that fits, else at the last word that fits. */
final class TextCut {
  static final String ELLIPSIS = "…";

  private TextCut() {}

  /** Returns {@code text} unchanged if it fits {@code maxTokens}, else the longest cut that fits. */
  static String fit(String text, int maxTokens, TokenCounter counter) {
    if (counter.count(text) <= maxTokens) {
      return text;
    }
    if (maxTokens <= 0) {
      return "";
    }
    // Sentence boundary first.
    int best = -1;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if ((c == '.' || c == '!' || c == '?') && (i + 1 == text.length() || Character.isWhitespace(text.charAt(i + 1)))) {
        if (counter.count(text.substring(0, i + 1)) <= maxTokens) {
          best = i + 1;
        } else {
          break;
        }
      }
    }
    if (best > 0) {
      return text.substring(0, best).strip();
    }
    // Else words, with an ellipsis: binary search on the number of words.
    String[] words = text.strip().split("\\s+");
    int ellipsis = counter.count(ELLIPSIS);
    int lo = 0;
    int hi = words.length;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (counter.count(String.join(" ", java.util.Arrays.copyOf(words, mid))) + ellipsis <= maxTokens) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    if (lo == 0) {
      return "";
    }
    return String.join(" ", java.util.Arrays.copyOf(words, lo)) + ELLIPSIS;
  }
}

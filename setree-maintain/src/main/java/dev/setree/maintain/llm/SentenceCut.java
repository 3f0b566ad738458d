package dev.setree.maintain.llm;

import dev.setree.core.TokenCounter;
import java.util.Arrays;

/** Cuts an answer to a token cap: at the last sentence end that fits, else at the last word that fits. */
final class SentenceCut {
  private SentenceCut() {}

  /** The longest prefix of {@code text} ending a sentence within {@code maxTokens}, or "" when none. */
  static String atSentence(String text, int maxTokens, TokenCounter counter) {
    if (counter.count(text) <= maxTokens && endsSentence(text)) {
      return text;
    }
    int best = -1;
    for (int i = 0; i < text.length(); i++) {
      if (isSentenceEnd(text, i)) {
        if (counter.count(text.substring(0, i + 1)) <= maxTokens) {
          best = i + 1;
        } else {
          break;
        }
      }
    }
    return best > 0 ? text.substring(0, best).strip() : "";
  }

  /** {@code text} if it fits, else the sentence cut, else the longest run of whole words that fits. */
  static String fit(String text, int maxTokens, TokenCounter counter) {
    if (counter.count(text) <= maxTokens) {
      return text;
    }
    String s = atSentence(text, maxTokens, counter);
    if (!s.isEmpty()) {
      return s;
    }
    return words(text, maxTokens, counter);
  }

  /** The longest run of whole leading words of {@code text} that fits {@code maxTokens}. */
  static String words(String text, int maxTokens, TokenCounter counter) {
    String[] w = text.strip().split("\\s+");
    int lo = 0;
    int hi = w.length;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (counter.count(String.join(" ", Arrays.copyOf(w, mid))) <= maxTokens) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return String.join(" ", Arrays.copyOf(w, lo));
  }

  static boolean endsSentence(String text) {
    String t = text.strip();
    return !t.isEmpty() && isSentenceEnd(t, t.length() - 1);
  }

  private static boolean isSentenceEnd(String text, int i) {
    char c = text.charAt(i);
    return (c == '.' || c == '!' || c == '?') && (i + 1 == text.length() || Character.isWhitespace(text.charAt(i + 1)));
  }
}

package dev.setree.internal.maintain;

import dev.setree.spi.TokenCounter;
import java.util.Arrays;

/**
 * Cuts a text to a token cap: at the last sentence end that fits, else after the last whole word that
 * fits. Used for summaries (the builder's caps, the Target LLM's answers) and for the lines of an LLM
 * prompt.
 *
 * <p>Linear in the text's length: each sentence (and each word) is counted once and the counts are summed,
 * which {@link TokenCounter}'s contract (additive over whitespace) makes equal to counting every prefix. A
 * sentence ends at {@code .}, {@code !} or {@code ?} followed by whitespace or the end of the text.
 */
public final class TextCut {
  /** What {@link #fit} appends to a text cut between words. */
  public static final String ELLIPSIS = "…";

  private TextCut() {}

  /**
   * Returns {@code text} unchanged if it fits {@code maxTokens}; else the longest run of whole sentences
   * that fits; else the longest run of whole words that fits with {@link #ELLIPSIS} appended; else "".
   */
  public static String fit(String text, int maxTokens, TokenCounter counter) {
    if (counter.count(text) <= maxTokens) {
      return text;
    }
    if (maxTokens <= 0) {
      return "";
    }
    String sentences = sentencesThatFit(text, maxTokens, counter);
    if (!sentences.isEmpty()) {
      return sentences;
    }
    int n = wordsThatFit(words(text), maxTokens - (long) counter.count(ELLIPSIS), counter);
    return n == 0 ? "" : String.join(" ", Arrays.copyOf(words(text), n)) + ELLIPSIS;
  }

  /**
   * Returns {@code text} unchanged if it fits {@code maxTokens}; else the longest run of whole sentences
   * that fits; else the longest run of whole words that fits (no ellipsis), possibly "".
   */
  public static String fitWithoutEllipsis(String text, int maxTokens, TokenCounter counter) {
    if (counter.count(text) <= maxTokens) {
      return text;
    }
    String sentences = sentencesThatFit(text, maxTokens, counter);
    return sentences.isEmpty() ? words(text, maxTokens, counter) : sentences;
  }

  /**
   * The longest prefix of {@code text} that ends a sentence within {@code maxTokens} ({@code text} itself
   * when it fits and ends a sentence), stripped; "" when no sentence end fits.
   */
  public static String atSentence(String text, int maxTokens, TokenCounter counter) {
    if (counter.count(text) <= maxTokens && endsSentence(text)) {
      return text;
    }
    return sentencesThatFit(text, maxTokens, counter);
  }

  /** The longest run of whole leading words of {@code text} that fits {@code maxTokens}, joined by spaces. */
  public static String words(String text, int maxTokens, TokenCounter counter) {
    String[] words = words(text);
    return String.join(" ", Arrays.copyOf(words, wordsThatFit(words, maxTokens, counter)));
  }

  /** Whether {@code text}, stripped, is non-empty and ends a sentence. */
  public static boolean endsSentence(String text) {
    String t = text.strip();
    return !t.isEmpty() && isSentenceEnd(t, t.length() - 1);
  }

  /** The longest prefix ending a sentence within {@code maxTokens}, stripped, or "": one pass, each sentence counted once. */
  private static String sentencesThatFit(String text, int maxTokens, TokenCounter counter) {
    int best = -1;
    long used = 0;
    for (int i = 0; i < text.length(); i++) {
      if (isSentenceEnd(text, i)) {
        used += counter.count(text.substring(best < 0 ? 0 : best, i + 1));
        if (used > maxTokens) {
          break;
        }
        best = i + 1;
      }
    }
    return best > 0 ? text.substring(0, best).strip() : "";
  }

  private static String[] words(String text) {
    return text.strip().split("\\s+");
  }

  /** How many leading {@code words} fit {@code room} tokens: each word counted once. */
  private static int wordsThatFit(String[] words, long room, TokenCounter counter) {
    long used = 0;
    int n = 0;
    while (n < words.length) {
      used += counter.count(words[n]);
      if (used > room) {
        break;
      }
      n++;
    }
    return n;
  }

  private static boolean isSentenceEnd(String text, int i) {
    char c = text.charAt(i);
    return (c == '.' || c == '!' || c == '?')
        && (i + 1 == text.length() || Character.isWhitespace(text.charAt(i + 1)));
  }
}

package dev.setree.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Splits text into lower-cased words without punctuation, and drops English stop words for answers. */
final class AnswerWords {
  static final Set<String> STOP = Set.of("a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at",
      "for", "with", "by", "from", "as", "is", "was", "are", "were", "be", "been", "being", "it", "its", "this",
      "that", "these", "those", "he", "she", "they", "them", "his", "her", "their", "i", "you", "we", "my",
      "your", "our", "me", "him", "us", "do", "does", "did", "has", "have", "had", "not", "no", "so", "if",
      "than", "then", "there", "about", "into", "over", "also", "s", "will", "would", "can", "could", "which",
      "who", "what", "when", "where", "how", "some", "any", "all", "both", "each", "other", "such", "only");

  private AnswerWords() {}

  static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }

  static List<String> contentWords(String text) {
    return words(text).stream().filter(w -> !STOP.contains(w)).distinct().toList();
  }
}

package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.TokenCounter;
import dev.setree.testing.SimpleTokenCounter;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The one sentence/word cutter: the old per-prefix scans' results, in one pass over the text. */
class TextCutTest {
  private final TokenCounter counter = new SimpleTokenCounter();

  @Test
  void cutsAtSentenceThenWords() {
    assertEquals("One two.", TextCut.fit("One two. Three four five.", 3, counter));
    assertEquals("One two three…", TextCut.fit("One two three four five six", 4, counter));
    assertEquals("short", TextCut.fit("short", 4, counter));
    assertEquals("", TextCut.fit("anything", 0, counter));
    assertEquals("One two three four", TextCut.fitWithoutEllipsis("One two three four five six", 4, counter));
    assertEquals("A b. C d!", TextCut.atSentence("A b. C d! E f", 100, counter));
    assertEquals("A b. C d! E f.", TextCut.atSentence("A b. C d! E f.", 100, counter));
    assertEquals("", TextCut.atSentence("no end here", 100, counter));
    assertTrue(TextCut.endsSentence("Done?  "));
    assertEquals("", TextCut.words("word", -1, counter));
  }

  /** The same results as the former TextCut and SentenceCut (kept below as references) on random texts. */
  @Test
  void agreesWithTheFormerPerPrefixScans() {
    for (long seed = 1; seed <= 300; seed++) {
      Random r = new Random(seed);
      String text = randomText(r, 1 + r.nextInt(40));
      int max = r.nextInt(60) - 2;
      String at = "seed " + seed + ", max " + max + ": " + text;
      assertEquals(oldTextCutFit(text, max), TextCut.fit(text, max, counter), at);
      assertEquals(oldSentenceCutFit(text, max), TextCut.fitWithoutEllipsis(text, max, counter), at);
      assertEquals(oldAtSentence(text, max), TextCut.atSentence(text, max, counter), at);
      assertEquals(oldWords(text, max), TextCut.words(text, max, counter), at);
    }
  }

  /** A long text is read a bounded number of times, not once per sentence end (the old scans' n^2 / 2). */
  @Test
  void countsALongTextInLinearWork() {
    StringBuilder b = new StringBuilder();
    Random r = new Random(7);
    while (b.length() < 2_000_000) {
      b.append(randomText(r, 8)).append(' ');
    }
    String text = b.toString();
    AtomicLong read = new AtomicLong();
    TokenCounter counting = s -> {
      read.addAndGet(s.length());
      return counter.count(s);
    };
    int all = counter.count(text);
    String cut = TextCut.fit(text, all - 1, counting);
    assertTrue(cut.length() < text.length() && TextCut.endsSentence(cut));
    assertTrue(read.get() <= 3L * text.length(), "read " + read.get() + " characters for " + text.length());
    read.set(0);
    String none = TextCut.atSentence(text, Integer.MAX_VALUE, s -> s.length());
    assertTrue(TextCut.endsSentence(none));
    read.set(0);
    TextCut.words(text.replaceAll("[.!?]", ""), all / 2, counting);
    assertTrue(read.get() <= 2L * text.length(), "read " + read.get() + " characters for " + text.length());
  }

  private static String randomText(Random r, int words) {
    String[] vocab = {"alpha", "b", "c3", "delta", "e-f", "x", "yy", "the", "user", "42", ",", "it's"};
    String[] ends = {".", "!", "?", ". ", "...", ".x", ""};
    StringBuilder b = new StringBuilder();
    if (r.nextInt(5) == 0) {
      b.append(' ');
    }
    for (int i = 0; i < words; i++) {
      if (i > 0) {
        b.append(r.nextInt(6) == 0 ? "  " : r.nextInt(8) == 0 ? "\n" : " ");
      }
      b.append(vocab[r.nextInt(vocab.length)]);
      if (r.nextInt(4) == 0) {
        b.append(ends[r.nextInt(ends.length)]);
      }
    }
    return b.toString();
  }

  // ------------------------------------------------------------ the former implementations, as references

  private String oldTextCutFit(String text, int maxTokens) {
    if (counter.count(text) <= maxTokens) {
      return text;
    }
    if (maxTokens <= 0) {
      return "";
    }
    String s = oldScan(text, maxTokens);
    if (!s.isEmpty()) {
      return s;
    }
    String[] words = text.strip().split("\\s+");
    int ellipsis = counter.count(TextCut.ELLIPSIS);
    int lo = 0;
    int hi = words.length;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (counter.count(String.join(" ", Arrays.copyOf(words, mid))) + ellipsis <= maxTokens) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo == 0 ? "" : String.join(" ", Arrays.copyOf(words, lo)) + TextCut.ELLIPSIS;
  }

  private String oldSentenceCutFit(String text, int maxTokens) {
    if (counter.count(text) <= maxTokens) {
      return text;
    }
    String s = oldAtSentence(text, maxTokens);
    return s.isEmpty() ? oldWords(text, maxTokens) : s;
  }

  private String oldAtSentence(String text, int maxTokens) {
    if (counter.count(text) <= maxTokens && TextCut.endsSentence(text)) {
      return text;
    }
    return oldScan(text, maxTokens);
  }

  private String oldScan(String text, int maxTokens) {
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
    return best > 0 ? text.substring(0, best).strip() : "";
  }

  private String oldWords(String text, int maxTokens) {
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
}

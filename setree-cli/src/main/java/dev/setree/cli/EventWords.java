package dev.setree.cli;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.LowerCaseFilter;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The overview metrics of broad prompts ({@code ../shared/eval/README.md}): ROUGE-1 recall of a context
 * against reference events and the share of events it covers. Words are Lucene's: the standard tokenizer,
 * possessives removed, lower-cased, English stop words (Lucene's list and the answer words' list) dropped,
 * Porter-stemmed (the stemmer of ROUGE-1.5.5's {@code -m}).
 */
final class EventWords {
  private static final CharArraySet STOP;

  static {
    CharArraySet s = new CharArraySet(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, true);
    s.addAll(AnswerWords.STOP);
    STOP = CharArraySet.unmodifiableSet(s);
  }

  private static final Analyzer ANALYZER = new Analyzer() {
    @Override
    protected TokenStreamComponents createComponents(String field) {
      Tokenizer source = new StandardTokenizer();
      TokenStream t = new EnglishPossessiveFilter(source);
      t = new LowerCaseFilter(t);
      t = new StopFilter(t, STOP);
      t = new PorterStemFilter(t);
      return new TokenStreamComponents(source, t);
    }
  };

  private EventWords() {}

  /** The content-word stems of a text, in order, with repeats. */
  static List<String> stems(String text) {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = ANALYZER.tokenStream("t", new StringReader(text))) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }

  private static Map<String, Integer> counts(List<String> words) {
    Map<String, Integer> m = new HashMap<>();
    for (String w : words) {
      m.merge(w, 1, Integer::sum);
    }
    return m;
  }

  /**
   * ROUGE-1 recall: the events' content-word unigrams (all events of the query together, with repeats)
   * matched by the context, each context word matching at most as often as it occurs (clipped counts).
   *
   * @return in [0, 1]; 0 when the events have no content word
   */
  static double rouge1(List<String> events, String context) {
    Map<String, Integer> ref = counts(stems(String.join("\n", events)));
    Map<String, Integer> got = counts(stems(context));
    int total = 0;
    int hit = 0;
    for (Map.Entry<String, Integer> e : ref.entrySet()) {
      total += e.getValue();
      hit += Math.min(e.getValue(), got.getOrDefault(e.getKey(), 0));
    }
    return total == 0 ? 0 : hit / (double) total;
  }

  /** Share of events with at least half of their distinct content words in the context. */
  static double coverage(List<String> events, String context) {
    if (events.isEmpty()) {
      return 0;
    }
    Set<String> got = new HashSet<>(stems(context));
    int covered = 0;
    for (String e : events) {
      Set<String> want = new HashSet<>(stems(e));
      if (want.isEmpty()) {
        continue;
      }
      int n = 0;
      for (String w : want) {
        if (got.contains(w)) {
          n++;
        }
      }
      if (2 * n >= want.size()) {
        covered++;
      }
    }
    return covered / (double) events.size();
  }
}

package dev.setree;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.ToIntFunction;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.WordlistLoader;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.util.IOUtils;

/**
 * Which of a prompt's BM25 terms are worth their postings: a term that only a stop word of the prompt gives
 * (in Snowball's English stop list, which Lucene ships: "we", "our", "have", "which", ...) is not searched when
 * more than {@link #MAX_POSTINGS} leaves hold it.
 *
 * <p>{@link org.apache.lucene.analysis.en.EnglishAnalyzer}'s own stop list has 33 words, so the leaves and the
 * prompts keep "we" or "have". In a knowledge base of a million sentences each of those is in 14-24% of the
 * leaves: their postings are most of the cost of a prompt's BM25 top hits (docs/benchmarks.md), for the lowest
 * weights (idf). A knowledge base of at most {@link #MAX_POSTINGS} leaves has every term searched, exactly as
 * before; the index itself is unchanged at any size. Dropping the Snowball stop words from every prompt was
 * measured on the dev LoCoMo data (docs/adr/0031-prompt-stop-words-with-long-postings.md): better on one variant,
 * slightly worse on the other, so it is done only where it saves time. The analysis is the index's
 * ({@code EnglishAnalyzer}) with the longer stop list; the two must change together.
 */
final class PromptStopWords {
  /** Postings (leaves holding the term, deleted ones included) above which a stop word's term is not searched. */
  static final int MAX_POSTINGS = 20_000;

  private static final CharArraySet SNOWBALL = snowball();
  /** The BM25 analysis without the Snowball stop words: the terms the prompt's other words give. */
  private static final Analyzer CONTENT = new EnglishAnalyzer(SNOWBALL);

  private PromptStopWords() {}

  /**
   * Removes from {@code terms} (the analysis of {@code prompt}) each term that more than {@code maxPostings}
   * of the index's {@code documents} hold ({@code docFreq}) and that no word of the prompt outside the stop list
   * gives.
   */
  static void dropCommon(Set<String> terms, String prompt, int documents, ToIntFunction<String> docFreq,
      int maxPostings) {
    if (documents <= maxPostings) {
      return; // no term can have that many postings
    }
    Set<String> content = null;
    for (Iterator<String> it = terms.iterator(); it.hasNext(); ) {
      String t = it.next();
      if (docFreq.applyAsInt(t) > maxPostings) {
        if (content == null) {
          content = analyse(CONTENT, LeafDocument.FIELD, prompt, Integer.MAX_VALUE);
        }
        if (!content.contains(t)) {
          it.remove();
        }
      }
    }
  }

  /** The distinct terms {@code analyzer} makes of {@code text}, in order, at most {@code max}. */
  static Set<String> analyse(Analyzer analyzer, String field, String text, int max) {
    Set<String> terms = new LinkedHashSet<>();
    try (TokenStream ts = analyzer.tokenStream(field, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken() && terms.size() < max) {
        terms.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return terms;
  }

  private static CharArraySet snowball() {
    try (Reader r = IOUtils.getDecodingReader(SnowballFilter.class, "english_stop.txt", StandardCharsets.UTF_8)) {
      return CharArraySet.unmodifiableSet(WordlistLoader.getSnowballWordSet(r));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read Lucene's Snowball English stop list", e);
    }
  }
}

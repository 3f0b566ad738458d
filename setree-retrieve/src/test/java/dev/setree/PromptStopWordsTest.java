package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A prompt's stop words are searched unless their postings are long (docs/adr/0031): content words are searched
 * however long their postings, and a knowledge base too small for any postings to be long is searched exactly as
 * the analysis gives.
 */
class PromptStopWordsTest {
  @Test
  void stopWordsWithLongPostingsAreNotSearched() throws Exception {
    List<String> ids = new ArrayList<>();
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      ids.add("f" + i);
      // "we" (a Snowball stop word, not one of EnglishAnalyzer's) in 200 leaves, "cats" in 150, "which" in 30
      texts.add((i % 3 != 0 ? "we " : "they ") + (i % 2 == 0 ? "love cats" : "feed dogs") + (i % 10 == 0 ? " which" : ""));
    }
    LexicalIndex index = LexicalIndex.of(SnapshotNextTest.tree(ids, texts));
    String prompt = "Which cats do we love?";
    assertEquals(Set.of("which", "cat", "do", "we", "love"), index.terms(prompt, 300), "no postings above 300");
    assertEquals(Set.of("which", "cat", "do", "love"), index.terms(prompt, 199), "'we' in 200 leaves");
    assertEquals(Set.of("which", "cat", "do", "love"), index.terms(prompt, 150), "'cats' (150) is a content word");
    assertEquals(Set.of("which", "cat", "do", "love"), index.terms(prompt, 30), "'which' in 30 leaves");
    assertEquals(Set.of("cat", "do", "love"), index.terms(prompt, 29), "'which' in 30 leaves, above 29");
    // a stop word no leaf holds ("our") costs nothing and stays; the order is the prompt's
    assertEquals(List.of("love", "our", "cat"), List.copyOf(index.terms("We love our cats", 1)));
  }
}

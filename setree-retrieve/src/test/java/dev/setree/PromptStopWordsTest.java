package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.Tree;
import java.util.ArrayList;
import java.util.Arrays;
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
      texts.add((i % 3 != 0 ? "we " : "they ") + (i % 2 == 0 ? "love cats" : "feed dogs")
          + (i % 10 == 0 ? " which" : ""));
    }
    Tree tree = SnapshotNextTest.tree(ids, texts);
    LexicalIndex index = LexicalIndex.of(tree);
    String prompt = "Which cats do we love?";
    assertEquals(Set.of("which", "cat", "do", "we", "love"), index.terms(prompt, 300), "no postings above 300");
    assertEquals(Set.of("which", "cat", "do", "love"), index.terms(prompt, 199), "'we' in 200 leaves");
    assertEquals(Set.of("which", "cat", "do", "love"), index.terms(prompt, 150), "'cats' (150) is a content word");
    assertEquals(Set.of("which", "cat", "do", "love"), index.terms(prompt, 30), "'which' in 30 leaves");
    assertEquals(Set.of("cat", "do", "love"), index.terms(prompt, 29), "'which' in 30 leaves, above 29");
    // a stop word no leaf holds ("our") costs nothing and stays; the order is the prompt's
    assertEquals(List.of("love", "our", "cat"), List.copyOf(index.terms("We love our cats", 1)));

    // the candidate path's lookup drops the same terms: "we feed dogs" matches only through "we"
    int weOnly = tree.indexOf("f1");
    int withoutWe = tree.indexOf("f0"); // "they love cats which"
    assertTrue(index.prompt(prompt, 300).leafScorer().score(weOnly) > 0f);
    assertEquals(0f, index.prompt(prompt, 199).leafScorer().score(weOnly));
    assertEquals(index.prompt(prompt, 300).leafScorer().score(withoutWe),
        index.prompt(prompt, 199).leafScorer().score(withoutWe), 1e-6f);
    assertTrue(Arrays.stream(index.prompt(prompt, 300).top(300).leaves()).anyMatch(v -> v == weOnly));
    assertFalse(Arrays.stream(index.prompt(prompt, 199).top(300).leaves()).anyMatch(v -> v == weOnly));
  }
}

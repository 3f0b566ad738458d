package dev.setree.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The overview metrics: content words, stemming, clipped ROUGE-1 recall, event coverage. */
class EventWordsTest {
  @Test
  void stemsContentWordsAndDropsStopWords() {
    assertEquals(List.of("carolin", "attend", "support", "group"),
        EventWords.stems("Caroline's attending the support groups."));
  }

  @Test
  void rougeOneIsClippedRecallOfTheEventsWords() {
    List<String> events = List.of("Caroline attends a support group.", "Caroline adopts a dog.");
    // event words: carolin x2, attend, support, group, adopt, dog = 7
    assertEquals(1.0, EventWords.rouge1(events, "Caroline attended support groups; Caroline adopted a dog"), 1e-9);
    assertEquals(1 / 7.0, EventWords.rouge1(events, "Caroline went home"), 1e-9, "one Caroline matches once");
    assertEquals(2 / 7.0, EventWords.rouge1(events, "Caroline, Caroline and Caroline"), 1e-9, "clipped at 2");
    assertEquals(0.0, EventWords.rouge1(List.of("the and of"), "anything"), 1e-9);
  }

  @Test
  void anEventIsCoveredWithHalfItsWords() {
    List<String> events = List.of("Caroline attends a support group.", "Melanie paints a sunset lake.");
    assertEquals(0.5, EventWords.coverage(events, "caroline support"), 1e-9);
    assertEquals(0.0, EventWords.coverage(events, "caroline"), 1e-9);
    assertEquals(1.0, EventWords.coverage(events, "caroline support; melanie painting sunsets"), 1e-9);
  }
}

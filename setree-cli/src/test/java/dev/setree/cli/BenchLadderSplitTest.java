package dev.setree.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.Fact;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The ladder's split of a corpus into leaves, held-out prompts and warm-up prompts. */
class BenchLadderSplitTest {
  /** Distinct sentences of more than 12 words, so that a prompt is a strict prefix of its sentence. */
  private static List<String> corpus(int size) {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < size; i++) {
      out.add("sentence " + i + " says one two three four five six seven eight nine ten and then more words");
    }
    return out;
  }

  private static void assertSizes(BenchLadder.Split s, int facts, int held, int warmup) {
    assertEquals(facts, s.facts().size(), "leaves");
    assertEquals(held, s.held().size(), "held-out prompts");
    assertEquals(warmup, s.warmup().size(), "warm-up prompts");
  }

  private static Set<String> leafPrompts(List<Fact> facts) {
    return facts.stream().map(f -> BenchLadder.truncate(f.text())).collect(Collectors.toSet());
  }

  @Test
  void warmUpPromptsAreOtherSentencesThanTheLeavesAndTheHeldOutPrompts() {
    List<String> all = corpus(1_300);
    BenchLadder.Split s = BenchLadder.split(all, 1_100, 300, 100, 250);
    assertSizes(s, 300, 100, 250);
    Set<String> warm = new HashSet<>(s.warmup());
    assertEquals(250, warm.size(), "warm-up prompts repeat");
    for (String h : s.held()) {
      assertFalse(warm.contains(h), "a held-out prompt is warmed up: " + h);
    }
    Set<String> leaves = leafPrompts(s.facts());
    for (String w : warm) {
      assertFalse(leaves.contains(w), "a leaf's sentence is a warm-up prompt: " + w);
    }
  }

  @Test
  void leavesAndHeldOutPromptsComeFromTheBaseAloneWhateverTheWarmUp() {
    List<String> all = corpus(2_000);
    BenchLadder.Split none = BenchLadder.split(all.subList(0, 1_100), 1_100, 300, 100, 0);
    BenchLadder.Split some = BenchLadder.split(all, 1_100, 300, 100, 900);
    assertEquals(none.facts(), some.facts());
    assertEquals(none.held(), some.held());
    assertTrue(none.warmup().isEmpty());
    assertEquals(900, some.warmup().size());
    // the base's 700 unused sentences, then 200 after it
    assertTrue(some.warmup().contains(BenchLadder.truncate(all.get(1_999 - 800))));
    assertFalse(some.warmup().contains(BenchLadder.truncate(all.get(1_100 + 200))));
  }

  @Test
  void aShortCorpusWarmsUpOnTheHeldOutPromptsAgain() {
    List<String> all = corpus(120);
    BenchLadder.Split s = BenchLadder.split(all, 120, 100, 20, 50);
    assertSizes(s, 100, 20, 50);
    assertEquals(s.held(), s.warmup().subList(0, 20));
    assertEquals(s.held(), s.warmup().subList(20, 40));
  }

  @Test
  void aSyntheticRungWarmsUpOnTheSentencesAfterItsPrompts() {
    List<String> all = corpus(150);
    BenchLadder.Split s = BenchLadder.split(all, 150, 400, 30, 60);
    assertSizes(s, 400, 30, 60);
    assertEquals(BenchLadder.truncate(all.get(0)), s.held().get(0));
    assertEquals(BenchLadder.truncate(all.get(30)), s.warmup().get(0));
    assertEquals(BenchLadder.truncate(all.get(89)), s.warmup().get(59));
  }
}

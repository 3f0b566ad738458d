package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.maintain.ExtractiveSummarizer;
import dev.setree.spi.Fact;
import dev.setree.spi.Summarizer;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.TempKnowledgeBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The facade on real SQLite files and real Leiden, with the fast deterministic embedder. */
@ExtendWith(TempKnowledgeBase.class)
class SETreeTest {
  static final SimpleTokenCounter COUNTER = new SimpleTokenCounter();

  /** A summariser that counts its calls, to prove retrieve never summarises. */
  static final class CountingSummarizer implements Summarizer {
    final AtomicInteger calls = new AtomicInteger();
    final ExtractiveSummarizer inner = new ExtractiveSummarizer();

    @Override
    public String kind() {
      return "counting";
    }

    @Override
    public Summary summarize(Request request) {
      calls.incrementAndGet();
      return inner.summarize(request);
    }
  }

  static SETreeConfig config(Summarizer s) {
    return SETreeConfig.builder().embedder(new HashEmbedder(48)).tokenCounter(COUNTER).summarizer(s).build();
  }

  /** Build, retrieve, close, reopen: the same tree and the same context come back from the file. */
  @Test
  void buildRetrieveReopen(@TempKnowledgeBase.File Path kb) {
    List<Fact> facts = Corpora.synthetic(300, 1);
    Context before;
    try (SETree t = SETree.open(kb, config(null))) {
      t.build(facts, BuildProgress.NONE);
      before = t.retrieve("Anna plays piano every weekend", 200);
      assertTrue(before.tokensUsed() <= 200);
      assertTrue(before.complete());
      assertEquals(300, t.stats().leaves());
    }
    try (SETree t = SETree.open(kb, config(null))) {
      Context after = t.retrieve("Anna plays piano every weekend", 200);
      assertEquals(before.text(), after.text());
      assertEquals(300, t.tree().leafCount());
    }
  }

  /** Retrieve never calls the summariser (nor, therefore, an LLM). */
  @Test
  void retrieveNeverSummarises(@TempKnowledgeBase.File Path kb) {
    CountingSummarizer s = new CountingSummarizer();
    try (SETree t = SETree.open(kb, config(s))) {
      t.build(Corpora.synthetic(200, 2), BuildProgress.NONE);
      int afterBuild = s.calls.get();
      assertTrue(afterBuild > 0);
      for (int i = 0; i < 50; i++) {
        for (Strategy st : Strategy.values()) {
          t.retrieve("Chen codes rust at night " + i, 64 + 10 * i, st);
        }
      }
      assertEquals(afterBuild, s.calls.get());
    }
  }

  /** The rendered text never exceeds the budget in the counter's tokens, for every strategy and budget. */
  @Test
  void renderedTextFitsTheBudget(@TempKnowledgeBase.File Path kb) {
    Random r = new Random(5);
    try (SETree t = SETree.open(kb, config(null))) {
      t.build(Corpora.synthetic(400, 3), BuildProgress.NONE);
      for (int i = 0; i < 200; i++) {
        int budget = r.nextInt(600);
        for (Strategy st : Strategy.values()) {
          Context c = t.retrieve("who visits kyoto or collects stamps " + i, budget, st);
          assertTrue(COUNTER.count(c.text()) <= budget, "budget " + budget + " " + st);
          assertEquals(COUNTER.count(c.text()), c.tokensUsed(), st.toString());
        }
      }
    }
  }

  /** A budget below the root summary returns what fits, says so, and never throws. */
  @Test
  void tinyBudgetSaysItIsPartial(@TempKnowledgeBase.File Path kb) {
    try (SETree t = SETree.open(kb, config(null))) {
      t.build(Corpora.synthetic(100, 4), BuildProgress.NONE);
      int rootCost = t.tree().tokens(t.tree().root()) + COUNTER.count("Summary:");
      Context c = t.retrieve("anything at all", rootCost - 1);
      assertFalse(c.complete());
      assertTrue(c.tokensUsed() < rootCost);
      Context zero = t.retrieve("anything at all", 0);
      assertEquals("", zero.text());
      assertFalse(zero.complete());
    }
  }

  /** Many threads retrieving at once agree with one thread. */
  @Test
  void concurrentRetrievesAgree(@TempKnowledgeBase.File Path kb) throws Exception {
    try (SETree t = SETree.open(kb, config(null))) {
      t.build(Corpora.synthetic(500, 6), BuildProgress.NONE);
      List<String> prompts = new ArrayList<>();
      List<String> expected = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        prompts.add("Dara trains cycling and reads poetry " + i);
        expected.add(t.retrieve(prompts.get(i), 50 + 7 * i).text());
      }
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        List<Future<Boolean>> fs = new ArrayList<>();
        for (int th = 0; th < 8; th++) {
          fs.add(pool.submit(() -> {
            for (int i = 0; i < prompts.size(); i++) {
              if (!t.retrieve(prompts.get(i), 50 + 7 * i).text().equals(expected.get(i))) {
                return false;
              }
            }
            return true;
          }));
        }
        for (Future<Boolean> f : fs) {
          assertTrue(f.get());
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /** Readers during a rebuild see the old tree or the new one, never an error or a mix. */
  @Test
  void readersDuringBuildSeeWholeTrees(@TempKnowledgeBase.File Path kb) throws Exception {
    try (SETree t = SETree.open(kb, config(null))) {
      t.build(Corpora.synthetic(200, 7), BuildProgress.NONE);
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        Future<Integer> reader = pool.submit(() -> {
          int n = 0;
          for (int i = 0; i < 300; i++) {
            Context c = t.retrieve("Bruno hikes glacier", 300);
            int leaves = t.tree().leafCount();
            if (leaves != 200 && leaves != 350) {
              throw new AssertionError("mixed tree of " + leaves + " leaves");
            }
            n += c.items().size();
          }
          return n;
        });
        t.build(Corpora.synthetic(350, 8), BuildProgress.NONE);
        assertTrue(reader.get() > 0);
        assertEquals(350, t.tree().leafCount());
      } finally {
        pool.shutdownNow();
      }
    }
  }

  /** Empty knowledge base, blank prompt, negative budget, closed instance: documented behaviour. */
  @Test
  void edgeCases(@TempKnowledgeBase.File Path kb) {
    SETree t = SETree.open(kb, config(null));
    Context empty = t.retrieve("hello", 100);
    assertEquals("", empty.text());
    assertTrue(empty.complete());
    assertThrows(IllegalArgumentException.class, () -> t.retrieve("  ", 100));
    assertThrows(IllegalArgumentException.class, () -> t.retrieve("x", -1));
    assertThrows(IllegalArgumentException.class, () -> t.build(List.of("only one")));
    t.close();
    t.close();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.retrieve("x", 10));
    assertTrue(e.getMessage().contains("closed"));
  }

  /** Bad configuration values are refused naming the key. */
  @Test
  void configValidation() {
    var e = assertThrows(IllegalArgumentException.class, () -> SETreeConfig.builder().beta(Double.NaN).build());
    assertTrue(e.getMessage().contains("calibration.beta"));
    e = assertThrows(IllegalArgumentException.class, () -> SETreeConfig.builder().epsilon(-1).build());
    assertTrue(e.getMessage().contains("calibration.epsilon"));
    e = assertThrows(IllegalArgumentException.class,
        () -> SETreeConfig.builder().faithfulnessThreshold(101).build());
    assertTrue(e.getMessage().contains("faithfulness_threshold"));
    e = assertThrows(IllegalArgumentException.class, () -> SETreeConfig.builder().defaultBudget(0).build());
    assertTrue(e.getMessage().contains("default_budget"));
  }
}

package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.Fact;
import dev.setree.internal.core.HierarchyState;
import dev.setree.spi.Summarizer;
import dev.setree.spi.SummarizerException;
import dev.setree.internal.core.Tree;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Structural invariants of built trees, on the fast deterministic embedder. */
class TreeBuilderTest {
  final HashEmbedder embedder = new HashEmbedder(48);
  final SimpleTokenCounter counter = new SimpleTokenCounter();

  BuildResult build(List<Fact> facts, Summarizer s) {
    return new TreeBuilder(embedder, counter, s, BuildOptions.DEFAULTS).build(facts, BuildProgress.NONE);
  }

  /** Every leaf once, parents after children, no empty or single-child node, caps and monotonicity. */
  /** Internal ids are read in place; anything else (a fact id, a malformed or huge number) is not one. */
  @Test
  void internalNumbersOfIds() {
    assertEquals(0, TreeBuilder.IdSource.internalNumber("_n0"));
    assertEquals(4711, TreeBuilder.IdSource.internalNumber("_n4711"));
    assertEquals(7, TreeBuilder.IdSource.internalNumber("_n007"));
    for (String id : new String[] {"_n", "n12", "f12", "_n12a", "_n-3", "_n+5", "_n1234567890123456789", "_x1"}) {
      assertEquals(-1, TreeBuilder.IdSource.internalNumber(id), id);
    }
    dev.setree.internal.core.Tree tree = new TreeBuilder(new dev.setree.testing.HashEmbedder(16),
        new dev.setree.testing.SimpleTokenCounter(), new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(dev.setree.testing.Corpora.synthetic(80, 3), BuildProgress.NONE).tree();
    long max = -1;
    for (int v = tree.leafCount(); v < tree.size(); v++) {
      max = Math.max(max, Long.parseLong(tree.id(v).substring(2)));
    }
    assertTrue(max >= 0);
    assertEquals("_n" + (max + 1), TreeBuilder.IdSource.after(tree).next());
  }

  @Test
  void treeInvariantsOnRandomCorpora() {
    for (long seed = 1; seed <= 5; seed++) {
      int n = new int[] {2, 3, 57, 500, 1500}[(int) seed - 1];
      List<Fact> facts = Corpora.synthetic(n, seed);
      BuildResult r = build(facts, new ExtractiveSummarizer());
      Tree t = r.tree();
      assertEquals(n, t.leafCount(), "seed=" + seed);
      Set<String> ids = new HashSet<>();
      for (int v = 0; v < t.leafCount(); v++) {
        assertEquals(facts.get(v).id(), t.id(v));
        assertEquals(facts.get(v).text(), t.text(v));
        ids.add(t.id(v));
      }
      assertEquals(n, ids.size());
      assertEquals(n, t.leavesUnder(t.root()));
      for (int v = t.leafCount(); v < t.size(); v++) {
        assertTrue(t.childCount(v) >= 2, "seed=" + seed + ": node " + t.id(v) + " has " + t.childCount(v) + " children");
        int childTokens = 0;
        for (int i = 0; i < t.childCount(v); i++) {
          childTokens += t.tokens(t.child(v, i));
        }
        assertTrue(t.tokens(v) <= childTokens, "budget-monotone at " + t.id(v));
        assertEquals(counter.count(t.text(v)), t.tokens(v));
        assertTrue(!t.text(v).isBlank());
        int depth = 0;
        for (int a = t.parent(v); a >= 0; a = t.parent(a)) {
          depth++;
        }
        assertTrue(t.tokens(v) <= (depth <= 1 ? 12 : 24), "cap at depth " + depth);
        assertTrue(t.faithfulness(v) >= -100 && t.faithfulness(v) <= 100);
        assertTrue(t.loss(v) >= 0f && t.loss(v) <= 2.0001f);
        for (int i = 0; i < t.sourceCount(v); i++) {
          assertTrue(t.text(v).contains(t.text(t.source(v, i))), "quoted leaf is in the summary");
        }
      }
      checkOracle(t, r.hierarchy());
    }
  }

  private static void checkOracle(Tree t, HierarchyState h) {
    assertTrue(!h.isEmpty());
    HierarchyState.Level l0 = h.levels().get(0);
    assertEquals(t.leafCount(), l0.size());
    for (int i = 0; i < l0.size(); i++) {
      assertEquals(t.id(i), l0.memberIds()[i]);
    }
    for (HierarchyState.Level level : h.levels()) {
      for (int i = 0; i < level.size(); i++) {
        int v = t.indexOf(level.memberIds()[i]);
        assertTrue(v >= 0);
        String parentId = level.parentIds()[i];
        assertTrue(parentId.equals(level.memberIds()[i]) || t.id(t.parent(v)).equals(parentId),
            "oracle parent of " + level.memberIds()[i]);
      }
      assertEquals(level.size() + 1, level.knnOffsets().length);
    }
  }

  /** Same facts, same tree. */
  @Test
  void deterministic() {
    List<Fact> facts = Corpora.synthetic(400, 9);
    Tree a = build(facts, new ExtractiveSummarizer()).tree();
    Tree b = build(facts, new ExtractiveSummarizer()).tree();
    assertEquals(a.size(), b.size());
    for (int v = 0; v < a.size(); v++) {
      assertEquals(a.id(v), b.id(v));
      assertEquals(a.parent(v), b.parent(v));
      assertEquals(a.text(v), b.text(v));
    }
  }

  /** A summariser that ignores the cap is cut to it: budget-monotone whatever the summariser says. */
  @Test
  void lyingSummariserIsCutToTheCap() {
    Summarizer verbose = new Summarizer() {
      @Override
      public String kind() {
        return "verbose";
      }

      @Override
      public Summary summarize(Request r) {
        return new Summary("word ".repeat(500) + "end.", List.of());
      }
    };
    Tree t = build(Corpora.synthetic(120, 3), verbose).tree();
    for (int v = t.leafCount(); v < t.size(); v++) {
      int childTokens = 0;
      for (int i = 0; i < t.childCount(v); i++) {
        childTokens += t.tokens(t.child(v, i));
      }
      assertTrue(t.tokens(v) <= Math.min(24, childTokens));
      assertEquals("verbose", t.summarizerKind(v));
    }
  }

  /** A failing summariser falls back to the extractive one, node by node, and the fallbacks are counted. */
  @Test
  void failingSummariserFallsBack() {
    AtomicInteger calls = new AtomicInteger();
    Summarizer failing = new Summarizer() {
      @Override
      public String kind() {
        return "llm";
      }

      @Override
      public Summary summarize(Request r) {
        if (calls.incrementAndGet() % 2 == 0) {
          throw new SummarizerException("endpoint returned HTML");
        }
        return new Summary("", List.of());
      }
    };
    BuildResult r = build(Corpora.synthetic(200, 4), failing);
    int internal = r.tree().size() - r.tree().leafCount();
    assertEquals(internal, r.stats().summaryFallbacks());
    for (int v = r.tree().leafCount(); v < r.tree().size(); v++) {
      assertEquals("extractive", r.tree().summarizerKind(v));
    }
  }

  /** Fewer than two facts, duplicate ids and reserved ids are refused with a message naming them. */
  @Test
  void refusesBadInput() {
    var b = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS);
    var e1 = assertThrows(IllegalArgumentException.class, () -> b.build(List.of(Fact.of("a", "x")), BuildProgress.NONE));
    assertTrue(e1.getMessage().contains("at least 2"));
    var e2 = assertThrows(IllegalArgumentException.class,
        () -> b.build(List.of(Fact.of("a", "x"), Fact.of("a", "y")), BuildProgress.NONE));
    assertTrue(e2.getMessage().contains("duplicate fact id 'a'"));
    var e3 = assertThrows(IllegalArgumentException.class,
        () -> b.build(List.of(Fact.of("_n1", "x"), Fact.of("b", "y")), BuildProgress.NONE));
    assertTrue(e3.getMessage().contains("reserved"));
    assertThrows(IllegalArgumentException.class, () -> Fact.of("c", "  "));
  }
}

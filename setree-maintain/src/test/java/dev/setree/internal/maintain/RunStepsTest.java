package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The steps a maintenance run times ({@link Maintainer.Result#stepNanos}), on the real rebuild. */
class RunStepsTest {
  final HashEmbedder embedder = new HashEmbedder(48);
  final SimpleTokenCounter counter = new SimpleTokenCounter();

  @Test
  void anIncrementalRunTimesItsStepsInOrderWithinItsWallTime() {
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(800, 31), BuildProgress.NONE);
    Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Maintainer.Result r = m.run(built.tree(), built.hierarchy(),
        List.of(new Mutation(0, Mutation.Kind.INSERT, "n1", Corpora.synthetic(1, 32).get(0).text(), null)));
    assertEquals("incremental", r.path());
    List<String> names = new ArrayList<>(r.stepNanos().keySet());
    assertEquals(List.of("embed", "draft", "check"), names.subList(0, 3), names.toString());
    assertEquals(List.of("rebuild", "sums", "summaries", "freeze"), names.subList(names.size() - 4, names.size()),
        names.toString());
    List<String> levels = names.subList(3, names.size() - 4);
    assertTrue(levels.size() >= 4 && levels.size() % 4 == 0, names.toString());
    for (int i = 0; i < levels.size(); i++) {
      String part = List.of("match", "kNN", "clusters", "parents").get(i % 4);
      assertEquals("level " + i / 4 + " " + part, levels.get(i), names.toString());
    }
    long sum = r.stepNanos().values().stream().mapToLong(Long::longValue).sum();
    assertTrue(r.stepNanos().values().stream().allMatch(v -> v >= 0), r.stepNanos().toString());
    assertTrue(sum <= r.nanos(), sum + " ns of steps in a run of " + r.nanos() + " ns");

    Maintainer.Result unchanged = m.run(r.tree(), r.hierarchy(), List.of());
    assertEquals(Map.of(), unchanged.stepNanos());
    Maintainer.Result later = m.run(r.tree(), r.hierarchy(),
        List.of(new Mutation(0, Mutation.Kind.DELETE, "n1", null, null)));
    Maintainer.Result both = r.then(later);
    assertEquals(r.stepNanos().get("embed") + later.stepNanos().get("embed"), both.stepNanos().get("embed"));
    assertEquals(names, new ArrayList<>(both.stepNanos().keySet()).subList(0, names.size()));
  }

  @Test
  void aFullClusteringIsOneStep() {
    Tree empty = Tree.empty(48);
    List<Mutation> inserts = new ArrayList<>();
    for (var f : Corpora.synthetic(40, 33)) {
      inserts.add(new Mutation(0, Mutation.Kind.INSERT, f.id(), f.text(), null));
    }
    Maintainer.Result r = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60)
        .run(empty, dev.setree.internal.core.HierarchyState.empty(), inserts);
    assertEquals("full", r.path());
    assertEquals(List.of("embed", "draft", "check", "clustering", "sums", "summaries", "freeze"),
        new ArrayList<>(r.stepNanos().keySet()));
  }
}

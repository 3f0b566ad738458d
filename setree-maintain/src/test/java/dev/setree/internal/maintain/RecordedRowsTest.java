package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.TreeAssert;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The record of a level made from a copy of its tree ({@link RecordedRows#of}, on open) vouches for exactly the
 * rows that are their member's centroid, and a match against it gives what reading every centroid gives.
 */
class RecordedRowsTest {
  final HashEmbedder embedder = new HashEmbedder(48);
  final SimpleTokenCounter counter = new SimpleTokenCounter();
  final BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
      .build(Corpora.synthetic(1500, 3), BuildProgress.NONE);

  /** The members of {@code level} in a copy of the built tree, in the level's order. */
  static List<DraftNode> members(HierarchyState.Level level, DraftTree d) {
    List<DraftNode> out = new ArrayList<>();
    for (String id : level.memberIds()) {
      out.add(d.byId.get(id));
    }
    return out;
  }

  @Test
  void aRecordOfTheBuiltLevelVouchesForEveryRow() {
    HierarchyState.Level level = built.hierarchy().levels().get(1);
    DraftTree d = DraftTree.of(built.tree());
    RecordedRows record = RecordedRows.of(level, d);
    assertNotNull(record);
    assertSame(level.centroids(), record.rows());
    List<DraftNode> members = members(level, d);
    for (int o = 0; o < level.size(); o++) {
      assertSame(members.get(o), record.members()[o], "member " + o);
    }
    RecordedRows.Matched m = RecordedRows.match(level, members, d.dim, record, null);
    RecordedRows.Matched read = RecordedRows.match(level, members, d.dim, null, null);
    assertTrue(m.same());
    assertTrue(read.same());
    assertArrayEquals(read.rows(), m.rows());
  }

  /** A row that is not its member's centroid is not vouched for: the match reads the centroid and finds it moved. */
  @Test
  void aRowThatIsNotTheCentroidIsRead() {
    HierarchyState.Level built1 = built.hierarchy().levels().get(1);
    int dim = built.tree().dimension();
    float[] rows = built1.centroids().clone();
    int wrong = built1.size() / 2;
    rows[wrong * dim] += 0.25f;
    HierarchyState.Level level = new HierarchyState.Level(built1.memberIds(), rows, built1.parentIds(),
        built1.assignment(), built1.knnOffsets(), built1.knnNeighbors(), built1.knnWeights(), built1.resolution());
    DraftTree d = DraftTree.of(built.tree());
    RecordedRows record = RecordedRows.of(level, d);
    assertNotNull(record);
    long named = Arrays.stream(record.members()).filter(x -> x != null).count();
    assertEquals(level.size() - 1, named);
    assertNull(record.members()[wrong]);
    RecordedRows.Matched m = RecordedRows.match(level, members(level, d), dim, record, null);
    assertFalse(m.same());
    assertTrue(m.match().moved()[wrong]);
    assertArrayEquals(built1.centroids(), m.rows(), "the member's centroid, read");
    for (int i = 0; i < level.size(); i++) {
      assertEquals(i == wrong, m.match().moved()[i], "member " + i);
    }
  }

  @Test
  void aLevelWithAMemberTheDraftLacksHasNoRecord() {
    HierarchyState.Level built1 = built.hierarchy().levels().get(1);
    String[] ids = built1.memberIds().clone();
    ids[0] = "not-a-node";
    HierarchyState.Level level = new HierarchyState.Level(ids, built1.centroids(), built1.parentIds(),
        built1.assignment(), built1.knnOffsets(), built1.knnNeighbors(), built1.knnWeights(), built1.resolution());
    assertNull(RecordedRows.of(level, DraftTree.of(built.tree())));
  }

  /**
   * A maintainer told that each run's result is installed writes a level's rows into the arrays of the hierarchy
   * before the installed one (ADR 0051), and makes the trees and hierarchies of one never told, bit for bit, over
   * random inserts and deletes. Every fourth result is not installed, and the next run starts from it, as a writer's
   * second pass on top of a run computed ahead does: the rows of the hierarchy installed last, which that writer's
   * save compares with the result's, stay as they were after every run.
   */
  @Test
  void aMaintainerToldOfItsInstallsWritesIntoTheRowsOfAnOlderHierarchy() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    List<Fact> pool = Corpora.synthetic(60, seed);
    Maintainer told = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Maintainer never = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    Maintainer.Result a = null;
    Maintainer.Result b = null;
    HierarchyState installed = built.hierarchy();
    List<int[]> installedRows = rowBits(installed);
    int used = 0;
    for (int run = 0; run < 16; run++) {
      Tree base = a == null ? built.tree() : a.tree();
      List<Mutation> batch = new ArrayList<>();
      batch.add(new Mutation(0, Mutation.Kind.INSERT, "i" + run, pool.get(r.nextInt(pool.size())).text() + run, null));
      if (r.nextInt(3) == 0) {
        batch.add(new Mutation(0, Mutation.Kind.DELETE, base.id(r.nextInt(base.leafCount())), null, null));
      }
      String at = "run " + run + ", seed " + seed;
      int before = RecordedRows.SPARES_USED.get();
      a = told.run(base, a == null ? built.hierarchy() : a.hierarchy(), batch);
      used += RecordedRows.SPARES_USED.get() - before;
      List<int[]> now = rowBits(installed);
      for (int l = 0; l < now.size(); l++) {
        assertArrayEquals(installedRows.get(l), now.get(l), "the installed hierarchy's level " + (l + 1) + ", " + at);
      }
      before = RecordedRows.SPARES_USED.get();
      b = never.run(b == null ? built.tree() : b.tree(), b == null ? built.hierarchy() : b.hierarchy(), batch);
      assertEquals(before, RecordedRows.SPARES_USED.get(), "a spare used by a maintainer never told, " + at);
      TreeAssert.assertSameTree(b.tree(), a.tree());
      TreeAssert.assertSameHierarchy(b.hierarchy(), a.hierarchy());
      if (run % 4 != 3) {
        told.installed(a.tree(), a.hierarchy());
        installed = a.hierarchy();
        installedRows = rowBits(installed);
      }
    }
    assertTrue(used >= 10, "matches that wrote into a spare: " + used + ", seed " + seed);
  }

  /** The bits of the rows of each of {@code h}'s levels above the leaves. */
  private static List<int[]> rowBits(HierarchyState h) {
    List<int[]> out = new ArrayList<>();
    for (HierarchyState.Level l : h.levels().subList(1, h.levels().size())) {
      float[] c = l.centroids();
      int[] bits = new int[c.length];
      for (int i = 0; i < c.length; i++) {
        bits[i] = Float.floatToRawIntBits(c[i]);
      }
      out.add(bits);
    }
    return out;
  }
}

package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.LeafTexts;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The leaves' ids, texts, time stamps and token counts a draft hands its trees (ADR 0050): the leaves' in order after
 * every change; the same columns while leaves are only added and room lasts, new ones beyond it or after a removal;
 * and the entries of the leaves a tree was frozen with never change, through maintenance runs that insert and
 * delete.
 */
class LeafTextColumnsTest {
  private static final int DIM = 4;

  @Test
  void columnsFollowTheLeavesAndHandedOutEntriesNeverChange() {
    Random r = new Random(5);
    DraftTree d = new DraftTree(DIM);
    for (int i = 0; i < 5; i++) {
      d.addLeaf("l" + i, "t" + i, i % 2 == 0 ? "2023-05-0" + (i + 1) : null, vector(r), 10 + i);
    }
    LeafTexts first = d.leafTexts();
    assertColumns(d, first, "first");
    assertSame(first, d.leafTexts(), "unchanged leaves: the same columns");
    int room = first.capacity();
    assertTrue(room >= 5 + 64, "room for at least 64 more leaves: " + room);
    List<String> firstSeen = seen(first, 5);

    d.addLeaf("l5", "t5", "2024-01-01", vector(r), 3);
    LeafTexts second = d.leafTexts();
    assertSame(first, second, "an added leaf goes into the spare room");
    assertColumns(d, second, "second");
    assertEquals(firstSeen, seen(first, 5), "the entries handed out are never changed");

    for (int i = 6; i < room + 1; i++) {
      d.addLeaf("l" + i, "t" + i, null, vector(r), i);
    }
    LeafTexts third = d.leafTexts();
    assertNotSame(second, third, "beyond the room: new columns");
    assertColumns(d, third, "third");
    assertTrue(third.capacity() >= room + 1 + (room + 1) / 8, "room for an eighth more: " + third.capacity());
    assertEquals(firstSeen, seen(first, 5), "the entries handed out are never changed");
    List<String> thirdSeen = seen(third, d.leaves.size());

    assertEquals(1, d.removeLeaves(Set.of("l2")));
    d.addLeaf("m0", "u0", null, vector(r), 1); // more leaves than before, and room: the removal still tells
    d.addLeaf("m1", "u1", "2024-03-01", vector(r), 2);
    LeafTexts fourth = d.leafTexts();
    assertNotSame(third, fourth, "a leaf removed: the leaves after it move down, in new columns");
    assertColumns(d, fourth, "after a removal");
    assertEquals(thirdSeen, seen(third, thirdSeen.size()), "the entries handed out are never changed");
  }

  /**
   * Runs that insert (some facts with a time stamp) and runs that delete, each from the tree and oracle of the run
   * before (the maintainer continues its draft, copied from the built tree for the first run): every tree reads its
   * leaves as it was frozen with, after all the runs; a run that only inserted handed its tree the columns of the
   * tree before, the first run too, and a run that deleted new ones.
   */
  @Test
  void everyTreeKeepsItsLeavesThroughLaterRuns() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    HashEmbedder embedder = new HashEmbedder(48);
    SimpleTokenCounter counter = new SimpleTokenCounter();
    List<Fact> base = Corpora.synthetic(300, seed);
    BuildResult built = new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(base, BuildProgress.NONE);
    Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    List<Fact> pool = Corpora.synthetic(80, seed + 1);
    List<Tree> trees = new ArrayList<>(List.of(built.tree()));
    List<List<String>> frozenWith = new ArrayList<>(List.of(seen(built.tree())));
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    int shared = 0;
    for (int run = 0; run < 40; run++) {
      String ctx = "seed=" + seed + ", run " + run;
      boolean delete = run % 5 == 4;
      Mutation mu;
      if (delete) {
        mu = new Mutation(0, Mutation.Kind.DELETE, tree.id(r.nextInt(tree.leafCount())), null, null);
      } else {
        Fact f = pool.get(run);
        mu = new Mutation(0, Mutation.Kind.INSERT, "new-" + run, f.text(), r.nextBoolean() ? "2024-02-0" + run % 9
            : null);
      }
      Maintainer.Result res = m.run(tree, oracle, List.of(mu));
      Tree next = res.tree();
      if (!delete && next.leafTexts() == tree.leafTexts()) {
        shared++;
      }
      if (run == 0) { // a draft copied from the built tree, which it did not freeze: it takes the tree's columns
        assertSame(tree.leafTexts(), next.leafTexts(), ctx + ": the first run, the built tree's columns");
      }
      if (delete) {
        assertNotSame(tree.leafTexts(), next.leafTexts(), ctx + ": a deleted leaf, the columns of the tree before");
      }
      tree = next;
      oracle = res.hierarchy();
      trees.add(tree);
      frozenWith.add(seen(tree));
      if (!delete) {
        assertEquals(mu.time(), tree.time(tree.indexOf(mu.leafId())), ctx + ": the new leaf's time stamp");
      }
    }
    assertTrue(shared >= 20, "runs that inserted and shared the tree before's columns: " + shared + " of 32");
    for (int i = 0; i < trees.size(); i++) {
      assertEquals(frozenWith.get(i), seen(trees.get(i)), "seed=" + seed + ": tree " + i + " after every run");
    }
  }

  /** Each leaf's id, text, time stamp and tokens as {@code t} reads them. */
  private static List<String> seen(Tree t) {
    List<String> out = new ArrayList<>(t.leafCount());
    for (int v = 0; v < t.leafCount(); v++) {
      out.add(t.id(v) + "|" + t.text(v) + "|" + t.time(v) + "|" + t.tokens(v));
    }
    return out;
  }

  /** The first {@code count} entries of {@code c}, by building a tree of one internal node over them. */
  private static List<String> seen(LeafTexts c, int count) {
    String[] ids = {"root"};
    int[] parent = new int[count + 1];
    java.util.Arrays.fill(parent, count);
    parent[count] = -1;
    Tree t = new Tree(DIM, count, c, ids, new String[] {"s"}, new int[] {1}, null, new int[] {1}, parent,
        new float[count * DIM], dev.setree.internal.core.InternalRows.dense(new float[DIM], new float[DIM], 1, DIM),
        new int[] {0}, null, null, null, null);
    return seen(t);
  }

  /** Fails unless the columns hold the draft's leaves, in order. */
  private static void assertColumns(DraftTree d, LeafTexts c, String ctx) {
    List<String> expected = new ArrayList<>();
    for (DraftNode l : d.leaves) {
      expected.add(l.id + "|" + l.text + "|" + l.time + "|" + l.tokens);
    }
    assertEquals(expected, seen(c, d.leaves.size()), ctx);
  }

  private static float[] vector(Random r) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = r.nextFloat();
    }
    return v;
  }
}

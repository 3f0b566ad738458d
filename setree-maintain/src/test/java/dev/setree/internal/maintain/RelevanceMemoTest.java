package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Ranking;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.TreeAssert;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RelevanceMemoTest {
  private static final int DIM = 16;
  private static final int K = 48;

  /** The candidates of a scan of every leaf: each product, ranked by key, the first {@code k}. */
  private static RelevanceMemo.Ranked reference(List<DraftNode> leaves, float[] q, int k) {
    int n = leaves.size();
    long[] keyed = new long[n];
    float[] all = new float[n];
    for (int i = 0; i < n; i++) {
      all[i] = leaves.get(i).dot(q);
      keyed[i] = MaximalMarginalRelevance.descending(all[i], i);
    }
    Arrays.sort(keyed);
    int count = Math.min(n, k);
    int[] cand = new int[count];
    float[] rel = new float[count];
    for (int c = 0; c < count; c++) {
      cand[c] = Ranking.index(keyed[c]);
      rel[c] = all[cand[c]];
    }
    return new RelevanceMemo.Ranked(cand, rel);
  }

  private static void assertSameCandidates(RelevanceMemo.Ranked expected, RelevanceMemo.Ranked actual, String ctx) {
    assertArrayEquals(expected.cand(), actual.cand(), ctx + ": candidates");
    int[] e = new int[expected.rel().length];
    int[] a = new int[actual.rel().length];
    for (int i = 0; i < e.length; i++) {
      e[i] = Float.floatToRawIntBits(expected.rel()[i]);
    }
    for (int i = 0; i < a.length; i++) {
      a[i] = Float.floatToRawIntBits(actual.rel()[i]);
    }
    assertArrayEquals(e, a, ctx + ": relevance, bit for bit");
  }

  private static float[] leafVector(Random r, float[][] centres) {
    return leafVector(r, centres, 1.5f);
  }

  private static float[] leafVector(Random r, float[][] centres, float spread) {
    float[] c = centres[r.nextInt(centres.length)];
    float scale = 0.5f + spread * r.nextFloat(); // norms other than 1: the bound reads them
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = scale * (c[i] + 0.6f * (float) r.nextGaussian());
    }
    return v;
  }

  /**
   * Over rounds of a few leaves inserted, dropped and moved in a block, with a centroid that drifts (and now and then
   * jumps), the memo's candidates are those of a scan of every leaf, bit for bit (ties of equal leaves included);
   * most small rounds are told from the memo, and a list reversed whole is scanned whole.
   */
  @Test
  void givesTheCandidatesOfAScanOfEveryLeaf() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    DraftTree d = new DraftTree(DIM);
    DraftNode node = d.addInternal("v", 1);
    float[][] centres = new float[6][DIM];
    for (float[] c : centres) {
      for (int i = 0; i < DIM; i++) {
        c[i] = (float) r.nextGaussian();
      }
    }
    List<DraftNode> leaves = new ArrayList<>();
    int made = 0;
    for (; made < 3000; made++) {
      float[] v = made % 97 == 5 && made > 0 ? leaves.get(made - 1).embedding().clone() : leafVector(r, centres);
      leaves.add(d.addLeaf("l" + made, "leaf " + made, null, v, 1));
    }
    float[] q = centres[0].clone();
    int spared = 0;
    int small = 0;
    for (int round = 0; round < 60; round++) {
      String ctx = "seed=" + seed + " round " + round;
      boolean whole = round % 15 == 14;
      if (whole) {
        Collections.reverse(leaves);
      } else if (round % 10 != 9 && round % 3 != 0) {
        small++;
      }
      if (!whole) {
        for (int x = r.nextInt(4); x > 0; x--) {
          leaves.add(r.nextInt(leaves.size() + 1), d.addLeaf("l" + made, "leaf " + made++, null,
              leafVector(r, centres, 4f), 1)); // longer rows than the first: the memo's bound must grow
        }
        for (int x = r.nextInt(3); x > 0; x--) {
          leaves.remove(r.nextInt(leaves.size()));
        }
        if (r.nextInt(3) == 0) { // a child's block of leaves moved elsewhere
          int from = r.nextInt(leaves.size() - 400);
          List<DraftNode> block = new ArrayList<>(leaves.subList(from, from + 50 + r.nextInt(300)));
          leaves.subList(from, from + block.size()).clear();
          leaves.addAll(r.nextInt(leaves.size() + 1), block);
        }
      }
      float step = round % 10 == 9 ? 0.5f : round % 3 == 0 ? 0.05f : 0.002f; // steps, and now and then a jump
      for (int i = 0; i < DIM; i++) {
        q[i] += step * (float) r.nextGaussian();
      }
      RelevanceMemo memo = node.relevance;
      RelevanceMemo.Ranked actual = RelevanceMemo.rank(
          new LeafPassages(leaves.toArray(new DraftNode[0]), leaves.size(), node, d.leafNormBound(), K), q, K);
      assertSameCandidates(reference(leaves, q, K), actual, ctx);
      boolean told = node.relevance.spared > 0;
      if (whole) {
        assertEquals(0, node.relevance.spared, ctx + ": a list reversed whole is scanned whole");
      }
      if (told && !whole && round % 10 != 9 && round % 3 != 0) {
        spared++;
      }
      assertTrue(memo == null || node.relevance != memo, ctx + ": each scan keeps a memo of its own");
    }
    assertTrue(spared >= small * 2 / 3, "seed=" + seed + ": " + spared + " of " + small + " small rounds told");
  }

  /** Unit leaves every degree round a circle in the plane, from {@code d}. */
  private static List<DraftNode> circle(DraftTree d) {
    List<DraftNode> leaves = new ArrayList<>();
    for (int deg = 0; deg < 360; deg++) {
      double a = Math.toRadians(deg);
      leaves.add(d.addLeaf("c" + deg, "c" + deg, null, new float[] {(float) Math.cos(a), (float) Math.sin(a)}, 1));
    }
    return leaves;
  }

  private static float[] at(double degrees, double length) {
    double a = Math.toRadians(degrees);
    return new float[] {(float) (length * Math.cos(a)), (float) (length * Math.sin(a))};
  }

  private static RelevanceMemo.Ranked rank(DraftTree d, DraftNode node, List<DraftNode> leaves, float[] q) {
    return RelevanceMemo.rank(new LeafPassages(leaves.toArray(new DraftNode[0]), leaves.size(), node,
        d.leafNormBound(), 4), q, 4);
  }

  /**
   * The bound on the leaves a memo does not keep carries the centroid's moves over the scans it spares: a centroid
   * turning a twentieth of a degree a scan, with a far leaf added each time (scanned, but low), brings leaves the
   * memo did not keep among the candidates, and they are found.
   */
  @Test
  void carriesTheBoundOverTheScansItSpares() {
    DraftTree d = new DraftTree(2);
    DraftNode node = d.addInternal("v", 1);
    List<DraftNode> leaves = circle(d);
    for (int step = 0; step <= 120; step++) {
      float[] q = at(step * 0.05, 1);
      leaves.add(d.addLeaf("far" + step, "far", null, at(180 + step * 0.05, 1), 1));
      assertSameCandidates(reference(leaves, q, 4), rank(d, node, leaves, q), "step " + step);
    }
  }

  /**
   * A leaf added since the memo, with a long row, raises the draft's bound on every leaf's norm: when the centroid
   * turns towards it, it comes first among the candidates.
   */
  @Test
  void boundsByTheNormOfTheLeavesAddedSince() {
    DraftTree d = new DraftTree(2);
    DraftNode node = d.addInternal("v", 1);
    List<DraftNode> leaves = circle(d);
    rank(d, node, leaves, at(0, 1)); // the memo
    leaves.add(d.addLeaf("long", "long", null, at(88.87, 50), 1)); // product 0.99: ninth or lower
    RelevanceMemo.Ranked first = rank(d, node, leaves, at(0, 1));
    assertSameCandidates(reference(leaves, at(0, 1), 4), first, "added");
    assertTrue(node.relevance.spared > 0, "the scan with the long leaf added was told from the memo");
    float[] q = at(0.05, 1); // its product now 1.03: first
    RelevanceMemo.Ranked turned = rank(d, node, leaves, q);
    assertSameCandidates(reference(leaves, q, 4), turned, "turned");
    assertEquals(360, turned.cand()[0], "the long leaf first");
  }

  /**
   * A maintainer whose large nodes keep relevance memos writes, run after run, the trees and oracles of one whose
   * nodes scan every leaf: one-fact runs and deletes on a tree of 600 leaves, whose nodes of 24 offered leaves or
   * more keep memos (and 4 candidates compete, so that a small node has leaves beyond them); some scans are spared.
   */
  @Test
  void aMaintainerWithMemosWritesTheTreesOfOneWithout() {
    HashEmbedder embedder = new HashEmbedder(48);
    SimpleTokenCounter counter = new SimpleTokenCounter();
    BuildResult built = built(embedder, counter);
    Maintainer memos = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    memos.kept.keepRelevanceFrom(24);
    memos.kept.relevanceCandidates(4);
    List<Fact> pool = Corpora.synthetic(200, 9);
    Tree tree = built.tree();
    HierarchyState oracle = built.hierarchy();
    long spared = RelevanceMemo.SPARED.get();
    Random r = new Random(11);
    for (int round = 0; round < 60; round++) {
      List<Mutation> batch = new ArrayList<>();
      batch.add(new Mutation(0, Mutation.Kind.INSERT, "new" + round, pool.get(round).text(), null));
      if (round % 5 == 4) {
        batch.add(new Mutation(0, Mutation.Kind.DELETE, tree.id(r.nextInt(tree.leafCount())), null, null));
      }
      Maintainer scans = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
      scans.kept.keepRelevanceFrom(Integer.MAX_VALUE);
      scans.kept.relevanceCandidates(4);
      Maintainer.Result expected = scans.run(tree, oracle, batch);
      Maintainer.Result actual = memos.run(tree, oracle, batch);
      try {
        TreeAssert.assertSameTree(expected.tree(), actual.tree());
        TreeAssert.assertSameHierarchy(expected.hierarchy(), actual.hierarchy());
      } catch (AssertionError e) {
        throw new AssertionError("round " + round + ": " + e.getMessage(), e);
      }
      tree = actual.tree();
      oracle = actual.hierarchy();
    }
    assertTrue(RelevanceMemo.SPARED.get() > spared, "no scan was spared");
  }

  /**
   * The scans made ahead are those the large nodes' first summaries would make: each internal node of at least as
   * many leaves as the smallest one of 24 leaves or more has (so that one has just enough), and no other, keeps a memo
   * (a second call scans none), and a summary request of each, with its centroid unchanged, is told from the memo the
   * candidates of a scan of every offered leaf. Cancelled, it scans nothing.
   */
  @Test
  void scansAheadTheLargeNodesThatTheirFirstSummariesWouldScan() {
    BuildResult built = built(new HashEmbedder(48), new SimpleTokenCounter());
    DraftTree d = DraftTree.of(built.tree());
    int from = Integer.MAX_VALUE;
    for (DraftNode v : d.internal) {
      int size = SummaryPass.leavesUnder(v, new ArrayList<>()).size();
      from = size >= 24 ? Math.min(from, size) : from;
    }
    d.relevanceFrom = from;
    d.relevanceCandidates = 4;
    DraftTree cancelled = DraftTree.of(built.tree());
    cancelled.relevanceFrom = from;
    assertEquals(0, RelevanceMemo.scanAhead(cancelled, () -> true), "scans once cancelled");
    assertTrue(cancelled.internal.stream().allMatch(v -> v.relevance == null), "a memo kept once cancelled");
    int scanned = RelevanceMemo.scanAhead(d, () -> false);
    int large = 0;
    for (DraftNode v : d.internal) {
      boolean isLarge = SummaryPass.leavesUnder(v, new ArrayList<>()).size() >= from;
      large += isLarge ? 1 : 0;
      assertEquals(isLarge, v.relevance != null, v.id + ": a memo kept, with its leaves counted");
    }
    assertTrue(large >= 3 && large < d.internal.size(), large + " large nodes of " + d.internal.size());
    assertEquals(large, scanned, "the nodes scanned");
    assertEquals(0, RelevanceMemo.scanAhead(d, () -> false), "scanned again, though each keeps a memo");
    long spared = RelevanceMemo.SPARED.get();
    for (DraftNode v : d.internal) {
      if (v.relevance != null) {
        LeafPassages offered = LeavesUnder.of(v, d.partsKeptFrom).offered(v, d.leafNormBound(), 4);
        List<DraftNode> list = Arrays.asList(offered.array());
        assertSameCandidates(reference(list, v.centroid(), 4), RelevanceMemo.rank(offered, v.centroid(), 4), v.id);
      }
    }
    assertEquals(large, RelevanceMemo.SPARED.get() - spared, "summary requests told from the memos made ahead");
  }

  /**
   * A maintainer that copied the tree ahead and scanned its large nodes (as a writer does on open) writes, from its
   * first run on, the trees of one that did not, and its first runs read the memos the copy's large nodes were given:
   * those of the other have only the memos of its own runs to read. Only a copy made ahead is scanned, once.
   */
  @Test
  void aMaintainerPreparedAheadWritesTheTreesOfOneThatWasNot() {
    HashEmbedder embedder = new HashEmbedder(48);
    SimpleTokenCounter counter = new SimpleTokenCounter();
    BuildResult built = built(embedder, counter);
    List<Fact> pool = Corpora.synthetic(20, 9);
    Maintainer prepared = maintainer(embedder, counter);
    Maintainer cold = maintainer(embedder, counter);
    assertEquals(0, prepared.scanAhead(built.tree(), () -> false), "scanned without a copy made ahead");
    prepared.prepare(built.tree(), built.hierarchy(), () -> false);
    assertEquals(0, prepared.scanAhead(Tree.empty(48), () -> false), "scanned a copy of another tree");
    int scanned = prepared.scanAhead(built.tree(), () -> false);
    assertTrue(scanned > 0, "no large node scanned ahead");
    assertEquals(0, prepared.scanAhead(built.tree(), () -> false), "scanned again");
    Maintainer.Result expected = null; // each maintainer runs over the trees it made, continuing its draft
    Maintainer.Result actual = null;
    long coldTotal = 0;
    long preparedTotal = 0;
    for (int round = 0; round < 8; round++) {
      List<Mutation> batch = List.of(new Mutation(0, Mutation.Kind.INSERT, "new" + round, pool.get(round).text(),
          null));
      long before = RelevanceMemo.SPARED.get();
      expected = round == 0 ? cold.run(built.tree(), built.hierarchy(), batch)
          : cold.run(expected.tree(), expected.hierarchy(), batch);
      long coldSpared = RelevanceMemo.SPARED.get() - before;
      actual = round == 0 ? prepared.run(built.tree(), built.hierarchy(), batch)
          : prepared.run(actual.tree(), actual.hierarchy(), batch);
      coldTotal += coldSpared;
      preparedTotal += RelevanceMemo.SPARED.get() - before - coldSpared;
      TreeAssert.assertSameTree(expected.tree(), actual.tree());
      TreeAssert.assertSameHierarchy(expected.hierarchy(), actual.hierarchy());
    }
    assertEquals(8, prepared.draftsReused(), "the runs that continued the copy made ahead or the run before's draft");
    assertEquals(0, cold.scanAhead(expected.tree(), () -> false), "scanned a run's draft, not settled yet");
    assertEquals(7, cold.draftsReused(), "the runs after the first that continued the draft of the one before");
    assertTrue(preparedTotal > coldTotal, "memos read: " + preparedTotal + " by the runs of the maintainer prepared "
        + "ahead, " + coldTotal + " by those of the other");
  }

  /**
   * A run that puts a new root on top, the old root under it with half its children and a new node with the others
   * (as run 20 of the 50,000-leaf insert bench did), has the new root's scan told from the memo of the root before
   * it, which offered the same leaves in another order; the pass writes the summaries of a draft whose nodes keep no
   * memo. The old root, whose centroid moved, reads the memo too, in an earlier wave.
   */
  @Test
  void aNewRootReadsTheMemoOfTheRootBeforeIt() {
    HashEmbedder embedder = new HashEmbedder(48);
    SimpleTokenCounter counter = new SimpleTokenCounter();
    Tree tree = built(embedder, counter).tree();
    DraftTree memos = newRootOnTop(tree, 24);
    DraftTree scans = newRootOnTop(tree, Integer.MAX_VALUE);
    DraftNode oldRoot = memos.byId.get(tree.id(tree.root()));
    assertTrue(oldRoot.relevance != null, "the old root keeps no memo");
    for (DraftTree d : List.of(memos, scans)) {
      new SummaryPass(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
          .run(d, 60, BuildProgress.NONE);
    }
    DraftNode root = memos.root();
    assertTrue(root != oldRoot && root.relevance != null && root.relevance.spared == 1,
        "the new root's scan was not told from a memo");
    TreeAssert.assertSameTree(scans.toTree(), memos.toTree());
  }

  /**
   * A copy of {@code tree} whose nodes of {@code memoFrom} leaves or more keep memos (made ahead), settled, and then
   * given a new root over its old root, which keeps the first half of its children, and a new node with the others.
   */
  private static DraftTree newRootOnTop(Tree tree, int memoFrom) {
    DraftTree d = DraftTree.of(tree);
    d.relevanceFrom = memoFrom;
    d.relevanceCandidates = 4;
    assertTrue(SummaryRules.of(BuildOptions.DEFAULTS, 60).settle(d), "the copy is not settled");
    RelevanceMemo.scanAhead(d, () -> false);
    DraftNode old = d.root();
    List<DraftNode> moved = new ArrayList<>(old.children.subList(old.children.size() / 2, old.children.size()));
    DraftNode root = d.addInternal("new-root", old.level + 1);
    DraftNode sibling = d.addInternal("new-sibling", old.level);
    for (DraftNode c : moved) {
      DraftTree.attach(c, sibling);
    }
    DraftTree.attach(old, root);
    DraftTree.attach(sibling, root);
    old.structural = true;
    d.recomputeSums();
    return d;
  }

  /** The tree of 600 synthetic facts the maintainers' tests start from. */
  private static BuildResult built(HashEmbedder embedder, SimpleTokenCounter counter) {
    return new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(600, 3), BuildProgress.NONE);
  }

  private static Maintainer maintainer(HashEmbedder embedder, SimpleTokenCounter counter) {
    Maintainer m = new Maintainer(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS, 60);
    m.kept.keepRelevanceFrom(24);
    m.kept.relevanceCandidates(4);
    return m;
  }

  /** A leaf whose product is not a number (a NaN in its row) leaves the node without a memo, and is still ranked. */
  @Test
  void keepsNoMemoOfProductsThatAreNotNumbers() {
    DraftTree d = new DraftTree(DIM);
    DraftNode node = d.addInternal("v", 1);
    Random r = new Random(7);
    float[][] centres = {new float[DIM]};
    centres[0][0] = 1;
    List<DraftNode> leaves = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      float[] v = leafVector(r, centres);
      if (i == 123) {
        v[3] = Float.NaN;
      }
      leaves.add(d.addLeaf("l" + i, "leaf " + i, null, v, 1));
    }
    float[] q = centres[0].clone();
    RelevanceMemo.Ranked actual = RelevanceMemo.rank(new LeafPassages(leaves.toArray(new DraftNode[0]), 500, node,
        d.leafNormBound(), K), q, K);
    assertSameCandidates(reference(leaves, q, K), actual, "NaN row");
    assertNull(node.relevance);
  }
}

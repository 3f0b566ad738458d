package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Randomized property tests of {@link TreeCoverWalk} on {@link RandomTrees}.
 *
 * <p>Every case is built from one {@code long} seed ({@link #randomCase(long)}), printed as
 * {@code seed=...} in each assertion message; replay a failure with {@code randomCase(thatSeed)}. The seeds
 * of a run come from a master seed, random per run unless {@code -Dtests.seed=N} is given; the number of
 * cases per property is {@code -Dtests.cases=N} (default 300).
 */
class TreeCoverWalkPropertyTest {
  private static final ContextFormat FORMAT = new ContextFormat(RandomTrees.COUNTER);
  private static final float[] BETAS = {0f, 0.5f, 2f};
  private static final float[] EPSILONS = {0f, 0.1f};
  private static final float[] SHARES = {0f, 0.1f, 0.5f, 1f};
  private static final long MASTER_SEED =
      Long.getLong("tests.seed", new Random().nextLong());
  private static final int CASES = Integer.getInteger("tests.cases", 300);

  /** One walk's inputs, all derived from {@link #seed}. */
  record Case(long seed, Tree tree, float[] relevance, float[] query, int budget, float beta,
      float epsilon, float overviewShare) {

    TreeCoverWalk walker() {
      // The overview temperature varies with the seed: 0.05 (adaptive share) or infinite (whole share).
      float temperature = (seed & 1) == 0 ? 0.05f : Float.POSITIVE_INFINITY;
      return new TreeCoverWalk(new CapabilityScore(beta, epsilon), overviewShare, temperature, FORMAT);
    }

    Cover walk() {
      return walker().walk(tree, relevance, query, budget);
    }

    Case withBudget(int b) {
      return new Case(seed, tree, relevance, query, b, beta, epsilon, overviewShare);
    }

    Case withOverviewShare(float share) {
      return new Case(seed, tree, relevance, query, budget, beta, epsilon, share);
    }

    String msg() {
      return "seed=" + seed + " (master seed=" + MASTER_SEED + ", leaves=" + tree.leafCount() + " nodes=" + tree.size() + " budget=" + budget
          + " beta=" + beta + " epsilon=" + epsilon + " overviewShare=" + overviewShare + ")";
    }
  }

  /** Builds the case for {@code seed}: tree, relevance, query, budget and walk parameters. */
  static Case randomCase(long seed) {
    Random rnd = new Random(seed);
    // Half the cases small, to hit the edge shapes (single leaf, root of leaves) often.
    int leaves = rnd.nextBoolean() ? 1 + rnd.nextInt(400) : 1 + rnd.nextInt(12);
    Tree tree = RandomTrees.tree(rnd, leaves);
    float[] query = RandomTrees.unit(rnd);
    float[] rel = new float[leaves];
    switch (rnd.nextInt(5)) {
      case 0 -> { // uniform in [0, 1)
        for (int i = 0; i < leaves; i++) {
          rel[i] = rnd.nextFloat();
        }
      }
      case 1 -> Arrays.fill(rel, rnd.nextFloat() * 2 - 1); // all equal, possibly negative
      case 2 -> { // uniform in [-1, 1)
        for (int i = 0; i < leaves; i++) {
          rel[i] = rnd.nextFloat() * 2 - 1;
        }
      }
      case 3 -> { // cosine to the query, as a real caller would
        for (int i = 0; i < leaves; i++) {
          rel[i] = tree.embeddingDot(i, query);
        }
      }
      default -> { // few distinct values: many ties
        for (int i = 0; i < leaves; i++) {
          rel[i] = rnd.nextInt(3) * 0.5f - 0.5f;
        }
      }
    }
    int budget = rnd.nextInt(2 * leafCost(tree) + 1);
    return new Case(seed, tree, rel, query, budget, BETAS[rnd.nextInt(BETAS.length)],
        EPSILONS[rnd.nextInt(EPSILONS.length)], SHARES[rnd.nextInt(SHARES.length)]);
  }

  private static long[] seeds() {
    Random master = new Random(MASTER_SEED);
    long[] s = new long[CASES];
    for (int i = 0; i < s.length; i++) {
      s[i] = master.nextLong();
    }
    return s;
  }

  // ---------------------------------------------------------------- helpers

  static int leafCost(Tree tree) {
    int sum = 0;
    for (int v = 0; v < tree.leafCount(); v++) {
      sum += FORMAT.cost(tree, v);
    }
    return sum;
  }

  static int totalCost(Tree tree) {
    int sum = 0;
    for (int v = 0; v < tree.size(); v++) {
      sum += FORMAT.cost(tree, v);
    }
    return sum;
  }

  static boolean[] shown(Tree tree, Cover cover) {
    boolean[] shown = new boolean[tree.size()];
    for (Cover.Item item : cover.items()) {
      shown[item.node()] = true;
    }
    return shown;
  }

  /**
   * The walk's notion of covered (TreeCoverWalk.State.markCovered): a leaf is covered when shown; an internal
   * node when shown or when all its children are covered. Children precede parents, so one ascending pass.
   */
  static boolean[] covered(Tree tree, boolean[] shown) {
    boolean[] covered = new boolean[tree.size()];
    for (int v = 0; v < tree.size(); v++) {
      if (shown[v] || tree.isLeaf(v)) {
        covered[v] = shown[v];
        continue;
      }
      boolean all = true;
      for (int i = 0; i < tree.childCount(v) && all; i++) {
        all = covered[tree.child(v, i)];
      }
      covered[v] = all;
    }
    return covered;
  }

  /** True when {@code v} or one of its ancestors is shown. */
  static boolean coveredByItem(Tree tree, boolean[] shown, int v) {
    for (int a = v; a >= 0; a = tree.parent(a)) {
      if (shown[a]) {
        return true;
      }
    }
    return false;
  }

  /** True when a shown proper ancestor of leaf {@code leaf} quotes it whole ({@link Tree#source}). */
  static boolean quotedByShownAncestor(Tree tree, boolean[] shown, int leaf) {
    for (int a = tree.parent(leaf); a >= 0; a = tree.parent(a)) {
      if (shown[a]) {
        for (int i = 0; i < tree.sourceCount(a); i++) {
          if (tree.source(a, i) == leaf) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Pre-order positions by {@link Tree#child} order. */
  static int[] preorder(Tree tree) {
    int[] pos = new int[tree.size()];
    if (tree.isEmpty()) {
      return pos;
    }
    int next = 0;
    ArrayList<Integer> stack = new ArrayList<>();
    stack.add(tree.root());
    while (!stack.isEmpty()) {
      int v = stack.remove(stack.size() - 1);
      pos[v] = next++;
      if (!tree.isLeaf(v)) {
        for (int i = tree.childCount(v) - 1; i >= 0; i--) {
          stack.add(tree.child(v, i));
        }
      }
    }
    assertEquals(tree.size(), next, "pre-order reaches every node");
    return pos;
  }

  // ---------------------------------------------------------------- properties

  /** Property 1: tokensUsed is the sum of the item costs, within budget, and the rendered text counts the same. */
  @Test
  void tokensUsedIsSumOfItemCostsAndWithinBudget() {
    for (long seed : seeds()) {
      Case c = randomCase(seed);
      Cover cover = c.walk();
      int sum = 0;
      for (Cover.Item item : cover.items()) {
        assertEquals(FORMAT.cost(c.tree(), item.node()), item.cost(), "item cost, " + c.msg());
        sum += item.cost();
      }
      assertEquals(sum, cover.tokensUsed(), "tokensUsed = sum of item costs, " + c.msg());
      assertTrue(cover.tokensUsed() <= c.budget(), "tokensUsed " + cover.tokensUsed() + " > budget, " + c.msg());
      int rendered = RandomTrees.COUNTER.count(FORMAT.render(c.tree(), cover.items()));
      assertTrue(rendered <= c.budget(), "rendered " + rendered + " tokens > budget, " + c.msg());
      assertEquals(cover.tokensUsed(), rendered, "additive counter: rendered = tokensUsed, " + c.msg());
    }
  }

  /** Property 2: complete() holds exactly when every leaf is an item or under an item, and whenever the root fits. */
  @Test
  void completeMeansEveryLeafCoveredAndRootFitImpliesComplete() {
    for (long seed : seeds()) {
      Case c = randomCase(seed);
      Tree tree = c.tree();
      Cover cover = c.walk();
      boolean[] shown = shown(tree, cover);
      int uncovered = -1;
      for (int leaf = 0; leaf < tree.leafCount() && uncovered < 0; leaf++) {
        if (!coveredByItem(tree, shown, leaf)) {
          uncovered = leaf;
        }
      }
      if (cover.complete()) {
        assertEquals(-1, uncovered, "complete cover leaves leaf " + uncovered + " uncovered, " + c.msg());
      } else {
        assertNotEquals(-1, uncovered, "every leaf covered but complete() is false, " + c.msg());
      }
      // The root summary alone is a complete cover, so a budget that holds it must give one.
      Case rootFits = c.withBudget(Math.max(c.budget(), FORMAT.cost(tree, tree.root())));
      assertTrue(rootFits.walk().complete(), "budget >= root cost but incomplete, " + rootFits.msg());
    }
  }

  /** Property 3: no shown internal node has all of its children covered (carried nodes are never shown). */
  @Test
  void carriedNodesAreNeverShown() {
    for (long seed : seeds()) {
      Case c = randomCase(seed);
      Tree tree = c.tree();
      boolean[] shown = shown(tree, c.walk());
      boolean[] covered = covered(tree, shown);
      for (int v = tree.leafCount(); v < tree.size(); v++) {
        if (!shown[v]) {
          continue;
        }
        boolean all = true;
        for (int i = 0; i < tree.childCount(v) && all; i++) {
          all = covered[tree.child(v, i)];
        }
        assertFalse(all, "shown node " + v + " has every child covered (should be carried), " + c.msg());
      }
    }
  }

  /** Property 4: items are distinct, in pre-order by Tree.child order, each at depth = number of shown ancestors. */
  @Test
  void itemsInTreeOrderWithDepthOfShownAncestors() {
    for (long seed : seeds()) {
      Case c = randomCase(seed);
      Tree tree = c.tree();
      Cover cover = c.walk();
      boolean[] shown = shown(tree, cover);
      int[] pre = preorder(tree);
      int last = -1;
      for (Cover.Item item : cover.items()) {
        int v = item.node();
        assertTrue(pre[v] > last, "item " + v + " out of tree order (or repeated), " + c.msg());
        last = pre[v];
        int shownAncestors = 0;
        for (int a = tree.parent(v); a >= 0; a = tree.parent(a)) {
          if (shown[a]) {
            shownAncestors++;
          }
        }
        assertEquals(shownAncestors, item.depth(), "depth of item " + v + ", " + c.msg());
      }
    }
  }

  /** Property 5: the same inputs give equal covers, from the same walker and from a fresh one. */
  @Test
  void walkIsDeterministic() {
    for (long seed : seeds()) {
      Case c = randomCase(seed);
      TreeCoverWalk walker = c.walker();
      Cover a = walker.walk(c.tree(), c.relevance(), c.query(), c.budget());
      Cover b = walker.walk(c.tree(), c.relevance(), c.query(), c.budget());
      Cover fresh = randomCase(seed).walk(); // tree and inputs rebuilt from the seed
      assertEquals(a, b, "same walker, " + c.msg());
      assertEquals(a, fresh, "rebuilt inputs, " + c.msg());
    }
  }

  /** Property 6: one walker shared by 8 threads gives the same covers as walking sequentially. */
  @Test
  void sharedWalkerIsThreadSafe() throws Exception {
    long[] seeds = seeds();
    Case[] cases = new Case[seeds.length];
    for (int i = 0; i < seeds.length; i++) {
      cases[i] = randomCase(seeds[i]);
    }
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (float share : new float[] {0f, 0.5f}) {
        for (float beta : new float[] {0f, 2f}) {
          TreeCoverWalk walker = new TreeCoverWalk(new CapabilityScore(beta, 0.1f), share, Float.POSITIVE_INFINITY, FORMAT);
          Cover[] expected = new Cover[cases.length];
          for (int i = 0; i < cases.length; i++) {
            Case c = cases[i];
            expected[i] = walker.walk(c.tree(), c.relevance(), c.query(), c.budget());
          }
          CountDownLatch start = new CountDownLatch(1);
          List<Future<?>> futures = new ArrayList<>();
          for (int t = 0; t < threads; t++) {
            long order = MASTER_SEED + t;
            futures.add(pool.submit(() -> {
              List<Integer> idx = new ArrayList<>();
              for (int i = 0; i < cases.length; i++) {
                idx.add(i);
              }
              Collections.shuffle(idx, new Random(order));
              start.await();
              for (int i : idx) {
                Case c = cases[i];
                Cover got = walker.walk(c.tree(), c.relevance(), c.query(), c.budget());
                assertEquals(expected[i], got, "concurrent walk, beta=" + beta + " share=" + share + " "
                    + c.msg());
              }
              return null;
            }));
          }
          start.countDown();
          for (Future<?> f : futures) {
            f.get(5, TimeUnit.MINUTES); // rethrows an AssertionError as ExecutionException
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** Property 7: a leaf quoted whole in a shown ancestor's summary is never also shown as a leaf item. */
  @Test
  void quotedLeafIsNotShownTwice() {
    int quotedSeen = 0;
    for (long seed : seeds()) {
      Case c = randomCase(seed);
      Tree tree = c.tree();
      boolean[] shown = shown(tree, c.walk());
      for (int a = tree.leafCount(); a < tree.size(); a++) {
        for (int i = 0; i < tree.sourceCount(a); i++) {
          int leaf = tree.source(a, i);
          assertTrue(tree.text(a).contains(tree.text(leaf)), "generator: source text in summary, " + c.msg());
          if (shown[a]) {
            quotedSeen++;
            assertFalse(shown[leaf], "leaf " + leaf + " shown while quoted by shown " + a + ", " + c.msg());
          }
        }
      }
    }
    assertTrue(quotedSeen > 0, "no case exercised a shown quoting summary; master seed=" + MASTER_SEED);
  }

  /**
   * Property 8: with a budget that holds every node, every leaf (in particular every leaf with relevance above
   * the minimum) is shown or quoted whole by a shown ancestor: nothing is dropped when everything fits.
   */
  @Test
  void largeBudgetDropsNothing() {
    for (long seed : seeds()) {
      checkLargeBudgetDropsNothing(randomCase(seed));
    }
  }

  /**
   * Property 8 restricted to overviewShare = 0 (no overview summaries), where the quote/carry bug above cannot
   * occur: nothing useful is dropped when everything fits.
   */
  @Test
  void largeBudgetDropsNothingWithoutOverview() {
    for (long seed : seeds()) {
      checkLargeBudgetDropsNothing(randomCase(seed).withOverviewShare(0f));
    }
  }

  private static void checkLargeBudgetDropsNothing(Case base) {
    Tree tree = base.tree();
    Random rnd = new Random(base.seed() ^ 0x5DEECE66DL);
    Case c = base.withBudget(totalCost(tree) + rnd.nextInt(tree.size() + 1));
    Cover cover = c.walk();
    assertTrue(cover.complete(), "large budget, incomplete, " + c.msg());
    boolean[] shown = shown(tree, cover);
    float min = Float.POSITIVE_INFINITY;
    for (float r : c.relevance()) {
      min = Math.min(min, r);
    }
    for (int leaf = 0; leaf < tree.leafCount(); leaf++) {
      if (!shown[leaf] && !quotedByShownAncestor(tree, shown, leaf)) {
        fail("leaf " + leaf + " (relevance " + c.relevance()[leaf] + ", min " + min
            + ") neither shown nor quoted by a shown ancestor; items=" + cover.items() + ", " + c.msg());
      }
    }
  }

  /**
   * Regression for the quote/carry bug, on a five-node tree: the root quotes leaf 0, the overview shows
   * node 3 (leaves 0, 1) which does not quote it; leaf 0 is skipped as quoted, then leaf 2 covers the root's
   * last child and the root is carried, so leaf 0's text is in neither a leaf item nor a shown summary.
   */
  @Test
  void rootQuoteLostWhenRootIsCarried() {
    Tree tree = quotingRootTree();
    TreeCoverWalk walker = new TreeCoverWalk(new CapabilityScore(0f, 0f), 1f, Float.POSITIVE_INFINITY, FORMAT);
    Cover cover = walker.walk(tree, new float[] {1f, 1f, 0f}, RandomTrees.unit(new Random(1)), 1000);
    boolean[] shown = shown(tree, cover);
    assertTrue(shown[0] || quotedByShownAncestor(tree, shown, 0),
        "leaf 0 neither shown nor quoted by a shown summary; items=" + cover.items());
  }

  /** The tree of {@link #rootQuoteLostWhenRootIsCarried}: root 4 = {3 = {0, 1}, 2}; 4 quotes leaf 0. */
  static Tree quotingRootTree() {
    String[] texts = {"alpha beta", "gamma", "delta", "summary of alpha and gamma", "root: alpha beta"};
    int[] tokens = new int[texts.length];
    for (int v = 0; v < texts.length; v++) {
      tokens[v] = RandomTrees.COUNTER.count(texts[v]);
    }
    Random rnd = new Random(7);
    float[] emb = new float[5 * RandomTrees.DIM];
    for (int v = 0; v < 5; v++) {
      System.arraycopy(RandomTrees.unit(rnd), 0, emb, v * RandomTrees.DIM, RandomTrees.DIM);
    }
    float[] centroids = new float[2 * RandomTrees.DIM];
    System.arraycopy(RandomTrees.unit(rnd), 0, centroids, 0, RandomTrees.DIM);
    System.arraycopy(RandomTrees.unit(rnd), 0, centroids, RandomTrees.DIM, RandomTrees.DIM);
    return new Tree(RandomTrees.DIM, 3, new String[] {"a", "b", "c", "n3", "root"}, texts, null, null, tokens,
        new int[] {0, 0, 0, 1, 2}, new int[] {3, 3, 4, 4, -1}, emb, centroids, new int[] {100, 100, 100, 50, 50},
        new int[][] {null, null, null, null, {0}});
  }

  // ---------------------------------------------------------------- property 9: edges and argument checks

  /** Property 9a: the empty tree gives an empty, complete cover at any budget. */
  @Test
  void emptyTreeGivesEmptyCompleteCover() {
    for (long seed : seeds()) {
      Random rnd = new Random(seed);
      Case c = randomCase(seed);
      Cover cover = c.walker().walk(Tree.empty(RandomTrees.DIM), new float[0], c.query(), rnd.nextInt(1000));
      assertTrue(cover.items().isEmpty(), "seed=" + seed);
      assertTrue(cover.complete(), "seed=" + seed);
      assertEquals(0, cover.tokensUsed(), "seed=" + seed);
    }
  }

  /** Property 9b: budget 0 shows nothing and is incomplete for a non-empty tree. */
  @Test
  void zeroBudgetShowsNothing() {
    for (long seed : seeds()) {
      Case c = randomCase(seed).withBudget(0);
      Cover cover = c.walk();
      assertTrue(cover.items().isEmpty(), c.msg());
      assertEquals(0, cover.tokensUsed(), c.msg());
      assertFalse(cover.complete(), c.msg());
    }
  }

  /** Property 9c: a negative budget or a relevance array of the wrong length is an IllegalArgumentException. */
  @Test
  void badArgumentsAreRejected() {
    for (long seed : seeds()) {
      Case c = randomCase(seed);
      Random rnd = new Random(~seed);
      TreeCoverWalk walker = c.walker();
      for (int negative : new int[] {-1, -1 - rnd.nextInt(Integer.MAX_VALUE)}) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> walker.walk(c.tree(), c.relevance(), c.query(), negative), "budget=" + negative + " " + c.msg());
        assertTrue(e.getMessage().contains("budget"), e.getMessage());
      }
      int n = c.tree().leafCount();
      for (int len : new int[] {0, n - 1, n + 1, n + 1 + rnd.nextInt(10)}) {
        if (len < 0 || len == n) {
          continue;
        }
        IllegalArgumentException r = assertThrows(IllegalArgumentException.class,
            () -> walker.walk(c.tree(), new float[len], c.query(), c.budget()), "len=" + len + " " + c.msg());
        assertTrue(r.getMessage().contains("relevance"), r.getMessage());
      }
    }
  }

  /** Property 9d: the walker rejects an overview share outside [0, 1] (and NaN). */
  @Test
  void overviewShareOutsideUnitIntervalIsRejected() {
    for (float share : new float[] {-0.01f, 1.01f, Float.NaN, Float.POSITIVE_INFINITY}) {
      assertThrows(IllegalArgumentException.class,
          () -> new TreeCoverWalk(new CapabilityScore(0f, 0f), share, Float.POSITIVE_INFINITY, FORMAT), "share=" + share);
    }
  }

  /** Property 9c on the empty tree: a negative budget is rejected there too (the contract is budget >= 0). */
  @Test
  void negativeBudgetOnEmptyTreeIsRejected() {
    TreeCoverWalk walker = new TreeCoverWalk(new CapabilityScore(0f, 0f), 0f, Float.POSITIVE_INFINITY, FORMAT);
    assertThrows(IllegalArgumentException.class,
        () -> walker.walk(Tree.empty(RandomTrees.DIM), new float[0], new float[RandomTrees.DIM], -1));
    assertThrows(IllegalArgumentException.class,
        () -> walker.walk(Tree.empty(RandomTrees.DIM), new float[3], new float[RandomTrees.DIM], 10));
  }

  // ---------------------------------------------------------------- generator sanity

  /** The generator's trees are valid: tokens match the counter, centroids are unit means, shapes vary. */
  @Test
  void randomTreesAreWellFormed() {
    Set<Integer> depths = new HashSet<>();
    for (long seed : seeds()) {
      Tree tree = randomCase(seed).tree();
      String m = "seed=" + seed;
      assertEquals(tree.root(), tree.size() - 1, m);
      depths.add(tree.depth());
      for (int v = 0; v < tree.size(); v++) {
        assertEquals(RandomTrees.COUNTER.count(tree.text(v)), tree.tokens(v), m);
        if (!tree.isLeaf(v)) {
          assertTrue(tree.childCount(v) >= 1 && tree.childCount(v) <= 10, m);
          assertTrue(tree.childCount(v) >= 2 || tree.leafCount() == 1, "one-child node only for one leaf, " + m);
          float[] mean = new float[RandomTrees.DIM];
          for (int leaf : tree.leavesOf(v)) {
            Vectors.addScaled(mean, tree.embedding(leaf), 0, RandomTrees.DIM, 1f);
          }
          Vectors.normalize(mean);
          float[] centroid = tree.centroid(v);
          for (int i = 0; i < RandomTrees.DIM; i++) {
            assertEquals(mean[i], centroid[i], 1e-5f, m);
          }
        }
      }
    }
    assertTrue(depths.size() >= 3, "tree depths vary: " + depths);
    // Both single-leaf shapes, checked on the generator itself: a case has one leaf only about 4% of the time,
    // so whether a run's random cases hold both shapes is chance (about one run in 300 held only one).
    Set<Integer> singleLeafSizes = new HashSet<>();
    for (long seed = 0; seed < 64; seed++) {
      Tree tree = RandomTrees.tree(new Random(seed), 1);
      assertEquals(1, tree.leafCount());
      singleLeafSizes.add(tree.size());
    }
    assertEquals(Set.of(1, 2), singleLeafSizes, "a leaf alone as root, and a leaf under a one-child root");
  }

  /** The test counter is additive over whitespace, as the walk's budget accounting requires. */
  @Test
  void testCounterIsAdditiveOverWhitespace() {
    for (long seed : seeds()) {
      Random rnd = new Random(seed);
      String a = RandomTrees.words(rnd, 1 + rnd.nextInt(20));
      String b = RandomTrees.words(rnd, 1 + rnd.nextInt(20));
      String sep = new String[] {" ", "\n", "\n    ", "\t"}[rnd.nextInt(4)];
      assertEquals(RandomTrees.COUNTER.count(a) + RandomTrees.COUNTER.count(b),
          RandomTrees.COUNTER.count(a + sep + b), "seed=" + seed);
    }
    assertEquals(2, RandomTrees.COUNTER.count(ContextFormat.SUMMARY_MARK));
    assertEquals(2, RandomTrees.COUNTER.count(ContextFormat.LEAF_MARK));
    assertEquals(0, RandomTrees.COUNTER.count("  \n "));
  }
}

package dev.setree.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The columns a plain leaf has fixed values in, per node or per internal node: both read the same, and a copy of any
 * range of nodes from either into arrays of either kind writes what a copy of the per-node arrays would.
 */
class InternalColumnsTest {

  @Test
  void perInternalNodeColumnsReadAndCopyAsPerNodeOnes() {
    long seed = Long.getLong("tests.seed", System.nanoTime());
    Random r = new Random(seed);
    for (int round = 0; round < 200; round++) {
      String ctx = "seed=" + seed + " round " + round;
      int leaves = r.nextInt(20);
      int n = leaves + r.nextInt(10);
      Model all = Model.random(n, leaves, r);
      InternalColumns full = new InternalColumns(n, leaves, all.kinds.clone(), all.level.clone(),
          all.faith.clone(), all.loss.clone());
      Model inner = all.from(leaves);
      InternalColumns compact = new InternalColumns(n, leaves, inner.kinds, inner.level, inner.faith, inner.loss);
      assertEquals(0, full.from(), ctx);
      assertEquals(leaves, compact.from(), ctx);
      assertTrue(full.leavesPlain(leaves) && compact.leavesPlain(leaves), ctx + ": plain leaves");
      for (int v = 0; v < n; v++) {
        for (InternalColumns c : new InternalColumns[] {full, compact}) {
          assertEquals(all.kinds[v], c.kind(v), ctx + ": kind of " + v);
          assertEquals(all.level[v], c.level(v), ctx + ": level of " + v);
          assertEquals(all.faith[v], c.faithfulness(v), ctx + ": faithfulness of " + v);
          assertEquals(all.loss[v], c.loss(v), ctx + ": loss of " + v);
        }
      }
      // A copy of nodes [first, first + count) to [at, at + count) of a tree of m nodes whose first `into` are not
      // held: what the per-node copy writes there.
      int first = r.nextInt(n + 1);
      int count = r.nextInt(n - first + 1);
      int m = count + r.nextInt(10);
      int at = r.nextInt(m - count + 1);
      int into = r.nextBoolean() ? 0 : r.nextInt(m + 1);
      Model expected = Model.random(m, 0, r);
      Model copied = expected.from(into);
      Model copiedToo = expected.from(into);
      System.arraycopy(all.kinds, first, expected.kinds, at, count);
      System.arraycopy(all.level, first, expected.level, at, count);
      System.arraycopy(all.faith, first, expected.faith, at, count);
      System.arraycopy(all.loss, first, expected.loss, at, count);
      Model want = expected.from(into);
      full.copyTo(first, count, at, into, copied.kinds, copied.level, copied.faith, copied.loss);
      compact.copyTo(first, count, at, into, copiedToo.kinds, copiedToo.level, copiedToo.faith, copiedToo.loss);
      for (Model got : new Model[] {copied, copiedToo}) {
        String at2 = ctx + " copy " + first + "+" + count + " to " + at + " from " + into;
        assertArrayEquals(want.kinds, got.kinds, at2 + ": kinds");
        assertArrayEquals(want.level, got.level, at2 + ": levels");
        assertArrayEquals(want.faith, got.faith, at2 + ": faithfulness");
        assertArrayEquals(want.loss, got.loss, at2 + ": losses");
      }
    }
  }

  @Test
  void aLeafThatIsNotPlainIsToldAndTheLengthsAreChecked() {
    int[] faith = {100, 50, 70};
    InternalColumns c = new InternalColumns(3, 2, null, new int[] {0, 0, 1}, faith, null);
    assertFalse(c.leavesPlain(2), "a leaf of faithfulness 50");
    assertEquals(50, c.faithfulness(1));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new InternalColumns(5, 3, null, new int[4], new int[4], null));
    assertEquals("level has length 4, expected 5 (per node) or 2 (per internal node)", e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> new InternalColumns(5, 3, null, new int[2], new int[5], null));
    assertEquals("faithfulness has length 5, expected 2", e.getMessage());
  }

  /** Per-node column values; leaves (the first {@code leaves}) plain. */
  private record Model(String[] kinds, int[] level, int[] faith, float[] loss) {
    static Model random(int n, int leaves, Random r) {
      Model m = new Model(new String[n], new int[n], new int[n], new float[n]);
      for (int v = 0; v < n; v++) {
        boolean leaf = v < leaves;
        m.kinds[v] = leaf || r.nextInt(4) == 0 ? null : "k" + r.nextInt(3);
        m.level[v] = leaf ? 0 : 1 + r.nextInt(5);
        m.faith[v] = leaf ? Tree.LEAF_FAITHFULNESS : r.nextInt(201) - 100;
        m.loss[v] = leaf ? 0f : r.nextFloat() * 2;
      }
      return m;
    }

    /** The values from node {@code from} on, in new arrays. */
    Model from(int from) {
      return new Model(Arrays.copyOfRange(kinds, from, kinds.length), Arrays.copyOfRange(level, from, level.length),
          Arrays.copyOfRange(faith, from, faith.length), Arrays.copyOfRange(loss, from, loss.length));
    }
  }
}

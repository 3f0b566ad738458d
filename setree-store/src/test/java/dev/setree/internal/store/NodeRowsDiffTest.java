package dev.setree.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.RowsFrom;
import dev.setree.internal.core.Tree;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A save's row comparison ({@link NodeRows#diff}) with and without what the new tree's maker knows of its rows
 * ({@link RowsFrom}): the rows of a node named there are not compared, every other node's are.
 */
class NodeRowsDiffTest {

  @Test
  void rowsNamedAsKeptAreNotComparedAndOthersAre() {
    Tree before = RandomTrees.tree(7);
    int dim = before.dimension();
    int internal = before.size() - before.leafCount();
    assertTrue(internal >= 2, "the random tree needs two internal nodes");
    int moved = before.leafCount(); // its summary embedding changes
    float[] embeddings = before.internalEmbeddings().clone();
    embeddings[0] += 0.5f;
    int[] all = new int[internal];
    for (int i = 0; i < internal; i++) {
      all[i] = before.leafCount() + i;
    }
    int[] allButMoved = all.clone();
    allButMoved[0] = -1;

    assertEquals(1, changed(before, copy(before, embeddings, null)), "no rows named: the changed row is found");
    boolean[] known = NodeRows.diff(before, copy(before, embeddings, new RowsFrom(before, allButMoved))).changed();
    assertTrue(known[moved], "the node not named is compared");
    assertEquals(1, count(known));
    // A maker that names a node whose row it changed is believed: the comparison is skipped for it.
    assertFalse(NodeRows.diff(before, copy(before, embeddings, new RowsFrom(before, all))).changed()[moved]);
    // Named rows of another tree count for nothing.
    Tree other = copy(before, before.internalEmbeddings().clone(), null);
    assertEquals(1, changed(other, copy(before, embeddings, new RowsFrom(before, all))));
  }

  private static int changed(Tree before, Tree after) {
    return count(NodeRows.diff(before, after).changed());
  }

  private static int count(boolean[] flags) {
    int c = 0;
    for (boolean f : flags) {
      c += f ? 1 : 0;
    }
    return c;
  }

  /** {@code t} with other summary embeddings, told (or not) which rows are an earlier tree's. */
  private static Tree copy(Tree t, float[] internalEmbeddings, RowsFrom rowsFrom) {
    int n = t.size();
    String[] ids = new String[n];
    String[] texts = new String[n];
    String[] times = new String[n];
    String[] kinds = new String[n];
    int[] tokens = new int[n];
    int[] level = new int[n];
    int[] parent = new int[n];
    int[] faithfulness = new int[n];
    int[][] sources = new int[n][];
    for (int v = 0; v < n; v++) {
      ids[v] = t.id(v);
      texts[v] = t.text(v);
      times[v] = t.time(v);
      kinds[v] = t.summarizerKind(v);
      tokens[v] = t.tokens(v);
      level[v] = t.level(v);
      parent[v] = t.parent(v);
      faithfulness[v] = t.faithfulness(v);
      int node = v;
      sources[v] = new int[t.sourceCount(v)];
      Arrays.setAll(sources[v], i -> t.source(node, i));
    }
    return new Tree(t.dimension(), t.leafCount(), ids, texts, times, kinds, tokens, level, parent,
        t.leafEmbeddings(), internalEmbeddings, t.internalCentroids().clone(), faithfulness, sources, rowsFrom);
  }
}

package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.RowDots;
import dev.setree.internal.core.Tree;
import dev.setree.testing.ChildJvm;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A summary request's leaves give each leaf's own similarity, wherever its embedding is. */
class LeafPassagesTest {
  final HashEmbedder embedder = new HashEmbedder(48);
  final SimpleTokenCounter counter = new SimpleTokenCounter();

  Tree built(int leaves, long seed) {
    return new TreeBuilder(embedder, counter, new ExtractiveSummarizer(), BuildOptions.DEFAULTS)
        .build(Corpora.synthetic(leaves, seed), BuildProgress.NONE).tree();
  }

  /**
   * A list long enough to be read in the order of its rows, of leaves that read their tree's rows (shuffled), leaves
   * with arrays of their own and leaves that read another tree's rows: every similarity is the leaf's own
   * {@link DraftNode#dot}, bit for bit.
   */
  @Test
  void everySimilarityIsTheLeafsOwnWhereverItsRowIs() {
    assertEquals(0, mismatches(this));
  }

  /**
   * The same in a child JVM with the Vector API, once {@link RowDots} computes on lanes: the rows read in their
   * order go through its lane code, and every similarity is still the leaf's own {@link DraftNode#dot}.
   */
  @Test
  void onVectorLanesTooEverySimilarityIsTheLeafsOwn() throws Exception {
    String out = ChildJvm.withVectorModule(LeafPassagesTest.class, 180);
    assertTrue(out.contains("lanes=true mismatches=0"), out);
  }

  /** The child JVM of {@link #onVectorLanesTooEverySimilarityIsTheLeafsOwn}. */
  public static void main(String[] args) {
    boolean lanes = RowDots.compileAhead(() -> false);
    System.out.println("lanes=" + lanes + " mismatches=" + mismatches(new LeafPassagesTest()));
  }

  /** How many similarities of a mixed list of leaves differ from the leaf's own (the test's assertions aside). */
  private static int mismatches(LeafPassagesTest t) {
    DraftTree main = DraftTree.of(t.built(5000, 7));
    DraftTree other = DraftTree.of(t.built(600, 8));
    List<DraftNode> leaves = new ArrayList<>(main.leaves);
    Random random = new Random(3);
    int own = 0;
    for (DraftNode l : leaves) {
      if (random.nextInt(9) == 0) {
        l.embedding(); // an array of its own, as a new leaf or one a level's kNN read has
        own++;
      }
    }
    leaves.addAll(other.leaves);
    Collections.shuffle(leaves, random);
    assertTrue(leaves.size() >= 4096 && own > 100, "long enough to be read by rows, with arrays of their own");
    float[] q = main.root().centroid();
    float[] dots = LeafPassages.dots(new LeafPassages(leaves), q);
    int readByRow = 0;
    int mismatches = 0;
    for (int i = 0; i < leaves.size(); i++) {
      DraftNode l = leaves.get(i);
      if (Float.floatToIntBits(l.dot(q)) != Float.floatToIntBits(dots[i])) {
        mismatches++;
      }
      if (l.rowOffset() >= 0) {
        readByRow++;
      }
    }
    assertEquals(leaves.size() - own, readByRow, "no leaf was given an array of its own by being read");
    return mismatches;
  }
}

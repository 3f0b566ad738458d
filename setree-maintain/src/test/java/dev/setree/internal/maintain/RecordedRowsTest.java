package dev.setree.internal.maintain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.internal.core.HierarchyState;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
}

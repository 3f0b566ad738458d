package dev.setree.internal.store;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.Indexes;
import dev.setree.internal.core.KnnRows;
import dev.setree.internal.core.Tree;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes the hierarchy oracle in format version 2: a {@code levels} row per clustering level and a
 * {@code members} row per member of a level, keyed by (level, member id), so that a maintenance run
 * rewrites only the members whose parent, kNN edges or centroid changed ({@link #diff}, {@link #write}). Also says
 * which oracles version 2 can store ({@link #problem}); {@link OracleRowReader} reads the rows back.
 *
 * <p>What is not stored because the tree holds it: level 0's member list (the leaves, in tree order) and
 * level 0's centroids (a leaf's leaf-centroid is its embedding); a level's Leiden assignment when it is
 * the dense numbering of its parent ids in order of first appearance, which is what a maintenance run
 * produces. kNN neighbours are stored by member id, so removing a member does not renumber the others.
 */
final class OracleRows {
  private static final String INSERT_LEVEL = "INSERT INTO levels (level, member_count, member_ids, assignment,"
      + " resolution) VALUES (?, ?, ?, ?, ?)";
  private static final String UPDATE_LEVEL = "UPDATE levels SET member_count = ?, member_ids = ?, assignment = ?,"
      + " resolution = ? WHERE level = ?";
  private static final String UPSERT_MEMBER = "INSERT OR REPLACE INTO members (level, member_id, parent_id,"
      + " centroid, knn_ids, knn_weights) VALUES (?, ?, ?, ?, ?, ?)";

  private OracleRows() {}

  /** The first reason why {@code l} cannot be stored in version 2, or null. */
  static String problem(HierarchyState.Level l, int level, Tree tree, int dim) {
    String p = LevelTable.problem(l, dim);
    if (p != null) {
      return p;
    }
    if (l.centroids() == null || l.parentIds() == null || l.assignment() == null || l.knn() == null) {
      return "lacks some of its arrays (centroids, parent ids, assignment, kNN)";
    }
    int m = l.size();
    if (m > 0 && !l.knn().paged() && l.knnOffsets()[m] != l.knnNeighbors().length) {
      return "has kNN offsets that end at " + l.knnOffsets()[m] + ", not at " + l.knnNeighbors().length;
    }
    String[] members = l.memberIds();
    String[] parents = l.parentIds();
    for (int i = 0; i < m; i++) {
      if (members[i] == null || parents[i] == null) {
        return "has a null member or parent id at member " + i;
      }
    }
    if (level == 0 && (m != tree.leafCount() || !tree.startsWithIds(members, m))) {
      return "does not list the tree's leaves in tree order";
    }
    return null;
  }

  /** Writes every level; the tables must be empty. Returns the bytes of blobs written. */
  static long writeAll(Connection c, Tree tree, HierarchyState h) throws SQLException {
    long bytes = 0;
    try (PreparedStatement lv = c.prepareStatement(INSERT_LEVEL);
        PreparedStatement mem = c.prepareStatement(UPSERT_MEMBER)) {
      for (int level = 0; level < h.levels().size(); level++) {
        HierarchyState.Level l = h.levels().get(level);
        bytes += bindLevel(lv, 1, level, l, tree);
        lv.addBatch();
        for (int i = 0; i < l.size(); i++) {
          bytes += bindMember(mem, tree, level, l, i);
          mem.addBatch();
          if ((i + 1) % 256 == 0) {
            mem.executeBatch();
          }
        }
        mem.executeBatch();
      }
      lv.executeBatch();
    }
    return bytes;
  }

  /**
   * What differs between the oracle the tables hold and another, per level, found from the two alone (no
   * database access), so that it can be worked out before the write transaction.
   *
   * @param levels the levels whose rows change, in order
   * @param afterLevels how many levels the other oracle has (the tables' levels from there on are dropped)
   * @param dropsLevels whether the tables hold more levels than that
   */
  record Diff(Tree afterTree, List<LevelDiff> levels, int afterLevels, boolean dropsLevels) {}

  /**
   * One level's changes: its {@code levels} row ({@code row}: 0 kept, 1 inserted, 2 updated), the members whose
   * rows are written (indexes in {@code l}) and the ids of the members whose rows are deleted.
   */
  record LevelDiff(int level, HierarchyState.Level l, int row, int[] upserts, String[] deletes) {}

  /** The {@link Diff} between the oracle the tables hold ({@code before}) and {@code after}. */
  static Diff diff(HierarchyState before, Tree afterTree, HierarchyState after) {
    List<LevelDiff> levels = new ArrayList<>();
    for (int level = 0; level < after.levels().size(); level++) {
      HierarchyState.Level l = after.levels().get(level);
      HierarchyState.Level old = level < before.levels().size() ? before.levels().get(level) : null;
      if (old == l) {
        continue; // the very level the tables hold (a maintenance run keeps the levels above a clean one)
      }
      int row = old == null ? 1 : sameLevel(old, l, afterTree) ? 0 : 2;
      int kept = old == null ? 0 : old.size();
      int size = l.size();
      String[] ids = l.memberIds();
      // When the level starts with every old member in its place (members only added: the usual run), the others
      // are new, a level listing each member once: none is looked up, and the old level's index is not built. The
      // ids are the same strings when a run copied them: no characters compared.
      boolean appended = old != null && size >= kept && l.startsWithMembersOf(old);
      boolean[] changedKept = appended ? ChangedMembers.inPlace(old, l, level, afterTree.dimension()) : null;
      if (changedKept != null) { // the members that changed in place, then the new ones: no index mapped
        int[] upserts = new int[size];
        int n = 0;
        for (int o = 0; o < kept; o++) {
          if (changedKept[o]) {
            upserts[n++] = o;
          }
        }
        for (int i = kept; i < size; i++) {
          upserts[n++] = i;
        }
        assert Arrays.equals(Arrays.copyOf(upserts, n), upsertsByIndex(old, l, level, afterTree.dimension()))
            : "level " + level + ": the members changed in place are not those the indexes find";
        levels.add(new LevelDiff(level, l, row, Arrays.copyOf(upserts, n), new String[0]));
        continue;
      }
      // Each old member's index now (-1: gone), so that kNN edges are compared by index, not by id.
      int[] oldToNew = new int[kept];
      Arrays.fill(oldToNew, -1);
      int[] newToOld = new int[size];
      if (appended) {
        Indexes.identity(newToOld, 0, kept);
        Indexes.identity(oldToNew, 0, kept);
        Arrays.fill(newToOld, kept, size, -1);
        assert matchedById(old, ids, newToOld)
            : "level " + level + ": a member matched to another index than by its id";
      } else {
        MemberMatch match = new MemberMatch(old);
        for (int i = 0; i < size; i++) {
          newToOld[i] = match.oldIndexOf(ids[i]);
          if (newToOld[i] >= 0) {
            oldToNew[newToOld[i]] = i;
          }
        }
      }
      // When every old member kept its index (members only added, after them: the usual run), kNN rows are
      // compared as they are, a range at a time, without mapping each edge.
      boolean sameIndexes = true;
      for (int o = 0; o < oldToNew.length && sameIndexes && !appended; o++) {
        sameIndexes = oldToNew[o] == o;
      }
      boolean[] changedInPlace = sameIndexes && old != null && !appended // appended: found null above
          ? ChangedMembers.inPlace(old, l, level, afterTree.dimension()) : null;
      int[] upserts = new int[size];
      int n = 0;
      for (int i = 0; i < size; i++) {
        int o = newToOld[i];
        if (o < 0 || (changedInPlace != null ? changedInPlace[o]
            : !sameMember(old, o, sameIndexes ? null : oldToNew, l, i, level, afterTree.dimension()))) {
          upserts[n++] = i;
        }
      }
      List<String> deletes = new ArrayList<>();
      for (int o = 0; o < oldToNew.length && !appended; o++) {
        if (oldToNew[o] < 0) { // member ids are distinct in a level: no new member has this id
          deletes.add(old.memberIds()[o]);
        }
      }
      levels.add(new LevelDiff(level, l, row, Arrays.copyOf(upserts, n), deletes.toArray(new String[0])));
    }
    return new Diff(afterTree, levels, after.levels().size(), before.levels().size() > after.levels().size());
  }

  /**
   * The members of {@code l}, whose first ones are {@code old}'s at the same indexes, to write: those whose row
   * differs from the old one, member by member, and the new ones (checked under assertions).
   */
  private static int[] upsertsByIndex(HierarchyState.Level old, HierarchyState.Level l, int level, int dim) {
    return java.util.stream.IntStream.range(0, l.size())
        .filter(i -> i >= old.size() || !sameMember(old, i, null, l, i, level, dim))
        .toArray();
  }

  /** Whether each member's old index is the one its id has in {@code old} (checked under assertions). */
  private static boolean matchedById(HierarchyState.Level old, String[] ids, int[] newToOld) {
    MemberMatch match = new MemberMatch(old);
    return java.util.stream.IntStream.range(0, ids.length).allMatch(i -> newToOld[i] == match.oldIndexOf(ids[i]));
  }

  /** Writes a {@link Diff} to tables holding its oracle before; returns the bytes of blobs written. */
  static long write(Connection c, Diff d) throws SQLException {
    long bytes = 0;
    try (PreparedStatement insLevel = c.prepareStatement(INSERT_LEVEL);
        PreparedStatement updLevel = c.prepareStatement(UPDATE_LEVEL);
        PreparedStatement mem = c.prepareStatement(UPSERT_MEMBER);
        PreparedStatement delMem = c.prepareStatement("DELETE FROM members WHERE level = ? AND member_id = ?")) {
      for (LevelDiff ld : d.levels()) {
        if (ld.row() == 1) {
          bytes += bindLevel(insLevel, 1, ld.level(), ld.l(), d.afterTree());
          insLevel.addBatch();
        } else if (ld.row() == 2) {
          bytes += bindLevel(updLevel, 0, ld.level(), ld.l(), d.afterTree());
          updLevel.addBatch();
        }
        for (int i : ld.upserts()) {
          bytes += bindMember(mem, d.afterTree(), ld.level(), ld.l(), i);
          mem.addBatch();
        }
        for (String id : ld.deletes()) {
          delMem.setInt(1, ld.level());
          delMem.setString(2, id);
          delMem.addBatch();
        }
      }
      insLevel.executeBatch();
      updLevel.executeBatch();
      delMem.executeBatch();
      mem.executeBatch();
    }
    if (d.dropsLevels()) {
      try (PreparedStatement dl = c.prepareStatement("DELETE FROM levels WHERE level >= ?");
          PreparedStatement dm = c.prepareStatement("DELETE FROM members WHERE level >= ?")) {
        dl.setInt(1, d.afterLevels());
        dl.executeUpdate();
        dm.setInt(1, d.afterLevels());
        dm.executeUpdate();
      }
    }
    return bytes;
  }

  /**
   * Finds the members of a level in the level before it. A maintenance run keeps members in their old
   * relative order, so each is first looked for where the previous one was found, plus one, then in the old
   * level's member index ({@link HierarchyState.Level#indexOf}).
   */
  private static final class MemberMatch {
    private final HierarchyState.Level old;
    private int next;

    MemberMatch(HierarchyState.Level old) {
      this.old = old;
    }

    /** The index of member {@code id} in the old level, -1 when it was not there. */
    int oldIndexOf(String id) {
      if (old == null) {
        return -1;
      }
      int o = old.indexOf(id, next);
      if (o >= 0) {
        next = o + 1;
      }
      return o;
    }
  }

  /** Whether the two levels' rows are the same; {@code bTree} is the tree saved with {@code b}. */
  private static boolean sameLevel(HierarchyState.Level a, HierarchyState.Level b, Tree bTree) {
    return Double.doubleToLongBits(a.resolution()) == Double.doubleToLongBits(b.resolution())
        && Arrays.equals(a.memberIds(), b.memberIds())
        && Arrays.equals(DerivedAssignment.stored(a, null), DerivedAssignment.stored(b, bTree));
  }

  /**
   * Whether old member {@code o} of {@code a} and member {@code i} of {@code b} have the same row; {@code oldToNew}
   * maps old member indexes to new ones, null when each old member kept its index.
   */
  private static boolean sameMember(HierarchyState.Level a, int o, int[] oldToNew, HierarchyState.Level b, int i,
      int level, int dim) {
    if (!a.parentIds()[o].equals(b.parentIds()[i])) {
      return false;
    }
    KnnRows ak = a.knn();
    KnnRows bk = b.knn();
    if (oldToNew == null) {
      return ak.sameRow(o, bk, i) && (level == 0 || NodeRows.rowEquals(a.centroids(), o * dim, b.centroids(),
          i * dim, dim));
    }
    int ao = ak.start(o);
    int an = ak.end(o) - ao;
    int bo = bk.start(i);
    if (bk.end(i) - bo != an) {
      return false;
    }
    int[] aIds = ak.neighbourPage(o);
    float[] aw = ak.weightPage(o);
    int[] bIds = bk.neighbourPage(i);
    float[] bw = bk.weightPage(i);
    for (int e = 0; e < an; e++) {
      if (Float.floatToRawIntBits(aw[ao + e]) != Float.floatToRawIntBits(bw[bo + e])
          || oldToNew[aIds[ao + e]] != bIds[bo + e]) { // ids are distinct in a level
        return false;
      }
    }
    // Level 0: centroids are the leaves' embeddings, which do not change for a leaf id that stays.
    return level == 0 || NodeRows.rowEquals(a.centroids(), o * dim, b.centroids(), i * dim, dim);
  }

  /**
   * Binds a levels row. For an INSERT ({@code first} = 1) the level comes first; for an UPDATE
   * ({@code first} = 0) it is the last parameter. {@code tree} is the tree saved with it, whose nodes the parent
   * ids name ({@link DerivedAssignment#holds}).
   */
  private static long bindLevel(PreparedStatement ps, int first, int level, HierarchyState.Level l, Tree tree)
      throws SQLException {
    int k = 1;
    if (first == 1) {
      ps.setInt(k++, level);
    }
    ps.setInt(k++, l.size());
    long bytes = 0;
    byte[] members = level == 0 ? null : Blobs.strings(l.memberIds());
    setBlob(ps, k++, members);
    int[] assignment = DerivedAssignment.stored(l, tree);
    byte[] a = assignment == null ? null : Blobs.ints(assignment);
    setBlob(ps, k++, a);
    bytes += (members == null ? 0 : members.length) + (a == null ? 0 : a.length);
    if (Double.isNaN(l.resolution())) {
      ps.setNull(k++, Types.REAL);
    } else {
      ps.setDouble(k++, l.resolution());
    }
    if (first == 0) {
      ps.setInt(k, level);
    }
    return bytes;
  }

  private static long bindMember(PreparedStatement ps, Tree tree, int level, HierarchyState.Level l, int i)
      throws SQLException {
    int dim = tree.dimension();
    String id = l.memberIds()[i];
    ps.setInt(1, level);
    ps.setString(2, id);
    ps.setString(3, l.parentIds()[i]);
    long bytes = 0;
    if (level == 0) {
      int v = tree.indexOf(id);
      if (v < 0 || v >= tree.leafCount()
          || !NodeRows.rowEquals(l.centroids(), i * dim, tree.leafEmbeddings(), v * dim, dim)) {
        throw new IllegalArgumentException("hierarchy level 0: the centroid of member " + id
            + " is not that leaf's embedding");
      }
      ps.setNull(4, Types.BLOB);
    } else {
      byte[] c = Blobs.floats(l.centroids(), i * dim, dim);
      ps.setBytes(4, c);
      bytes += c.length;
    }
    KnnRows knn = l.knn(); // read by rows: a run's are paged
    int from = knn.start(i);
    int to = knn.end(i);
    int[] page = knn.neighbourPage(i);
    String[] nb = new String[to - from];
    for (int e = from; e < to; e++) {
      nb[e - from] = l.memberIds()[page[e]];
    }
    byte[] ids = Blobs.strings(nb);
    byte[] w = Blobs.floats(knn.weightPage(i), from, to - from);
    ps.setBytes(5, ids);
    ps.setBytes(6, w);
    return bytes + ids.length + w.length;
  }

  static void setBlob(PreparedStatement ps, int i, byte[] blob) throws SQLException {
    if (blob == null) {
      ps.setNull(i, Types.BLOB);
    } else {
      ps.setBytes(i, blob);
    }
  }
}

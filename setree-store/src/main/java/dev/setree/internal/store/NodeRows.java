package dev.setree.internal.store;

import dev.setree.internal.core.Indexes;
import dev.setree.internal.core.InternalRows;
import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeChanges;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Arrays;
import java.util.Objects;

/**
 * The {@code nodes} table of format version 2: one row per node, keyed by the node id, so that a
 * maintenance run rewrites only the rows of nodes that changed ({@link #diff}, {@link #write}); read back by
 * {@link NodeRowReader}.
 *
 * <p>Row order is kept by {@code ord}, a stable sort key: on load, leaves come first in {@code ord} order,
 * then internal nodes by level and {@code ord}, the root last; this is exactly the order in which
 * {@link Tree} numbers its nodes. An existing row keeps its {@code ord}; new rows get numbers above every
 * existing one. Only when a run reorders nodes of one group (leaves, or internal nodes of one level)
 * differently are that group's numbers rewritten.
 */
final class NodeRows {
  private static final int BATCH = 256;

  static final String COLUMNS = "id, is_leaf, level, parent_id, text, time, tokens, subtree_depth,"
      + " leaf_count, summarizer, embedding, centroid, loss, faithfulness, sources";
  private static final String INSERT = "INSERT INTO nodes (ord, " + COLUMNS + ")"
      + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String UPDATE = "UPDATE nodes SET is_leaf = ?, level = ?, parent_id = ?, text = ?,"
      + " time = ?, tokens = ?, subtree_depth = ?, leaf_count = ?, summarizer = ?, embedding = ?,"
      + " centroid = ?, loss = ?, faithfulness = ?, sources = ? WHERE id = ?";

  private NodeRows() {}

  /** Inserts every node of {@code tree} with {@code ord} = its index; the table must be empty. */
  static long writeAll(Connection c, Tree tree) throws SQLException {
    long bytes = 0;
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      for (int v = 0; v < tree.size(); v++) {
        ps.setLong(1, v);
        bytes += bindInsert(ps, tree, v);
        ps.addBatch();
        if ((v + 1) % BATCH == 0) {
          ps.executeBatch();
        }
      }
      ps.executeBatch();
    }
    return bytes;
  }

  /**
   * What differs between the rows of {@code before} (what the table holds) and those of {@code after}, found
   * from the two trees alone (no database access), so that it can be worked out before the write transaction.
   * Lists, not a flag per node: a save after a one-fact run writes a few rows of a million.
   *
   * @param gone the nodes of {@code before} that are not in {@code after} (indexes in {@code before}, ascending)
   * @param numbered the nodes that take new {@code ord} numbers, in the order they take them (indexes in
   *     {@code after}): new nodes, and existing ones whose group (leaves, or internal nodes of one level) was
   *     reordered
   * @param added per entry of {@code numbered}, whether it is a new node (its row inserted; else the row moves)
   * @param changed the nodes in both trees whose row differs (indexes in {@code after}, ascending)
   * @param byLog whether the run's change log alone told all this ({@link LoggedNodeDiff}), without a look at every
   *     node
   */
  record Diff(Tree before, Tree after, int[] gone, int[] numbered, boolean[] added, int[] changed, boolean byLog) {}

  /**
   * The {@link Diff} of {@code before} and {@code after}: from the change log {@code changes} alone when it is a
   * log from {@code before} that says enough ({@link LoggedNodeDiff}); else comparing only the rows of the nodes it
   * lists and the nodes above them ({@link TreeChanges#pathsOf}) when it is a log from {@code before}; else every
   * row (also when {@code changes} is null).
   */
  static Diff diff(Tree before, Tree after, TreeChanges changes) {
    Diff logged = LoggedNodeDiff.of(before, after, changes);
    if (logged != null) {
      assert LoggedNodeDiff.same(logged, compared(before, after, null)) : "the log's diff is not the trees' diff";
      return logged;
    }
    return compared(before, after, changes);
  }

  /** {@link #diff} by a pass over every node, comparing the rows {@code log} says may differ (or every row). */
  private static Diff compared(Tree before, Tree after, TreeChanges log) {
    // Each node's index in the committed tree (-1: new), looked up once: first just after the previous node's
    // (nodes keep their relative order from tree to tree, so that is the usual case), then by id.
    int size = after.size(); // read once: a call per node costs a process's first run, before it is compiled
    int[] oldOf = new int[size];
    boolean[] kept = new boolean[before.size()];
    // The leaves the log says are the committed tree's at the same indexes need no look (ADR 0034).
    int prefix = TreeChanges.leafPrefix(log, before, after);
    Indexes.identity(oldOf, 0, prefix);
    Arrays.fill(kept, 0, prefix, true);
    assert java.util.stream.IntStream.range(0, prefix).allMatch(v -> before.indexOf(after.id(v)) == v)
        : "a leaf of the prefix is not at its committed index";
    int expected = prefix;
    for (int v = prefix; v < size; v++) {
      int o = before.indexOf(after.id(v), expected);
      oldOf[v] = o;
      if (o >= 0) {
        kept[o] = true;
        expected = o + 1;
      }
    }
    // Groups: leaves, then internal nodes per level, each in the order the tree numbers them.
    int[] byGroup = new int[after.size()];
    int[] groupStart = groups(after, byGroup);
    int[] numbered = new int[after.size()];
    int count = 0;
    for (int g = 0; g + 1 < groupStart.length; g++) {
      // Group 0, the leaves, is in index order: its first prefix leaves are in place and not new.
      int from = g == 0 ? Math.min(prefix, groupStart[1]) : groupStart[g];
      int to = groupStart[g + 1];
      boolean consistent = true;
      boolean seenNew = false;
      int lastOld = from - groupStart[g] - 1; // the prefix's last leaf, for group 0
      for (int x = from; x < to; x++) {
        int v = byGroup[x];
        int o = sameGroup(before, after, v, oldOf[v]);
        if (o >= 0) {
          if (seenNew || o < lastOld) {
            consistent = false;
            break;
          }
          lastOld = o;
        } else {
          seenNew = true;
        }
      }
      for (int x = from; x < to; x++) {
        int v = byGroup[x];
        if (!consistent || sameGroup(before, after, v, oldOf[v]) < 0) {
          numbered[count++] = v;
        }
      }
    }
    // Only the nodes the log marks, when there is one: no pass over every node.
    int[] compare = log != null && log.from() == before ? log.pathList(after, kept, prefix) : null;
    int[] changed = new int[size];
    int changes = 0;
    for (int x = 0, end = compare == null ? size : compare.length; x < end; x++) {
      int v = compare == null ? x : compare[x];
      if (oldOf[v] >= 0 && !sameRow(before, oldOf[v], after, v)) {
        changed[changes++] = v;
      }
    }
    Arrays.sort(changed, 0, changes);
    int[] gone = new int[before.size()];
    int gones = 0;
    for (int o = 0; o < kept.length; o++) {
      if (!kept[o]) {
        gone[gones++] = o;
      }
    }
    boolean[] added = new boolean[count];
    for (int i = 0; i < count; i++) {
      added[i] = oldOf[numbered[i]] < 0;
    }
    return new Diff(before, after, Arrays.copyOf(gone, gones), Arrays.copyOf(numbered, count), added,
        Arrays.copyOf(changed, changes), false);
  }

  /**
   * Sorts {@code tree}'s nodes into groups, leaves first and then the internal nodes of each level from the lowest,
   * each group in index order: fills {@code byGroup} and returns where each group starts in it (and, last, its
   * length). A tree numbers its internal nodes by level (a freeze and a load do), so each group is a run of indexes
   * found in one pass; any other numbering takes a counting sort. A run's save looks at every node, so nothing is
   * boxed.
   */
  static int[] groups(Tree tree, int[] byGroup) {
    int n = tree.size();
    int leaves = tree.leafCount();
    int levels = 0;
    for (int v = leaves; v < n; v++) {
      if (v == leaves || tree.level(v) > tree.level(v - 1)) {
        levels++;
      } else if (tree.level(v) < tree.level(v - 1)) {
        return countingSort(tree, byGroup);
      }
    }
    int[] start = new int[levels + 2];
    start[1] = leaves;
    for (int v = leaves + 1, g = 1; v < n; v++) {
      if (tree.level(v) != tree.level(v - 1)) {
        start[++g] = v;
      }
    }
    start[levels + 1] = n;
    Indexes.identity(byGroup, 0, n);
    assert sameGroups(start, byGroup, tree) : "the runs of a tree numbered by level are not its groups";
    return start;
  }

  private static boolean sameGroups(int[] start, int[] byGroup, Tree tree) {
    int[] sorted = new int[byGroup.length];
    return Arrays.equals(start, countingSort(tree, sorted)) && Arrays.equals(sorted, byGroup);
  }

  /** {@link #groups} for any numbering: a counting sort over the levels present. */
  private static int[] countingSort(Tree tree, int[] byGroup) {
    int n = tree.size();
    int[] levels = java.util.stream.IntStream.range(tree.leafCount(), n).map(tree::level).distinct().sorted()
        .toArray();
    int[] start = new int[levels.length + 2]; // group 0: the leaves; group 1 + i: internal nodes of levels[i]
    for (int v = 0; v < n; v++) {
      start[group(tree, v, levels) + 1]++;
    }
    for (int g = 1; g < start.length; g++) {
      start[g] += start[g - 1];
    }
    int[] next = Arrays.copyOf(start, start.length - 1);
    for (int v = 0; v < n; v++) {
      byGroup[next[group(tree, v, levels)]++] = v;
    }
    return start;
  }

  private static int group(Tree tree, int v, int[] levels) {
    return tree.isLeaf(v) ? 0 : 1 + Arrays.binarySearch(levels, tree.level(v));
  }

  /**
   * Writes a {@link Diff} to a table holding its {@code before}'s rows: deletes rows of nodes that are gone,
   * updates rows whose content changed, inserts new nodes. Returns the bytes of text and blobs written.
   */
  static long write(Connection c, Diff d) throws SQLException {
    Tree before = d.before();
    Tree after = d.after();
    long bytes = 0;
    try (PreparedStatement del = c.prepareStatement("DELETE FROM nodes WHERE id = ?")) {
      for (int o : d.gone()) {
        del.setString(1, before.id(o));
        del.addBatch();
      }
      del.executeBatch();
    }
    long next;
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT coalesce(max(ord), -1) + 1 FROM nodes")) {
      rs.next();
      next = rs.getLong(1);
    }
    try (PreparedStatement ins = c.prepareStatement(INSERT);
        PreparedStatement upd = c.prepareStatement(UPDATE);
        PreparedStatement move = c.prepareStatement("UPDATE nodes SET ord = ? WHERE id = ?")) {
      int[] numbered = d.numbered();
      boolean[] added = d.added();
      for (int i = 0; i < numbered.length; i++) {
        int v = numbered[i];
        if (added[i]) {
          ins.setLong(1, next + i);
          bytes += bindInsert(ins, after, v);
          ins.addBatch();
        } else { // an existing row moves
          move.setLong(1, next + i);
          move.setString(2, after.id(v));
          move.addBatch();
          bytes += rowBytes(after, v); // a new rowid rewrites the whole row
        }
      }
      for (int v : d.changed()) {
        bytes += bindUpdate(upd, after, v);
        upd.addBatch();
      }
      // Moves first: an update never touches ord, and inserts take numbers no row holds.
      move.executeBatch();
      upd.executeBatch();
      ins.executeBatch();
    }
    return bytes;
  }

  /** {@code o}, node v's index in {@code before}, when it was there in the same group; else -1. */
  private static int sameGroup(Tree before, Tree after, int v, int o) {
    if (o < 0 || before.isLeaf(o) != after.isLeaf(v) || (!after.isLeaf(v) && before.level(o) != after.level(v))) {
      return -1;
    }
    return o;
  }

  /** Whether node o of {@code a} and node v of {@code b} have the same row (apart from ord). */
  static boolean sameRow(Tree a, int o, Tree b, int v) {
    if (a.isLeaf(o) != b.isLeaf(v) || a.level(o) != b.level(v) || a.tokens(o) != b.tokens(v)
        || a.subtreeDepth(o) != b.subtreeDepth(v) || a.leavesUnder(o) != b.leavesUnder(v)
        || a.faithfulness(o) != b.faithfulness(v)
        || Float.floatToRawIntBits(a.loss(o)) != Float.floatToRawIntBits(b.loss(v))
        || !a.text(o).equals(b.text(v)) || !Objects.equals(a.time(o), b.time(v))
        || !Objects.equals(a.summarizerKind(o), b.summarizerKind(v))
        || !Objects.equals(parentId(a, o), parentId(b, v))) {
      return false;
    }
    if (a.sourceCount(o) != b.sourceCount(v)) {
      return false;
    }
    for (int i = 0; i < a.sourceCount(o); i++) {
      if (!a.id(a.source(o, i)).equals(b.id(b.source(v, i)))) {
        return false;
      }
    }
    int dim = a.dimension();
    if (a.isLeaf(o)) {
      // A leaf's embedding is a function of its text under the store's one model: equal texts, equal rows.
      return true;
    }
    InternalRows ra = a.internalRows();
    InternalRows rb = b.internalRows();
    int i = o - a.leafCount();
    int j = v - b.leafCount();
    if (ra.sameRow(i, rb, j)) { // a row a later freeze kept (ADR 0036): never changed once written
      return true;
    }
    return rowEquals(ra.embeddings(), ra.offset(i), rb.embeddings(), rb.offset(j), dim)
        && rowEquals(ra.centroids(), ra.offset(i), rb.centroids(), rb.offset(j), dim);
  }

  static boolean rowEquals(float[] x, int xo, float[] y, int yo, int dim) {
    return Arrays.equals(x, xo, xo + dim, y, yo, yo + dim);
  }

  private static String parentId(Tree t, int v) {
    return t.parent(v) < 0 ? null : t.id(t.parent(v));
  }

  /** Binds an INSERT's columns after ord; returns the bytes of text and blobs. */
  private static long bindInsert(PreparedStatement ps, Tree tree, int v) throws SQLException {
    ps.setString(2, tree.id(v));
    return bindFrom(ps, 3, tree, v, tree.dimension(), tree.isLeaf(v));
  }

  /** Binds an UPDATE's columns (the id last); returns the bytes of text and blobs. */
  private static long bindUpdate(PreparedStatement ps, Tree tree, int v) throws SQLException {
    long bytes = bindFrom(ps, 1, tree, v, tree.dimension(), tree.isLeaf(v));
    ps.setString(15, tree.id(v));
    return bytes;
  }

  private static long bindFrom(PreparedStatement ps, int k, Tree tree, int v, int dim, boolean leaf)
      throws SQLException {
    long bytes = 0;
    ps.setInt(k++, leaf ? 1 : 0);
    ps.setInt(k++, tree.level(v));
    String parent = parentId(tree, v);
    ps.setString(k++, parent);
    ps.setString(k++, tree.text(v));
    bytes += utf8(tree.text(v));
    ps.setString(k++, tree.time(v));
    ps.setInt(k++, tree.tokens(v));
    ps.setInt(k++, tree.subtreeDepth(v));
    ps.setInt(k++, tree.leavesUnder(v));
    ps.setString(k++, tree.summarizerKind(v));
    byte[] emb = Blobs.floats(tree.embedding(v), 0, dim);
    ps.setBytes(k++, emb);
    bytes += emb.length;
    if (leaf) {
      ps.setNull(k++, Types.BLOB);
    } else {
      InternalRows rows = tree.internalRows();
      byte[] cen = Blobs.floats(rows.centroids(), rows.offset(v - tree.leafCount()), dim);
      ps.setBytes(k++, cen);
      bytes += cen.length;
    }
    ps.setDouble(k++, tree.loss(v));
    if (tree.faithfulness(v) == Tree.UNKNOWN_FAITHFULNESS) {
      ps.setNull(k++, Types.INTEGER);
    } else {
      ps.setInt(k++, tree.faithfulness(v));
    }
    int n = tree.sourceCount(v);
    if (n == 0) {
      ps.setNull(k, Types.BLOB);
    } else {
      String[] ids = new String[n];
      for (int s = 0; s < n; s++) {
        ids[s] = tree.id(tree.source(v, s));
      }
      byte[] src = Blobs.strings(ids);
      ps.setBytes(k, src);
      bytes += src.length;
    }
    return bytes;
  }

  /** The bytes of text and blobs of node v's row. */
  private static long rowBytes(Tree tree, int v) {
    long vectors = (long) tree.dimension() * Float.BYTES * (tree.isLeaf(v) ? 1 : 2);
    return utf8(tree.text(v)) + vectors;
  }

  /** UTF-8 length, for byte counts. */
  static int utf8(String s) {
    return s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length;
  }
}

package dev.setree.internal.store;

import dev.setree.internal.core.Tree;
import dev.setree.internal.core.Vectors;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the {@code nodes} table of format version 2 ({@link NodeRows}) back into a {@link Tree}, checking
 * what a load can check of its rows (one root, known parents, known quoted leaves, well-formed vectors).
 */
final class NodeRowReader {
  private NodeRowReader() {}

  /** In table (ord) order: sorting rows that carry vectors inside SQLite would spill them to a temp file. */
  private static final String SELECT = "SELECT ord, " + NodeRows.COLUMNS + " FROM nodes";

  /**
   * Reads the tree, telling {@code listener} (when not null) each leaf row with a text id and text as the
   * scan meets it (in {@code ord} order); the caller holds a read transaction. With {@code roomForLeaves}, the
   * tree's leaf rows have room for more leaves after them ({@link Vectors#lengthWithRoom}): a writer's, whose
   * first run after the load then writes its new leaves' rows there instead of copying every row.
   */
  static Tree read(Connection c, int dim, Path file, SqliteTreeStore.TreeRows listener, boolean roomForLeaves)
      throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    // Leaf embeddings are decoded as the scan meets them, into one array in scan order, so that the load
    // does not hold a blob per leaf until every row is read (the garbage collector would copy them all).
    // Sized by the oracle's count of level 0 members: when that is the leaf count and the scan meets the
    // leaves in tree order (ord order, as a scan of the table goes), the array becomes the tree's own,
    // allocated once instead of grown by doubling and copied (at 50,000 leaves 77 MB instead of ~250 MB).
    long hint = leafCountHint(c);
    int expected = (int) (hint > 0 && hint <= (Integer.MAX_VALUE - 8) / dim ? hint : 1024);
    float[] leafVectors = new float[roomForLeaves ? Vectors.lengthWithRoom(expected, dim) : expected * dim];
    int leavesSeen = 0;
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(SELECT)) {
      while (rs.next()) {
        Object[] r = new Object[16];
        for (int i = 0; i < 16; i++) {
          r[i] = rs.getObject(i + 1);
        }
        rows.add(r);
        if (r[2] instanceof Number isLeaf && isLeaf.intValue() == 1 && r[11] instanceof byte[] emb
            && emb.length == dim * Float.BYTES) {
          if ((leavesSeen + 1) * dim > leafVectors.length) {
            leafVectors = Arrays.copyOf(leafVectors, leafVectors.length * 2);
          }
          Blobs.toFloats(emb, leafVectors, leavesSeen * dim, dim);
          r[11] = new DecodedLeaf(leavesSeen++); // its vector's place in leafVectors
        }
        if (listener != null && r[2] instanceof Number leaf && leaf.intValue() == 1
            && r[1] instanceof String id && r[5] instanceof String text) {
          listener.leaf(id, text);
        }
      }
    }
    int n = rows.size();
    if (n == 0) {
      return Tree.empty(dim);
    }
    // Tree order: leaves by ord, then internal nodes by level and ord, the root (no parent) last.
    rows.sort(java.util.Comparator
        .comparingInt((Object[] r) -> r[4] == null && ((Number) r[2]).intValue() == 0 ? 1 : 0)
        .thenComparingInt(r -> -((Number) r[2]).intValue())
        .thenComparingInt(r -> ((Number) r[3]).intValue())
        .thenComparingLong(r -> ((Number) r[0]).longValue()));
    int leafCount = 0;
    int root = -1;
    for (int v = 0; v < n; v++) {
      Object[] r = rows.get(v);
      if (((Number) r[2]).intValue() == 1) {
        leafCount++;
      }
      if (r[4] == null) {
        if (root >= 0) {
          throw bad(file, "two nodes have no parent: " + rows.get(root)[1] + " and " + r[1]);
        }
        root = v;
      }
    }
    if (root < 0) {
      throw bad(file, "no node is the root (every node has a parent)");
    }
    if (root != n - 1) {
      throw bad(file, "the root " + rows.get(root)[1] + " is a leaf among other nodes");
    }
    Map<String, Integer> index = new HashMap<>(n * 2);
    for (int v = 0; v < n; v++) {
      if (index.put((String) rows.get(v)[1], v) != null) {
        throw bad(file, "duplicate node id " + rows.get(v)[1]);
      }
    }
    boolean inScanOrder = leavesInScanOrder(rows, leafCount, leavesSeen);
    int length = roomForLeaves ? Vectors.lengthWithRoom(leafCount, dim) : leafCount * dim;
    TreeColumns t = new TreeColumns(n, leafCount, dim, length,
        inScanOrder ? fit(leafVectors, leafCount * dim, length) : null);
    for (int v = 0; v < n; v++) {
      Object[] r = rows.get(v);
      String id = (String) r[1];
      t.ids[v] = id;
      t.level[v] = ((Number) r[3]).intValue();
      if (r[4] == null) {
        t.parent[v] = -1;
      } else {
        Integer p = index.get((String) r[4]);
        if (p == null) {
          throw bad(file, "node " + id + " has the unknown parent " + r[4]);
        }
        t.parent[v] = p;
      }
      t.texts[v] = (String) r[5];
      t.times[v] = (String) r[6];
      t.tokens[v] = ((Number) r[7]).intValue();
      t.summarizers[v] = (String) r[10];
      if (r[11] instanceof DecodedLeaf d && v < leafCount) {
        if (!inScanOrder) {
          System.arraycopy(leafVectors, d.at() * dim, t.leafEmbeddings, v * dim, dim);
        }
      } else {
        t.vectors(file, v, id, r[11] instanceof byte[] b ? b : null, (byte[]) r[12]);
      }
      t.faithfulness[v] = r[14] == null ? Tree.UNKNOWN_FAITHFULNESS : ((Number) r[14]).intValue();
      if (r[15] != null) {
        String[] src;
        try {
          src = Blobs.toStrings((byte[]) r[15]);
        } catch (IllegalArgumentException e) {
          throw bad(file, "the sources of node " + id + " " + e.getMessage());
        }
        int[] x = new int[src.length];
        for (int i = 0; i < src.length; i++) {
          Integer leaf = src[i] == null ? null : index.get(src[i]);
          if (leaf == null) {
            throw bad(file, "node " + id + " quotes the unknown leaf " + src[i]);
          }
          x[i] = leaf;
        }
        t.sources[v] = x;
      }
    }
    return t.toTree(file);
  }

  /**
   * The number of level 0 members the oracle records (the leaves, when it is current), or 0: only a size
   * hint for the scan, which checks what it meets.
   */
  private static long leafCountHint(Connection c) {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT member_count FROM levels WHERE level = 0")) {
      if (rs.next()) {
        return Math.max(0, rs.getLong(1));
      }
      return 0;
    } catch (SQLException e) {
      return 0; // no hint; a file without the table is refused by the reads that need it
    }
  }

  /** Whether the tree's leaves (its first {@code leafCount} rows) are the scan's decoded leaves, in scan order. */
  private static boolean leavesInScanOrder(List<Object[]> rows, int leafCount, int leavesSeen) {
    if (leavesSeen != leafCount) {
      return false;
    }
    for (int v = 0; v < leafCount; v++) {
      if (!(rows.get(v)[11] instanceof DecodedLeaf d) || d.at() != v) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@code a} when it has between {@code needed} and {@code length} elements, else a copy of {@code length} (the hint
   * was off).
   */
  private static float[] fit(float[] a, int needed, int length) {
    return a.length >= needed && a.length <= length ? a : Arrays.copyOf(a, length);
  }

  /** In place of a leaf row's embedding blob: where the scan decoded it. */
  private record DecodedLeaf(int at) {}

  static void decode(Path file, String column, String id, byte[] blob, float[] dst, int off, int dim) {
    if (blob == null) {
      throw bad(file, "node " + id + " has no " + column);
    }
    try {
      Blobs.toFloats(blob, dst, off, dim);
    } catch (IllegalArgumentException e) {
      throw bad(file, "the " + column + " of node " + id + " " + e.getMessage() + " (dimension " + dim + ")");
    }
  }

  private static StoreFormatException bad(Path file, String problem) {
    return new StoreFormatException(file + " is corrupt: " + problem);
  }
}

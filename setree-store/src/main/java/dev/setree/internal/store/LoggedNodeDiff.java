package dev.setree.internal.store;

import dev.setree.internal.core.Tree;
import dev.setree.internal.core.TreeChanges;
import java.util.Arrays;

/**
 * The {@link NodeRows.Diff} of a maintenance run's save found from the run's change log alone (ADR 0034), without a
 * pass over every node: at a million leaves, the passes of the save's plan and write over each node, with arrays as
 * long as the tree, took about 10 ms of every one-fact run.
 *
 * <p>It needs a log from the tree the table holds that kept every old leaf in place and the order of the nodes
 * ({@link TreeChanges#orderKept}): then the only nodes that take new {@code ord} numbers are the new ones, at the
 * end of their groups, and every other node keeps its row unless the log lists it or a node below it. The new nodes
 * are the new leaves (after the old ones) and the listed nodes the old tree lacks; the nodes gone are the listed
 * ones the new tree lacks. The log lists every node a run adds, but not always every node it drops (an internal node
 * left without children by a move higher up): when the counts of the two trees' nodes do not add up, or a listed
 * node changed group, the caller compares the trees instead.
 */
final class LoggedNodeDiff {
  private LoggedNodeDiff() {}

  /** The diff of {@code before} and {@code after} from {@code log}, or null when the log does not say enough. */
  static NodeRows.Diff of(Tree before, Tree after, TreeChanges log) {
    if (log == null || log.from() != before || !log.orderKept() || before.isEmpty() || after.isEmpty()
        || log.leafPrefix() != before.leafCount() || after.leafCount() < before.leafCount()) {
      return null;
    }
    int oldLeaves = before.leafCount();
    int leaves = after.leafCount();
    String[] ids = log.ids();
    int[] added = new int[ids.length]; // internal nodes the old tree lacks (the new leaves are counted apart)
    int[] gone = new int[ids.length];
    int adds = 0;
    int gones = 0;
    for (String id : ids) {
      int v = after.indexOf(id);
      int o = before.indexOf(id);
      if (v >= 0 && o >= 0) {
        if (before.isLeaf(o) != after.isLeaf(v) || before.level(o) != after.level(v)) {
          return null; // a node that changed group: its group's numbers may all change
        }
      } else if (v >= 0) {
        if (v < oldLeaves) {
          return null; // a new node among the old leaves: not what the prefix says
        }
        if (v >= leaves) {
          added[adds++] = v;
        }
      } else if (o >= 0) {
        if (o < oldLeaves) {
          return null; // an old leaf gone: not what the prefix says
        }
        gone[gones++] = o;
      }
    }
    added = distinct(added, adds);
    gone = distinct(gone, gones);
    int newLeaves = leaves - oldLeaves;
    if ((long) before.size() - gone.length + newLeaves + added.length != after.size()) {
      return null; // a node gone or added that the log does not list
    }
    int[] numbered = new int[newLeaves + added.length]; // by group, each in index order: in index order
    for (int i = 0; i < newLeaves; i++) {
      numbered[i] = oldLeaves + i;
    }
    System.arraycopy(added, 0, numbered, newLeaves, added.length);
    boolean[] inserted = new boolean[numbered.length];
    Arrays.fill(inserted, true);
    int[] paths = log.pathList(after, gone);
    int[] changed = new int[paths.length];
    int changes = 0;
    for (int v : paths) {
      int o = before.indexOf(after.id(v));
      if (o >= 0 && !NodeRows.sameRow(before, o, after, v)) {
        changed[changes++] = v;
      }
    }
    changed = Arrays.copyOf(changed, changes);
    Arrays.sort(changed);
    return new NodeRows.Diff(before, after, gone, numbered, inserted, changed, true);
  }

  /** The first {@code n} entries of {@code a}, sorted, each once. */
  private static int[] distinct(int[] a, int n) {
    Arrays.sort(a, 0, n);
    int m = 0;
    for (int i = 0; i < n; i++) {
      if (m == 0 || a[i] != a[m - 1]) {
        a[m++] = a[i];
      }
    }
    return Arrays.copyOf(a, m);
  }

  /** Whether two diffs of the same trees write the same rows (checked under assertions against the full one). */
  static boolean same(NodeRows.Diff a, NodeRows.Diff b) {
    return Arrays.equals(a.gone(), b.gone()) && Arrays.equals(a.numbered(), b.numbered())
        && Arrays.equals(a.added(), b.added()) && Arrays.equals(a.changed(), b.changed());
  }
}

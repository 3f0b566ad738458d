package dev.setree.internal.core;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The mutable state of one tree-cover walk: which nodes are shown and covered, the tokens used, and the
 * carry rule. Its per-node flags live in per-thread scratch arrays stamped with a walk number, so a walk
 * neither allocates nor clears anything sized by the knowledge base: a flag counts only if its stamp is
 * this walk's.
 */
final class CoverState {

  /** Per-thread arrays reused by successive walks. */
  private static final class Scratch {
    int walk;
    int[] shown = new int[0];
    int[] covered = new int[0];
    int[] childrenStamp = new int[0];
    int[] coveredChildren = new int[0];

    void begin(int n) {
      if (shown.length < n) {
        int cap = Math.max(n, shown.length + (shown.length >> 1));
        shown = new int[cap];
        covered = new int[cap];
        childrenStamp = new int[cap];
        coveredChildren = new int[cap];
        walk = 0;
      }
      if (++walk == Integer.MAX_VALUE) {
        Arrays.fill(shown, 0);
        Arrays.fill(covered, 0);
        Arrays.fill(childrenStamp, 0);
        walk = 1;
      }
    }
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private final Tree tree;
  private final WalkTables tables;
  private final int budget;
  private final Scratch scratch;
  private final int walk;
  /** Every node ever shown, in showing order (some may since have been carried). */
  private int[] shownList = new int[64];
  private int shownCount;
  /** Leaves quoted by a summary that was just carried; the walk pushes them back on the heap. */
  final List<Integer> requeue = new ArrayList<>();
  int used;

  CoverState(Tree tree, WalkTables tables, int budget) {
    this.tree = tree;
    this.tables = tables;
    this.budget = budget;
    this.scratch = SCRATCH.get();
    scratch.begin(tree.size());
    this.walk = scratch.walk;
  }

  boolean fits(int c) {
    return used + c <= budget;
  }

  boolean shown(int v) {
    return scratch.shown[v] == walk;
  }

  boolean covered(int v) {
    return scratch.covered[v] == walk;
  }

  void show(int v) {
    scratch.shown[v] = walk;
    used += tables.cost[v];
    if (shownCount == shownList.length) {
      shownList = Arrays.copyOf(shownList, shownCount * 2);
    }
    shownList[shownCount++] = v;
  }

  private int coveredChildren(int p) {
    return scratch.childrenStamp[p] == walk ? scratch.coveredChildren[p] : 0;
  }

  /** Marks {@code v} covered and carries every ancestor whose children are now all covered. */
  void markCovered(int v) {
    if (covered(v)) {
      return;
    }
    scratch.covered[v] = walk;
    int p = tree.parent(v);
    while (p >= 0) {
      int cc = coveredChildren(p) + 1;
      scratch.childrenStamp[p] = walk;
      scratch.coveredChildren[p] = cc;
      if (cc < tree.childCount(p)) {
        return;
      }
      if (shown(p)) { // carried: its children stand for it
        scratch.shown[p] = 0;
        used -= tables.cost[p];
        for (int i = 0, k = tree.sourceCount(p); i < k; i++) {
          if (!covered(tree.source(p, i))) {
            requeue.add(tree.source(p, i));
          }
        }
      }
      if (covered(p)) {
        return; // a shown node counted as covered already
      }
      scratch.covered[p] = walk;
      p = tree.parent(p);
    }
  }

  /** True when leaf {@code v}'s whole text is inside a shown ancestor's summary. */
  boolean quotedByShownAncestor(int v) {
    for (int a = tree.parent(v); a >= 0; a = tree.parent(a)) {
      if (shown(a)) {
        for (int i = 0, k = tree.sourceCount(a); i < k; i++) {
          if (tree.source(a, i) == v) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The cover: the nodes still shown, in tree order, each with its number of shown ancestors. */
  Cover finish(int pops, int scored) {
    int[] nodes = new int[shownCount];
    int m = 0;
    for (int i = 0; i < shownCount; i++) {
      int v = shownList[i];
      if (shown(v)) {
        nodes[m++] = v;
      }
    }
    TreeOrder.sort(tree, nodes, m);
    List<Cover.Item> items = new ArrayList<>(m);
    int last = -1;
    for (int i = 0; i < m; i++) {
      if (nodes[i] == last) {
        continue;
      }
      int v = nodes[i];
      last = v;
      int depth = 0;
      for (int a = tree.parent(v); a >= 0; a = tree.parent(a)) {
        if (shown(a)) {
          depth++;
        }
      }
      items.add(new Cover.Item(v, depth, tables.cost[v]));
    }
    int root = tree.root();
    boolean complete = shown(root) || covered(root);
    return new Cover(List.copyOf(items), used, complete, pops, scored);
  }
}

package dev.setree.internal.maintain;

import dev.setree.internal.core.HierarchyState;
import dev.setree.internal.core.LeafNeighbours;
import dev.setree.internal.core.Tree;

/**
 * The oracle's members of a level nearest a vector: the members holding the leaves nearest it, which the index of
 * the tree's leaves finds ({@link Maintainer#NEAR_LEAVES} of them). A level-{@code L} member holding a leaf is its
 * highest ancestor created at level {@code L} or below (a member carried alone to the levels above keeps its
 * level), so the leaves are followed up the tree, and each ancestor is looked up once. Every level of the oracle below
 * {@code levels} is known: a level above the exact kNN limit is patched from these instead of scans of its
 * members (ADR 0029).
 */
record NearAncestors(Tree tree, HierarchyState oracle, LeafNeighbours nearest, int levels) {
  /** Whether {@link #of} answers for {@code level}: a level of the oracle below {@code levels}. */
  boolean knows(int level) {
    return level >= 0 && level < Math.min(levels, oracle.levels().size());
  }

  /** Indexes of the oracle's level-{@code level} members near {@code q} (-1 entries are skipped). */
  int[] of(float[] q, int level) {
    if (!knows(level)) {
      throw new IllegalArgumentException("no members near a vector are known at level " + level);
    }
    HierarchyState.Level members = oracle.levels().get(level);
    LeafNeighbours.Hits hits = nearest.search(q, Maintainer.NEAR_LEAVES, Maintainer.NEAR_BEAM);
    int[] out = new int[hits.size()];
    int[] seen = new int[hits.size()];
    int distinct = 0;
    for (int x = 0; x < out.length; x++) {
      int a = hits.leaves()[x];
      if (level == 0) {
        out[x] = members.indexOf(tree.id(a), a);
        continue;
      }
      for (int p = tree.parent(a); p >= 0 && tree.level(p) <= level; p = tree.parent(a)) {
        a = p;
      }
      boolean again = false;
      for (int y = 0; y < distinct && !again; y++) {
        again = seen[y] == a;
      }
      if (again) {
        out[x] = -1;
      } else {
        seen[distinct++] = a;
        out[x] = members.indexOf(tree.id(a), -1);
      }
    }
    return out;
  }
}

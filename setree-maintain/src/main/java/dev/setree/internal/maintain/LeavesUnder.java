package dev.setree.internal.maintain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The leaves under one internal node of a draft, in the tree's order, and, in the same order, those of them that no
 * summary below the node quotes: those a summary request offers, so that each level says something new
 * ({@link SummaryPass}).
 *
 * <p>Both are put together from the node's children's {@link Parts}: a child's leaves, those of them that no summary
 * of the child or below it quotes, and the leaves those summaries quote that are not under the child (a leaf that
 * moved away since a summary quoted it). A large node keeps its parts from one pass to the next while nothing under it
 * changes ({@link DraftNode#below}), so that gathering the leaves of a node near the root copies a few arrays instead
 * of walking every node under it and looking at every leaf: in runs that rewrote summaries near the root of a 50,000-
 * leaf tree that walk took about a third of the summary pass's thread (ADR 0043). The parts are forgotten where
 * something under a node may have changed ({@link #changed}): a node the run touched ({@link Touched}) and every node
 * above it, a node whose summary quotes other leaves now and every node above it, a node whose children a settle put
 * back in order. Under assertions every gathering is checked against a walk of the node's subtree.
 *
 * <p>A pass gathers and keeps parts on its own thread.
 */
final class LeavesUnder {
  /** A node of at least this many leaves keeps its parts between passes; a smaller one is gathered when asked for. */
  static final int KEPT_FROM = 1024;

  private static final DraftNode[] NONE = new DraftNode[0];

  /**
   * What an ancestor's summary request needs of the subtree of one internal node, in the tree's order: its leaves,
   * those of them that no summary of the node or below it quotes, and the leaves those summaries quote that are not
   * under the node. Never changed once made.
   */
  record Parts(DraftNode[] leaves, DraftNode[] unquoted, DraftNode[] strays) {}

  /** The leaves, and those no summary below the node quotes ({@link #offered}, before the fall-back to all). */
  private final DraftNode[] leaves;
  private final DraftNode[] unquoted;
  /** Leaves the summaries below the node quote that are not under it. */
  private final DraftNode[] strays;

  private final int keptFrom;

  private LeavesUnder(DraftNode[] leaves, DraftNode[] unquoted, DraftNode[] strays, int keptFrom) {
    this.keptFrom = keptFrom;
    this.leaves = leaves;
    this.unquoted = unquoted;
    this.strays = strays;
  }

  /**
   * The leaves under internal node {@code v}, and which of them no summary below it quotes; a node of at least
   * {@code keptFrom} leaves under it whose parts are gathered on the way keeps them.
   */
  static LeavesUnder of(DraftNode v, int keptFrom) {
    Gathering g = Gathering.under(v, keptFrom);
    LeavesUnder out = new LeavesUnder(g.leaves(), g.unquoted(), g.strays(), keptFrom);
    assert out.matchesWalk(v) : "the parts kept under " + v.id + " are not those of its subtree";
    return out;
  }

  /**
   * Forgets the parts kept by {@code x} and every node above it: something under each of them may have changed (a
   * child, a quoted leaf, the children's order).
   */
  static void changed(DraftNode x) {
    for (; x != null; x = x.parent) {
      x.below = null;
    }
  }

  /** Forgets the parts every internal node of {@code draft} keeps. */
  static void forgetAll(DraftTree draft) {
    for (DraftNode v : draft.internal) {
      v.below = null;
    }
  }

  /**
   * Has {@code v}, whose leaves these are, keep its parts now that its summary quotes {@code v.sources}, if it is
   * large enough, and forgets those of the nodes above it, whose parts depend on what {@code v} quotes.
   */
  void keep(DraftNode v) {
    changed(v.parent);
    if (leaves.length < keptFrom) {
      v.below = null;
      return;
    }
    v.below = parts(leaves, unquoted, unquoted.length, false, strays, v.sources); // offered: not to be changed
  }

  /** How many leaves are under the node. */
  int size() {
    return leaves.length;
  }

  /** The leaves a summary request offers: those no summary below quotes, or all of them when each one is quoted. */
  LeafPassages offered() {
    return offered(null, Float.NaN, MaximalMarginalRelevance.MAX_CANDIDATES);
  }

  /**
   * {@link #offered()}, for {@code node}'s request, so that the node keeps its {@link RelevanceMemo} (none when
   * null), whose bound needs {@code normBound}, at least the norm of every leaf of the draft; the {@code candidates}
   * leaves closest to the centroid compete.
   */
  LeafPassages offered(DraftNode node, float normBound, int candidates) {
    DraftNode[] list = unquoted.length > 0 ? unquoted : leaves;
    return new LeafPassages(list, list.length, node, normBound, candidates);
  }

  /**
   * The leaves (in their order) that a summariser named as sources ({@code ids}) and that {@code text} quotes. The
   * named leaves are found by id in {@code draft}, then by reference among the node's leaves: no leaf object but the
   * named ones is looked at.
   */
  List<DraftNode> sources(DraftTree draft, List<String> ids, String text) {
    List<DraftNode> src = new ArrayList<>();
    if (ids.isEmpty()) {
      return src;
    }
    int[] at = new int[ids.size()];
    int found = 0;
    for (String id : ids) {
      DraftNode l = draft.byId.get(id);
      int i = l != null && l.leaf ? indexOf(leaves, leaves.length, l) : -1;
      if (i >= 0) {
        at[found++] = i;
      }
    }
    Arrays.sort(at, 0, found);
    for (int k = 0; k < found; k++) {
      if (k > 0 && at[k] == at[k - 1]) {
        continue; // named twice
      }
      DraftNode l = leaves[at[k]];
      if (text.contains(normalise(l.text))) {
        src.add(l);
      }
    }
    return src;
  }

  /**
   * Internal node {@code c}'s parts: those it keeps, else gathered from its children's (and kept if it has at least
   * {@code keptFrom} leaves).
   */
  private static Parts partsOf(DraftNode c, int keptFrom) {
    Parts kept = c.below;
    if (kept != null) {
      return kept;
    }
    Gathering g = Gathering.under(c, keptFrom);
    Parts p = parts(g.leaves(), g.unquoted, g.unquotedSize, true, g.strays(), c.sources);
    if (p.leaves.length >= keptFrom) {
      c.below = p;
    }
    return p;
  }

  /**
   * The parts of a node whose leaves are {@code leaves}, whose summary quotes {@code quoted}, and under whose children
   * the first {@code n} of {@code unquoted} are quoted by no summary and {@code strays} are quoted but not under it.
   * The quoted leaves are taken out of {@code unquoted} itself when it is {@code owned} (a gathering's, which nothing
   * else holds), else out of a copy.
   */
  private static Parts parts(DraftNode[] leaves, DraftNode[] unquoted, int n, boolean owned, DraftNode[] strays,
      List<DraftNode> quoted) {
    DraftNode[] u = owned ? unquoted : Arrays.copyOf(unquoted, n);
    int size = n;
    List<DraftNode> away = null;
    for (DraftNode q : quoted) {
      int i = indexOf(u, size, q);
      if (i >= 0) {
        size = removeAt(u, size, i);
      } else if (indexOf(leaves, leaves.length, q) < 0) {
        if (away == null) {
          away = new ArrayList<>(Arrays.asList(strays));
        }
        if (!away.contains(q)) {
          away.add(q); // quoted by this node's summary, no longer under it
        }
      }
    }
    return new Parts(leaves, size == u.length ? u : Arrays.copyOf(u, size),
        away == null ? strays : away.toArray(NONE));
  }

  /** The index of {@code x} (by reference) among the first {@code n} of {@code a}, or -1. */
  private static int indexOf(DraftNode[] a, int n, DraftNode x) {
    for (int i = 0; i < n; i++) {
      if (a[i] == x) {
        return i;
      }
    }
    return -1;
  }

  /** Removes entry {@code i} of the first {@code n} of {@code a}, the later ones moving down; returns {@code n - 1}. */
  private static int removeAt(DraftNode[] a, int n, int i) {
    System.arraycopy(a, i + 1, a, i, n - i - 1);
    return n - 1;
  }

  /**
   * A node's leaves and unquoted leaves put together from its children's, in their order: the children's parts are
   * found first, then copied once into arrays of the sizes they add up to, which are handed out as they are (arrays
   * grown by doubling and copied to size wrote about seven references per leaf under a node instead of three; ADR
   * 0043, amendment of 2026-12-07).
   */
  private static final class Gathering {
    private DraftNode[] leaves;
    private int leafSize;
    private DraftNode[] unquoted;
    private int unquotedSize;
    /** The children's strays, each once, or null for none. */
    private List<DraftNode> strays;

    private Gathering() {}

    /** The leaves under internal node {@code v}, gathered from its children's parts, the strays taken out. */
    static Gathering under(DraftNode v, int keptFrom) {
      List<DraftNode> children = v.children;
      Parts[] parts = new Parts[children.size()]; // null for a leaf
      Gathering g = new Gathering();
      int leafCount = 0;
      int unquotedCount = 0;
      for (int i = 0; i < parts.length; i++) {
        DraftNode c = children.get(i);
        if (c.leaf) {
          leafCount++;
          unquotedCount++;
          continue;
        }
        Parts p = partsOf(c, keptFrom);
        parts[i] = p;
        leafCount += p.leaves.length;
        unquotedCount += p.unquoted.length;
        g.addStrays(p.strays);
      }
      g.leaves = new DraftNode[leafCount];
      g.unquoted = new DraftNode[unquotedCount];
      for (int i = 0; i < parts.length; i++) {
        Parts p = parts[i];
        if (p == null) {
          DraftNode c = children.get(i);
          g.leaves[g.leafSize++] = c;
          g.unquoted[g.unquotedSize++] = c;
          continue;
        }
        System.arraycopy(p.leaves, 0, g.leaves, g.leafSize, p.leaves.length);
        g.leafSize += p.leaves.length;
        System.arraycopy(p.unquoted, 0, g.unquoted, g.unquotedSize, p.unquoted.length);
        g.unquotedSize += p.unquoted.length;
      }
      g.dropStrays();
      return g;
    }

    private void addStrays(DraftNode[] more) {
      for (DraftNode s : more) {
        if (strays == null) {
          strays = new ArrayList<>();
        }
        if (!strays.contains(s)) {
          strays.add(s);
        }
      }
    }

    /**
     * Takes the children's strays out of the unquoted leaves (a leaf one child's summaries quote that is now under
     * another child), and keeps as strays only those not under the node.
     */
    void dropStrays() {
      if (strays == null) {
        return;
      }
      for (var it = strays.iterator(); it.hasNext(); ) {
        DraftNode s = it.next();
        int i = indexOf(unquoted, unquotedSize, s);
        if (i >= 0) {
          unquotedSize = removeAt(unquoted, unquotedSize, i);
        }
        if (i >= 0 || indexOf(leaves, leafSize, s) >= 0) {
          it.remove();
        }
      }
    }

    /** The leaves, in order: the gathering's own array, of their number. */
    DraftNode[] leaves() {
      return leaves;
    }

    DraftNode[] unquoted() {
      return unquotedSize == unquoted.length ? unquoted : Arrays.copyOf(unquoted, unquotedSize);
    }

    DraftNode[] strays() {
      return strays == null || strays.isEmpty() ? NONE : strays.toArray(NONE);
    }
  }

  /**
   * Whether the leaves and unquoted leaves are those a walk of {@code v}'s subtree finds: every leaf under it, and
   * those not among the sources of any internal node below it (checked under assertions).
   */
  private boolean matchesWalk(DraftNode v) {
    List<DraftNode> all = new ArrayList<>();
    Set<DraftNode> quoted = Collections.newSetFromMap(new IdentityHashMap<>());
    for (DraftNode c : v.children) {
      walk(c, all, quoted);
    }
    List<DraftNode> offered = new ArrayList<>();
    for (DraftNode l : all) {
      if (!quoted.contains(l)) {
        offered.add(l);
      }
    }
    return Arrays.asList(leaves).equals(all) && Arrays.asList(unquoted).equals(offered);
  }

  private static void walk(DraftNode v, List<DraftNode> leaves, Set<DraftNode> quoted) {
    if (v.leaf) {
      leaves.add(v);
      return;
    }
    quoted.addAll(v.sources);
    for (DraftNode c : v.children) {
      walk(c, leaves, quoted);
    }
  }

  private static String normalise(String s) {
    return s.strip().replaceAll("\\s+", " ");
  }
}

package dev.setree.internal.maintain;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The leaves under one internal node of a draft, in the tree's order, and, in the same order, those of them that no
 * summary below the node quotes: those a summary request offers, so that each level says something new
 * ({@link SummaryPass}). Both are gathered in one walk, after the quoted leaves are stamped, which looks at each leaf
 * once. Near the root that is every leaf: in runs that rewrote summaries there, gathering the leaves, stamping the
 * quoted ones and looking at each leaf again had most of the maintenance thread's samples (ADR 0043).
 *
 * <p>The stamps are scratch fields of the leaves ({@link DraftNode#quotedMark}, {@link DraftNode#sourceMark}), fresh
 * for every gathering and every summary's sources: a pass gathers and reads its summaries on its own thread.
 */
final class LeavesUnder {
  private static final AtomicLong STAMPS = new AtomicLong();

  /** The leaves: the first {@link #size}. */
  private DraftNode[] leaves = new DraftNode[16];
  private int size;
  /** The offered leaves: the first {@link #offeredSize}. */
  private DraftNode[] offered = new DraftNode[16];
  private int offeredSize;

  private LeavesUnder() {}

  /** The leaves under internal node {@code v}, and which of them no summary below it quotes. */
  static LeavesUnder of(DraftNode v) {
    LeavesUnder out = new LeavesUnder();
    // The quoted leaves are stamped rather than put in a set: near the root that is every summary's leaves, looked up
    // for every leaf.
    long quoted = STAMPS.incrementAndGet();
    for (DraftNode c : v.children) {
      markQuoted(c, quoted);
    }
    out.walk(v, quoted);
    return out;
  }

  /** How many leaves are under the node. */
  int size() {
    return size;
  }

  /** The leaves a summary request offers: those no summary below quotes, or all of them when each one is quoted. */
  LeafPassages offered() {
    return offeredSize > 0 ? new LeafPassages(offered, offeredSize) : new LeafPassages(leaves, size);
  }

  /**
   * The leaves (in their order) that a summariser named as sources ({@code ids}) and that {@code text} quotes. The
   * named leaves are found by id in {@code draft} and stamped, so that the pass over the leaves looks at no leaf's id:
   * only at the stamp of each leaf, which gathering them has just looked at.
   */
  List<DraftNode> sources(DraftTree draft, List<String> ids, String text) {
    List<DraftNode> src = new ArrayList<>();
    if (ids.isEmpty()) {
      return src;
    }
    long named = STAMPS.incrementAndGet();
    boolean any = false;
    for (String id : ids) {
      DraftNode l = draft.byId.get(id);
      if (l != null && l.leaf) {
        l.sourceMark = named;
        any = true;
      }
    }
    for (int i = 0; any && i < size; i++) {
      DraftNode l = leaves[i];
      if (l.sourceMark == named && text.contains(normalise(l.text))) {
        src.add(l);
      }
    }
    return src;
  }

  private void walk(DraftNode v, long quoted) {
    for (DraftNode c : v.children) {
      if (c.leaf) {
        add(c, c.quotedMark != quoted);
      } else {
        walk(c, quoted);
      }
    }
  }

  private void add(DraftNode l, boolean offer) {
    if (size == leaves.length) {
      leaves = Arrays.copyOf(leaves, size * 2);
    }
    leaves[size++] = l;
    if (offer) {
      if (offeredSize == offered.length) {
        offered = Arrays.copyOf(offered, offeredSize * 2);
      }
      offered[offeredSize++] = l;
    }
  }

  /** Stamps the leaves the summaries of {@code v} and the nodes below it quote with {@code mark}. */
  private static void markQuoted(DraftNode v, long mark) {
    if (v.leaf) {
      return;
    }
    for (DraftNode l : v.sources) {
      l.quotedMark = mark;
    }
    for (DraftNode c : v.children) {
      markQuoted(c, mark);
    }
  }

  private static String normalise(String s) {
    return s.strip().replaceAll("\\s+", " ");
  }
}

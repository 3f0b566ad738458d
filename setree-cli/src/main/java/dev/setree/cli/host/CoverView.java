package dev.setree.cli.host;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.Context;
import dev.setree.TreeView;
import java.util.Locale;

/**
 * A retrieve's tree cover drawn on the tree, for the page: every node is <b>visible</b> (an item of the
 * context), <b>carried</b> (hidden because the walk opened it: a visible node lies below it) or <b>not
 * shown</b> (covered by a visible summary above it, or left out by a small budget). The drawing is the
 * tree from the root down through the carried nodes: the children of every carried node (and of a visible
 * overview summary with visible nodes below it), and nothing below the others.
 */
final class CoverView {
  /** Status of a node in the cover. */
  enum Status {
    VISIBLE, CARRIED, NOT_SHOWN;

    String word() {
      return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
  }

  private final TreeView tree;
  private final Context ctx;
  private final Status[] status;

  private CoverView(TreeView tree, Context ctx) {
    this.tree = tree;
    this.ctx = ctx;
    this.status = new Status[tree.size()];
    java.util.Arrays.fill(status, Status.NOT_SHOWN);
    for (Context.Item it : ctx.items()) {
      int v = tree.indexOf(it.nodeId());
      if (v < 0) {
        continue; // the tree changed between the retrieve and this view; the item is listed all the same
      }
      status[v] = Status.VISIBLE;
      for (int p = tree.parent(v); p >= 0 && status[p] == Status.NOT_SHOWN; p = tree.parent(p)) {
        status[p] = Status.CARRIED;
      }
    }
  }

  /** The cover of {@code ctx} on {@code tree} (the snapshot the retrieve read, or the one after it). */
  static CoverView of(TreeView tree, Context ctx) {
    return new CoverView(tree, ctx);
  }

  /** The status of node {@code v}. */
  Status status(int v) {
    return status[v];
  }

  /**
   * The retrieve for the page: the figures ({@code tokens_used}, {@code budget}, {@code complete},
   * {@code cut_short}, {@code latency_ms}), the rendered {@code text}, the {@code items}, the
   * {@code counts} of each status and the {@code cover} drawing (nested nodes with {@code status}).
   */
  ObjectNode toJson(String prompt) {
    ObjectNode o = Exchanges.JSON.createObjectNode();
    o.put("prompt", prompt);
    o.put("budget", ctx.budget());
    o.put("tokens_used", ctx.tokensUsed());
    o.put("complete", ctx.complete());
    o.put("cut_short", ctx.cutShort());
    o.put("latency_ms", ctx.stats().elapsedNanos() / 1e6);
    o.put("pops", ctx.stats().pops());
    o.put("text", ctx.text());
    ArrayNode items = o.putArray("items");
    for (Context.Item it : ctx.items()) {
      items.addObject().put("id", it.nodeId()).put("kind", it.isLeaf() ? "leaf" : "summary")
          .put("level", it.level()).put("tokens", it.tokens()).put("leaves", it.leafIds().size())
          .put("text", it.text());
    }
    int[] counts = new int[Status.values().length];
    for (Status s : status) {
      counts[s.ordinal()]++;
    }
    ObjectNode c = o.putObject("counts");
    for (Status s : Status.values()) {
      c.put(s.word(), counts[s.ordinal()]);
    }
    if (tree.isEmpty()) {
      o.putNull("cover");
    } else {
      o.set("cover", drawing(tree.root()));
    }
    return o;
  }

  /** Whether the drawing goes below {@code v}: it is carried, or a visible overview with more below it. */
  private boolean opened(int v) {
    if (status[v] == Status.CARRIED) {
      return true;
    }
    for (int i = 0; i < tree.childCount(v); i++) {
      if (status[tree.child(v, i)] != Status.NOT_SHOWN) {
        return true;
      }
    }
    return false;
  }

  private ObjectNode drawing(int v) {
    ObjectNode n = KnowledgeBaseRoutes.brief(tree, v);
    n.put("status", status[v].word());
    if (opened(v)) {
      ArrayNode kids = n.putArray("below");
      for (int i = 0; i < tree.childCount(v); i++) {
        kids.add(drawing(tree.child(v, i)));
      }
    }
    return n;
  }
}

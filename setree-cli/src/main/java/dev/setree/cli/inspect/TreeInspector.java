package dev.setree.cli.inspect;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.TreeView;
import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Renders a read-only view of a knowledge base's summary hierarchy for people ({@code tree}, {@code flat},
 * {@code top}) and for tools ({@code json}, and the data behind the HTML page); the engine of
 * {@code setree inspect}. It only reads a {@link TreeView} snapshot, so it never touches the database.
 *
 * <p>A view starts at the root, or at the node given by {@link #selectNode(String)}, and goes at most
 * {@code maxDepth} edges down from it ({@code -1}: no limit). Nodes are listed in tree order (pre-order,
 * children in the tree's order).
 */
public final class TreeInspector {
  /** Words of a summary or leaf shown by the {@code tree} view. */
  static final int FIRST_WORDS = 12;

  private final TreeView tree;
  private final Meta meta;
  private int start;
  private int maxDepth = -1;

  /**
   * Facts about the knowledge base file shown in headers and in the JSON.
   *
   * @param db the database file, as given
   * @param modelId the embedder the knowledge base was built with
   * @param dimension its embedding dimension
   * @param pendingMutations accepted mutations not yet applied by maintenance
   */
  public record Meta(String db, String modelId, int dimension, int pendingMutations) {}

  /**
   * An inspector over {@code tree}, starting at the root with no depth limit.
   *
   * @param tree the snapshot to show (may be empty)
   * @param meta the file's facts for headers and JSON
   */
  public TreeInspector(TreeView tree, Meta meta) {
    this.tree = Objects.requireNonNull(tree, "tree");
    this.meta = Objects.requireNonNull(meta, "meta");
    this.start = tree.isEmpty() ? -1 : tree.root();
  }

  /**
   * Restricts the views to the subtree of the node with this id.
   *
   * @throws IllegalArgumentException naming the id when the tree has no such node
   */
  public TreeInspector selectNode(String id) {
    int v = tree.indexOf(id);
    if (v < 0) {
      String hint = tree.isEmpty() ? " (the knowledge base has no tree yet)"
          : " (leaves carry their fact ids, summaries ids such as " + tree.id(tree.root())
              + "; list them all with --view flat)";
      throw new IllegalArgumentException("no node with id '" + id + "' in " + meta.db() + hint);
    }
    start = v;
    return this;
  }

  /**
   * Limits the views to {@code depth} edges below the start node ({@code 0}: the start node only;
   * {@code -1}: no limit).
   *
   * @throws IllegalArgumentException for a depth below -1
   */
  public TreeInspector maxDepth(int depth) {
    if (depth < -1) {
      throw new IllegalArgumentException("--depth must be >= 0, got " + depth);
    }
    this.maxDepth = depth;
    return this;
  }

  /** One node of the selection and its depth below the start node. */
  record Visit(int node, int depth) {}

  /** The selected nodes in tree order. */
  List<Visit> selection() {
    List<Visit> out = new ArrayList<>();
    if (start < 0) {
      return out;
    }
    Deque<Visit> stack = new ArrayDeque<>();
    stack.push(new Visit(start, 0));
    while (!stack.isEmpty()) {
      Visit x = stack.pop();
      out.add(x);
      if (maxDepth >= 0 && x.depth() >= maxDepth) {
        continue;
      }
      for (int i = tree.childCount(x.node()) - 1; i >= 0; i--) {
        stack.push(new Visit(tree.child(x.node(), i), x.depth() + 1));
      }
    }
    return out;
  }

  /** Number of nodes the views show. */
  public int selectedCount() {
    return selection().size();
  }

  /** The one-line header: file, shape, embedder, pending mutations. */
  String header() {
    if (tree.isEmpty()) {
      return meta.db() + ": empty knowledge base (no tree yet), embedder " + meta.modelId() + ", "
          + meta.pendingMutations() + " pending mutation(s)";
    }
    return String.format(Locale.ROOT, "%s: %d leaves, %d nodes, depth %d, embedder %s, %d pending mutation(s)",
        meta.db(), tree.leafCount(), tree.size(), tree.depth(), meta.modelId(), meta.pendingMutations());
  }

  /**
   * The {@code tree} view: an indented tree, one node a line, with level, leaf count, tokens,
   * faithfulness and the first words of the summary or leaf. A node whose children the depth limit cuts
   * off says how many are hidden.
   */
  public void printTree(PrintWriter out) {
    printIndented(out, false);
  }

  /**
   * The {@code top} view: the upper levels only (the callers set the depth, by default 1: the root and its
   * children), with whole summaries rather than their first words.
   */
  public void printTop(PrintWriter out) {
    printIndented(out, true);
  }

  private void printIndented(PrintWriter out, boolean wholeText) {
    out.println(header());
    for (Visit x : selection()) {
      int v = x.node();
      StringBuilder line = new StringBuilder();
      line.append("  ".repeat(x.depth())).append(tree.id(v)).append(" [");
      if (tree.isLeaf(v)) {
        line.append("leaf");
      } else {
        line.append('L').append(tree.level(v)).append(" leaves=").append(tree.leavesUnder(v));
      }
      line.append(" tokens=").append(tree.tokens(v));
      if (!tree.isLeaf(v)) {
        line.append(" faith=").append(faithfulnessText(tree.faithfulness(v)));
      }
      line.append("] ").append(wholeText ? oneLine(tree.text(v)) : firstWords(tree.text(v), FIRST_WORDS));
      int hidden = (maxDepth >= 0 && x.depth() >= maxDepth) ? tree.childCount(v) : 0;
      if (hidden > 0) {
        line.append("  (+").append(hidden).append(hidden == 1 ? " child" : " children").append(" below)");
      }
      out.println(line);
    }
    out.flush();
  }

  /**
   * The {@code flat} view: every selected node on one tab-separated line (id, kind, level, parent, child
   * count, leaves, tokens, faithfulness, loss, summariser, whole text on one line), after a {@code #}
   * header line naming the columns.
   */
  public void printFlat(PrintWriter out) {
    out.println("# " + header());
    out.println("# id\tkind\tlevel\tparent\tchildren\tleaves\ttokens\tfaithfulness\tloss\tsummarizer\ttext");
    for (Visit x : selection()) {
      int v = x.node();
      int p = tree.parent(v);
      out.println(String.join("\t", tree.id(v), kind(v), Integer.toString(tree.level(v)),
          p < 0 ? "-" : tree.id(p), Integer.toString(tree.childCount(v)), Integer.toString(tree.leavesUnder(v)),
          Integer.toString(tree.tokens(v)),
          tree.isLeaf(v) ? "-" : faithfulnessText(tree.faithfulness(v)),
          tree.isLeaf(v) ? "-" : String.format(Locale.ROOT, "%.4f", tree.loss(v)),
          tree.isLeaf(v) || tree.summarizerKind(v) == null ? "-" : tree.summarizerKind(v),
          oneLine(tree.text(v))));
    }
    out.flush();
  }

  /**
   * The whole selection as JSON for tools: the file's facts, then {@code nodes} in tree order, each with
   * {@code id}, {@code kind} ({@code leaf} or {@code summary}), {@code level}, {@code parent} (id or null),
   * {@code children} (all child ids, even those the depth limit leaves out), {@code leaves}, {@code tokens},
   * {@code faithfulness} (null for leaves and when unknown), {@code loss} (null for leaves),
   * {@code summarizer} (null for leaves), {@code subtree_depth}, {@code depth} (below the start node),
   * {@code time} (leaves only, may be null) and {@code text}.
   */
  public ObjectNode toJson(ObjectMapper mapper) {
    ObjectNode root = mapper.createObjectNode();
    root.put("db", meta.db());
    root.put("model_id", meta.modelId());
    root.put("dimension", meta.dimension());
    root.put("pending_mutations", meta.pendingMutations());
    root.put("leaves", tree.leafCount());
    root.put("nodes_total", tree.size());
    root.put("depth", tree.depth());
    if (tree.isEmpty()) {
      root.putNull("root");
      root.putNull("start");
    } else {
      root.put("root", tree.id(tree.root()));
      root.put("start", tree.id(start));
    }
    if (maxDepth >= 0) {
      root.put("max_depth", maxDepth);
    } else {
      root.putNull("max_depth");
    }
    ArrayNode nodes = root.putArray("nodes");
    for (Visit x : selection()) {
      int v = x.node();
      boolean leaf = tree.isLeaf(v);
      ObjectNode o = nodes.addObject();
      o.put("id", tree.id(v));
      o.put("kind", kind(v));
      o.put("level", tree.level(v));
      int p = tree.parent(v);
      if (p < 0) {
        o.putNull("parent");
      } else {
        o.put("parent", tree.id(p));
      }
      ArrayNode kids = o.putArray("children");
      for (int i = 0; i < tree.childCount(v); i++) {
        kids.add(tree.id(tree.child(v, i)));
      }
      o.put("leaves", tree.leavesUnder(v));
      o.put("tokens", tree.tokens(v));
      int f = tree.faithfulness(v);
      if (leaf || f == TreeView.UNKNOWN_FAITHFULNESS) {
        o.putNull("faithfulness");
      } else {
        o.put("faithfulness", f);
      }
      if (leaf) {
        o.putNull("loss");
        o.putNull("summarizer");
      } else {
        o.put("loss", (double) tree.loss(v));
        o.put("summarizer", tree.summarizerKind(v));
      }
      o.put("subtree_depth", tree.subtreeDepth(v));
      o.put("depth", x.depth());
      if (leaf) {
        o.put("time", tree.time(v));
      }
      o.put("text", tree.text(v));
    }
    return root;
  }

  private String kind(int v) {
    return tree.isLeaf(v) ? "leaf" : "summary";
  }

  /** Faithfulness as printed: the integer, or {@code ?} when unknown. */
  static String faithfulnessText(int f) {
    return f == TreeView.UNKNOWN_FAITHFULNESS ? "?" : Integer.toString(f);
  }

  /** The text with every run of whitespace (newlines included) collapsed to one space. */
  static String oneLine(String s) {
    return s == null ? "" : s.strip().replaceAll("\\s+", " ");
  }

  /** The first {@code n} words of the text, with an ellipsis when there are more. */
  static String firstWords(String s, int n) {
    String t = oneLine(s);
    if (t.isEmpty()) {
      return t;
    }
    String[] words = t.split(" ");
    if (words.length <= n) {
      return t;
    }
    return String.join(" ", java.util.Arrays.copyOf(words, n)) + " \u2026";
  }
}

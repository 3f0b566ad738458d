package dev.setree.cli.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.Context;
import dev.setree.LlmChat;
import dev.setree.SETree;
import dev.setree.TreeView;
import dev.setree.cli.inspect.TreeInspector;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The read routes of the web host: the knowledge base's figures ({@code GET /api/info}), the inspector's
 * views of the live tree ({@code GET /api/tree}, {@code GET /api/level}), the search of leaves by text
 * ({@code GET /api/search}) and the tree cover of a prompt ({@code POST /api/retrieve}). Each reads the
 * facade's current snapshot, so the page always shows the tree as it is now.
 */
final class KnowledgeBaseRoutes {
  /** Most nodes one level listing or one search returns. */
  static final int MAX_LISTED = 200;

  private final SETree kb;
  private final LlmChat chat;

  KnowledgeBaseRoutes(SETree kb, LlmChat chat) {
    this.kb = kb;
    this.chat = chat;
  }

  void register(Map<String, WebHost.Route> routes) {
    routes.put("GET /api/info", ex -> Exchanges.json(ex, 200, info()));
    routes.put("GET /api/tree", ex -> Exchanges.json(ex, 200, subtree(Exchanges.query(ex))));
    routes.put("GET /api/level", ex -> Exchanges.json(ex, 200, level(Exchanges.query(ex))));
    routes.put("GET /api/search", ex -> Exchanges.json(ex, 200, search(Exchanges.query(ex))));
    routes.put("POST /api/retrieve", ex -> {
      JsonNode body = Exchanges.body(ex);
      String prompt = Exchanges.text(body, "prompt");
      int budget = Exchanges.integer(body, "budget", kb.config().defaultBudget());
      TreeView tree = kb.tree();
      Context ctx = kb.retrieve(prompt, budget);
      Exchanges.json(ex, 200, CoverView.of(tree, ctx).toJson(prompt));
    });
  }

  private ObjectNode info() {
    SETree.Stats s = kb.stats();
    TreeView tree = kb.tree();
    ObjectNode o = Exchanges.JSON.createObjectNode();
    o.put("db", kb.path().toString());
    o.put("leaves", s.leaves());
    o.put("nodes", s.nodes());
    o.put("depth", s.depth());
    o.put("embedder", s.modelId());
    o.put("pending_mutations", kb.pendingMutations());
    o.put("default_budget", kb.config().defaultBudget());
    o.put("read_only", kb.isReadOnly());
    ArrayNode levels = o.putArray("levels");
    int[] count = new int[Math.max(1, tree.depth() + 1)];
    for (int v = 0; v < tree.size(); v++) {
      int l = tree.level(v);
      if (l < count.length) {
        count[l]++;
      }
    }
    for (int c : tree.isEmpty() ? new int[0] : count) {
      levels.add(c);
    }
    if (chat == null) {
      o.putNull("llm");
    } else {
      o.putObject("llm").put("base_url", chat.config().baseUrl()).put("model", chat.config().model());
    }
    return o;
  }

  /** The inspector's JSON of a node and its children (or {@code depth} levels below it). */
  private ObjectNode subtree(Map<String, String> q) {
    TreeInspector inspector = new TreeInspector(kb.tree(), new TreeInspector.Meta(kb.path().toString(),
        kb.stats().modelId(), kb.tree().dimension(), kb.pendingMutations()));
    String node = q.get("node");
    if (node != null && !node.isEmpty()) {
      inspector.selectNode(node);
    }
    inspector.maxDepth(Math.min(3, parse(q.getOrDefault("depth", "1"), "depth")));
    return inspector.toJson(Exchanges.JSON);
  }

  /** The nodes of one level, in tree order, at most {@value #MAX_LISTED}. */
  private ObjectNode level(Map<String, String> q) {
    int level = parse(q.getOrDefault("level", "0"), "level");
    TreeView tree = kb.tree();
    ObjectNode o = listing(tree, v -> tree.level(v) == level, false, "nodes");
    o.put("level", level);
    return o;
  }

  /** The leaves whose text holds the query (case-insensitive), at most {@value #MAX_LISTED}, with their path. */
  private ObjectNode search(Map<String, String> q) {
    String needle = q.getOrDefault("q", "").strip().toLowerCase(Locale.ROOT);
    if (needle.isEmpty()) {
      throw new Exchanges.HttpError(400, "give the words to search for in q");
    }
    TreeView tree = kb.tree();
    ObjectNode o = listing(tree, v -> tree.isLeaf(v) && tree.text(v).toLowerCase(Locale.ROOT).contains(needle),
        true, "leaves");
    o.put("q", needle);
    return o;
  }

  /** The nodes that match, in tree order, at most {@value #MAX_LISTED} under {@code field}, and their total. */
  private static ObjectNode listing(TreeView tree, IntPredicate match, boolean withPath, String field) {
    ObjectNode o = Exchanges.JSON.createObjectNode();
    ArrayNode nodes = o.putArray(field);
    int total = 0;
    for (int v = 0; v < tree.size(); v++) {
      if (match.test(v) && total++ < MAX_LISTED) {
        ObjectNode n = nodes.addObject().setAll(brief(tree, v));
        if (withPath) {
          ArrayNode path = n.putArray("path");
          for (int p = tree.parent(v); p >= 0; p = tree.parent(p)) {
            path.insert(0, tree.id(p));
          }
        }
      }
    }
    o.put("total", total);
    return o;
  }

  /** A node in a list: id, kind, level, tokens, child count and whole text. */
  static ObjectNode brief(TreeView tree, int v) {
    ObjectNode n = Exchanges.JSON.createObjectNode();
    n.put("id", tree.id(v));
    n.put("kind", tree.isLeaf(v) ? "leaf" : "summary");
    n.put("level", tree.level(v));
    n.put("tokens", tree.tokens(v));
    n.put("children", tree.childCount(v));
    n.put("text", tree.text(v));
    return n;
  }

  private static int parse(String s, String name) {
    try {
      int n = Integer.parseInt(s.strip());
      if (n < 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      throw new Exchanges.HttpError(400, "'" + name + "' must be a whole number >= 0");
    }
  }
}

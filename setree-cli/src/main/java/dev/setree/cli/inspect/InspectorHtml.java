package dev.setree.cli.inspect;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the inspector's single self-contained HTML page ({@code setree inspect --html OUT.html}): the tree
 * as collapsible nodes coloured by faithfulness, a legend, and a search box that highlights matching nodes
 * and hides the branches without a match. CSS, script and data are inline; the page loads nothing from the
 * network (its Content-Security-Policy forbids it).
 *
 * <p>After rendering, the page's script sets {@code data-nodes} on {@code <body>} to the number of node
 * elements ({@code li.node}) it created, which equals the number of nodes in the view; tests read it from
 * the rendered DOM.
 */
public final class InspectorHtml {
  private InspectorHtml() {}

  /**
   * Writes the page for the inspector's current selection to {@code out} (replacing the file; missing
   * parent directories are created).
   *
   * @return the number of nodes on the page
   */
  public static int write(TreeInspector inspector, Path out) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode data = inspector.toJson(mapper);
    String html = render(data, mapper);
    Path dir = out.toAbsolutePath().getParent();
    if (dir != null) {
      Files.createDirectories(dir);
    }
    Files.writeString(out, html, StandardCharsets.UTF_8);
    return data.get("nodes").size();
  }

  /** The page for the inspector's JSON ({@link TreeInspector#toJson}). */
  static String render(ObjectNode data, ObjectMapper mapper) throws IOException {
    String json = scriptSafe(mapper.writeValueAsString(data));
    String title = "SETree inspector: " + escapeHtml(fileName(data.path("db").asText("")));
    return TEMPLATE.replace("@TITLE@", title).replace("@DATA@", json);
  }

  private static String fileName(String db) {
    if (db.isEmpty()) {
      return "knowledge base";
    }
    Path p = Path.of(db).getFileName();
    return p == null ? db : p.toString();
  }

  /**
   * JSON made safe inside a {@code <script>} element: {@code <}, {@code >} and {@code &} become
   * {@code \}{@code u003c}-style escapes (they only occur inside strings, where the escape means the same),
   * so no text can close the element.
   */
  static String scriptSafe(String json) {
    return json.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
  }

  static String escapeHtml(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  private static final String TEMPLATE = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>@TITLE@</title>
      <style>
        :root { --f-high:#c8e6c9; --f-good:#e6f4c1; --f-mid:#ffe0b2; --f-low:#ffcdd2; --f-unknown:#e0e0e0; --leaf:#e3f2fd; }
        body { font: 14px/1.4 system-ui, -apple-system, "DejaVu Sans", sans-serif; margin: 0; color: #1b1b1b; background: #fafafa; }
        header { position: sticky; top: 0; z-index: 1; background: #fff; border-bottom: 1px solid #ddd; padding: 10px 16px; }
        h1 { font-size: 16px; margin: 0 0 4px 0; }
        #meta { color: #555; font-size: 12px; margin-bottom: 8px; }
        .controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
        #search { width: 320px; padding: 4px 8px; font-size: 14px; }
        button { font-size: 12px; padding: 3px 8px; cursor: pointer; }
        #status { color: #555; font-size: 12px; }
        .legend { display: flex; flex-wrap: wrap; gap: 10px; font-size: 12px; margin-top: 8px; }
        .legend span { display: inline-flex; align-items: center; gap: 4px; }
        .sw { width: 14px; height: 14px; border: 1px solid #999; display: inline-block; border-radius: 3px; }
        main { padding: 8px 16px 40px 16px; }
        ul.tree, ul.children { list-style: none; margin: 0; padding-left: 18px; }
        ul.tree { padding-left: 0; }
        li.node { margin: 2px 0; }
        li.node.collapsed > ul.children { display: none; }
        li.node.filtered-out { display: none; }
        .row { display: flex; align-items: flex-start; gap: 6px; padding: 2px 6px; border-radius: 4px; border: 1px solid rgba(0,0,0,.08); }
        .toggle { width: 18px; flex: none; border: none; background: none; padding: 0; font-size: 12px; color: #444; }
        .toggle.none { visibility: hidden; }
        .badge { flex: none; font: 11px/1.6 ui-monospace, "DejaVu Sans Mono", monospace; color: #333; white-space: nowrap; }
        .text { flex: 1; white-space: pre-wrap; word-break: break-word; }
        .f-high > .row { background: var(--f-high); }
        .f-good > .row { background: var(--f-good); }
        .f-mid > .row { background: var(--f-mid); }
        .f-low > .row { background: var(--f-low); }
        .f-unknown > .row { background: var(--f-unknown); }
        .leaf > .row { background: var(--leaf); }
        li.node.match > .row { outline: 2px solid #1565c0; }
        mark { background: #fff176; padding: 0; }
        .empty { color: #666; font-style: italic; padding: 16px 0; }
      </style>
      </head>
      <body>
      <header>
        <h1>@TITLE@</h1>
        <div id="meta"></div>
        <div class="controls">
          <input id="search" type="search" placeholder="Search node text or id" autocomplete="off">
          <button id="expand" type="button">Expand all</button>
          <button id="collapse" type="button">Collapse all</button>
          <span id="status"></span>
        </div>
        <div class="legend" aria-label="faithfulness legend">
          <b>faithfulness</b> (100 &times; cosine of a summary and the leaves it stands for):
          <span><i class="sw" style="background:var(--f-high)"></i>&ge; 80</span>
          <span><i class="sw" style="background:var(--f-good)"></i>60&ndash;79</span>
          <span><i class="sw" style="background:var(--f-mid)"></i>40&ndash;59</span>
          <span><i class="sw" style="background:var(--f-low)"></i>&lt; 40</span>
          <span><i class="sw" style="background:var(--f-unknown)"></i>unknown</span>
          <span><i class="sw" style="background:var(--leaf)"></i>leaf fact</span>
        </div>
      </header>
      <main><ul class="tree" id="tree"></ul></main>
      <script type="application/json" id="setree-data">@DATA@</script>
      <script>
      (function () {
        "use strict";
        var data = JSON.parse(document.getElementById("setree-data").textContent);
        var byId = {};
        data.nodes.forEach(function (n) { byId[n.id] = n; });
        var meta = document.getElementById("meta");
        meta.textContent = data.db + " \\u2014 " + data.leaves + " leaves, " + data.nodes_total + " nodes, depth " +
          data.depth + ", embedder " + data.model_id + ", " + data.pending_mutations + " pending mutation(s)" +
          (data.start && data.start !== data.root ? "; showing the subtree of " + data.start : "") +
          (data.max_depth !== null ? "; at most " + data.max_depth + " level(s) below it" : "");

        function faithClass(n) {
          if (n.kind === "leaf") { return "leaf"; }
          var f = n.faithfulness;
          if (f === null || f === undefined) { return "f-unknown"; }
          if (f >= 80) { return "f-high"; }
          if (f >= 60) { return "f-good"; }
          if (f >= 40) { return "f-mid"; }
          return "f-low";
        }

        function badge(n) {
          if (n.kind === "leaf") { return n.id + " \\u00b7 leaf \\u00b7 " + n.tokens + " tok"; }
          return n.id + " \\u00b7 L" + n.level + " \\u00b7 " + n.leaves + " leaves \\u00b7 " + n.tokens + " tok \\u00b7 faith " +
            (n.faithfulness === null ? "?" : n.faithfulness) + (n.summarizer ? " \\u00b7 " + n.summarizer : "");
        }

        var nodes = [];
        function build(n, parentUl, depth) {
          var li = document.createElement("li");
          li.className = "node " + faithClass(n);
          li.dataset.id = n.id;
          var row = document.createElement("div");
          row.className = "row";
          var t = document.createElement("button");
          t.type = "button";
          t.className = "toggle";
          var b = document.createElement("span");
          b.className = "badge";
          b.textContent = badge(n);
          var tx = document.createElement("span");
          tx.className = "text";
          tx.textContent = n.text;
          row.appendChild(t); row.appendChild(b); row.appendChild(tx);
          li.appendChild(row);
          var kids = n.children.filter(function (c) { return byId[c] !== undefined; });
          if (kids.length > 0) {
            var ul = document.createElement("ul");
            ul.className = "children";
            li.appendChild(ul);
            if (depth >= 1) { li.classList.add("collapsed"); }
            t.addEventListener("click", function () { li.classList.toggle("collapsed"); sync(li); });
          } else {
            t.classList.add("none");
          }
          parentUl.appendChild(li);
          nodes.push({ li: li, n: n, text: tx, toggle: t, kids: kids, lower: (n.id + " " + n.text).toLowerCase() });
          return li;
        }
        function sync(li) {
          var t = li.querySelector(":scope > .row > .toggle");
          if (t && !t.classList.contains("none")) { t.textContent = li.classList.contains("collapsed") ? "\\u25b8" : "\\u25be"; }
        }

        var treeUl = document.getElementById("tree");
        if (data.nodes.length === 0) {
          var e = document.createElement("li");
          e.className = "empty";
          e.textContent = "This knowledge base has no tree yet.";
          treeUl.appendChild(e);
        } else {
          // Iterative pre-order: parents are created before their children.
          var stack = [{ id: data.nodes[0].id, ul: treeUl, depth: 0 }];
          while (stack.length > 0) {
            var s = stack.pop();
            var n = byId[s.id];
            var li = build(n, s.ul, s.depth);
            var ul = li.querySelector(":scope > ul.children");
            var kids = n.children.filter(function (c) { return byId[c] !== undefined; });
            for (var i = kids.length - 1; i >= 0; i--) { stack.push({ id: kids[i], ul: ul, depth: s.depth + 1 }); }
          }
        }
        var byLi = new Map();
        nodes.forEach(function (x) { byLi.set(x.li, x); sync(x.li); });

        function setAll(collapsed) {
          nodes.forEach(function (x) { if (x.kids.length > 0) { x.li.classList.toggle("collapsed", collapsed); sync(x.li); } });
        }
        document.getElementById("expand").addEventListener("click", function () { setAll(false); });
        document.getElementById("collapse").addEventListener("click", function () { setAll(true); });

        var status = document.getElementById("status");
        function highlight(x, q) {
          var text = x.n.text;
          x.text.textContent = "";
          if (!q) { x.text.textContent = text; return; }
          var lower = text.toLowerCase(), at = 0, i;
          while ((i = lower.indexOf(q, at)) >= 0) {
            x.text.appendChild(document.createTextNode(text.slice(at, i)));
            var m = document.createElement("mark");
            m.textContent = text.slice(i, i + q.length);
            x.text.appendChild(m);
            at = i + q.length;
          }
          x.text.appendChild(document.createTextNode(text.slice(at)));
        }
        function search(raw) {
          var q = raw.trim().toLowerCase();
          var hits = 0;
          // Post-order over the pre-order list: a node stays visible if it or a descendant matches.
          var keep = new Map();
          for (var i = nodes.length - 1; i >= 0; i--) {
            var x = nodes[i];
            var match = q !== "" && x.lower.indexOf(q) >= 0;
            var below = false;
            var ul = x.li.querySelector(":scope > ul.children");
            if (ul) {
              for (var c = ul.firstElementChild; c; c = c.nextElementSibling) { if (keep.get(c)) { below = true; break; } }
            }
            keep.set(x.li, match || below);
            if (match) { hits++; }
            x.li.classList.toggle("match", match);
            x.li.classList.toggle("filtered-out", q !== "" && !(match || below));
            if (q !== "" && below) { x.li.classList.remove("collapsed"); sync(x.li); }
            highlight(x, q);
          }
          status.textContent = q === "" ? nodes.length + " nodes" : hits + " of " + nodes.length + " nodes match";
          document.body.setAttribute("data-matches", String(hits));
        }
        var timer = null;
        document.getElementById("search").addEventListener("input", function (ev) {
          clearTimeout(timer);
          var v = ev.target.value;
          timer = setTimeout(function () { search(v); }, 120);
        });
        status.textContent = nodes.length + " nodes";
        document.body.setAttribute("data-nodes", String(document.querySelectorAll("li.node").length));
        var q0 = new URLSearchParams(location.search).get("q");
        if (q0) { document.getElementById("search").value = q0; search(q0); }
      })();
      </script>
      </body>
      </html>
      """;
}

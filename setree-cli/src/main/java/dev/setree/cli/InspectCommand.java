package dev.setree.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.setree.Inspection;
import dev.setree.SETree;
import dev.setree.TreeView;
import dev.setree.cli.inspect.InspectorHtml;
import dev.setree.cli.inspect.TreeInspector;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code setree inspect}: shows a knowledge base's summary hierarchy, read-only. The file is opened through
 * {@link dev.setree.SETree#inspect}, so nothing is ever written to it (not even a WAL), and no embedder
 * is loaded.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Show a knowledge base's tree, read-only (never writes to the file).",
        "Views: tree (indented, first words of each summary), flat (one tab-separated line per node),",
        "top (the root and its children, whole summaries), json (everything, for tools).",
        "--html OUT.html writes one self-contained page with collapsible nodes and a search box."})
final class InspectCommand implements Callable<Integer> {
  /** The views of {@code --view}. */
  enum View { tree, flat, top, json }

  @Option(names = "--db", required = true, paramLabel = "FILE", description = "Knowledge-base file.")
  Path db;

  @Option(names = "--view", paramLabel = "VIEW",
      description = "tree (default), flat, top or json.")
  View view;

  @Option(names = "--depth", paramLabel = "N",
      description = "Show at most N levels below the start node (0: the start node only). Default: all;"
          + " for --view top: 1.")
  Integer depth;

  @Option(names = "--node", paramLabel = "ID",
      description = "Start at this node (a leaf's fact id or a summary's id, see --view flat) instead of the root.")
  String node;

  @Option(names = "--html", paramLabel = "OUT.html",
      description = "Write a self-contained HTML page of the view's nodes (no network resources).")
  Path html;

  @Override
  public Integer call() throws Exception {
    if (depth != null && depth < 0) {
      throw new IllegalArgumentException("--depth must be >= 0, got " + depth);
    }
    Inspection read = SETree.inspect(db);
    TreeInspector.Meta meta = new TreeInspector.Meta(db.toString(), read.modelId(), read.dimension(),
        read.pendingMutations());
    TreeInspector inspector = new TreeInspector(read.tree(), meta);
    if (node != null) {
      inspector.selectNode(node);
    }
    View v = view != null ? view : View.tree;
    inspector.maxDepth(depth != null ? depth : (v == View.top ? 1 : -1));
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    if (html != null) {
      int n = InspectorHtml.write(inspector, html);
      System.err.println("wrote " + html + ": " + n + " node(s)");
      if (view == null) {
        return 0;
      }
    }
    switch (v) {
      case tree -> inspector.printTree(out);
      case top -> inspector.printTop(out);
      case flat -> inspector.printFlat(out);
      case json -> {
        ObjectMapper m = new ObjectMapper();
        out.println(m.writerWithDefaultPrettyPrinter().writeValueAsString(inspector.toJson(m)));
      }
    }
    out.flush();
    return 0;
  }
}

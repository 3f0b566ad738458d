package dev.setree.cli;

import static dev.setree.cli.CommandLineTest.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.TreeView;
import dev.setree.cli.CommandLineTest.Run;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code setree inspect} on a small knowledge base built with the test embedder: every view prints what it
 * should, bad input exits 1 with a message, and the file is never modified (content, mtime, no WAL or
 * shared-memory file).
 */
class InspectCommandTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  static Path dir;
  static Path db;
  static TreeView tree;
  static String sha;
  static FileTime mtime;

  /** A 40-fact knowledge base from the test embedder (no MiniLM), closed before any test reads it. */
  static Path buildKnowledgeBase(Path file, int facts) {
    SETreeConfig config = SETreeConfig.builder().embedder(new HashEmbedder(48))
        .tokenCounter(new SimpleTokenCounter()).build();
    try (SETree kb = SETree.open(file, config)) {
      kb.build(Corpora.personal().subList(0, facts), dev.setree.BuildProgress.NONE);
    }
    return file;
  }

  @BeforeAll
  static void build() throws Exception {
    db = buildKnowledgeBase(dir.resolve("kb.db"), 40);
    try (SETree kb = SETree.open(db, SETreeConfig.builder().embedder(new HashEmbedder(48))
        .tokenCounter(new SimpleTokenCounter()).build())) {
      tree = kb.tree();
    }
    assertTrue(tree.depth() >= 2, "the test needs a tree with several levels, depth " + tree.depth());
    sha = sha256(db);
    mtime = Files.getLastModifiedTime(db);
  }

  /** Runs after every test of the class: nothing the inspector did changed the file or created a file. */
  @AfterAll
  static void fileNeverModified() throws Exception {
    assertEquals(sha, sha256(db), "the inspector changed the database's bytes");
    assertEquals(mtime, Files.getLastModifiedTime(db), "the inspector changed the database's mtime");
    for (String suffix : List.of("-wal", "-shm", "-journal")) {
      assertFalse(Files.exists(Path.of(db + suffix)), "the inspector created " + db + suffix);
    }
  }

  static String sha256(Path p) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
  }

  static int subtreeSize(int v) {
    int n = 1;
    for (int i = 0; i < tree.childCount(v); i++) {
      n += subtreeSize(tree.child(v, i));
    }
    return n;
  }

  @Test
  void treeViewIndentsEveryNode() {
    Run r = run("inspect", "--db", db.toString());
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(tree.size() + 1, lines.size(), r.out());
    assertTrue(lines.get(0).contains(tree.leafCount() + " leaves") && lines.get(0).contains(tree.size() + " nodes"),
        lines.get(0));
    int root = tree.root();
    String rootLine = lines.get(1);
    assertTrue(rootLine.startsWith(tree.id(root) + " [L" + tree.level(root) + " leaves=" + tree.leafCount()
        + " tokens=" + tree.tokens(root) + " faith="), rootLine);
    // every node once, indented two spaces per depth; leaves show their first words
    Set<String> seen = new HashSet<>();
    for (String line : lines.subList(1, lines.size())) {
      String id = line.strip().split(" ")[0];
      int v = tree.indexOf(id);
      assertTrue(v >= 0, "unknown id in: " + line);
      assertTrue(seen.add(id), "twice: " + id);
      int depth = 0;
      for (int u = v; u != root; u = tree.parent(u)) {
        depth++;
      }
      assertTrue(line.startsWith("  ".repeat(depth) + id + " ["), line);
      String firstWord = tree.text(v).strip().split("\\s+")[0];
      assertTrue(line.contains("] " + firstWord), line);
      if (tree.isLeaf(v)) {
        assertTrue(line.contains("[leaf tokens=" + tree.tokens(v) + "]"), line);
      }
    }
    assertEquals(tree.size(), seen.size());
  }

  @Test
  void flatViewHasOneLinePerNode() {
    Run r = run("inspect", "--db", db.toString(), "--view", "flat");
    assertEquals(0, r.code(), r.err());
    List<String> lines = r.out().lines().toList();
    assertEquals(tree.size() + 2, lines.size());
    assertTrue(lines.get(1).startsWith("# id\tkind\tlevel\tparent"), lines.get(1));
    Set<String> ids = new HashSet<>();
    for (String line : lines.subList(2, lines.size())) {
      String[] f = line.split("\t", -1);
      assertEquals(11, f.length, line);
      int v = tree.indexOf(f[0]);
      assertTrue(v >= 0, line);
      ids.add(f[0]);
      assertEquals(tree.isLeaf(v) ? "leaf" : "summary", f[1]);
      assertEquals(Integer.toString(tree.level(v)), f[2]);
      assertEquals(tree.parent(v) < 0 ? "-" : tree.id(tree.parent(v)), f[3]);
      assertEquals(Integer.toString(tree.tokens(v)), f[6]);
      assertEquals(tree.text(v).strip().replaceAll("\\s+", " "), f[10]);
    }
    assertEquals(tree.size(), ids.size());
  }

  @Test
  void topViewShowsRootAndChildrenWithWholeSummaries() {
    Run r = run("inspect", "--db", db.toString(), "--view", "top");
    assertEquals(0, r.code(), r.err());
    int root = tree.root();
    List<String> lines = r.out().lines().toList();
    assertEquals(2 + tree.childCount(root), lines.size(), r.out());
    assertTrue(lines.get(1).endsWith("] " + tree.text(root).strip().replaceAll("\\s+", " ")), lines.get(1));
    for (int i = 0; i < tree.childCount(root); i++) {
      int c = tree.child(root, i);
      String line = lines.get(2 + i);
      assertTrue(line.startsWith("  " + tree.id(c) + " ["), line);
      if (!tree.isLeaf(c)) {
        assertTrue(line.endsWith("below)"), "hidden children are announced: " + line);
      }
    }
    Run deeper = run("inspect", "--db", db.toString(), "--view", "top", "--depth", "2");
    assertEquals(0, deeper.code(), deeper.err());
    int levels2 = 1;
    for (int i = 0; i < tree.childCount(root); i++) {
      levels2 += 1 + tree.childCount(tree.child(root, i));
    }
    assertEquals(1 + levels2, deeper.out().lines().count());
  }

  @Test
  void jsonViewHoldsTheWholeTree() throws Exception {
    Run r = run("inspect", "--db", db.toString(), "--view", "json");
    assertEquals(0, r.code(), r.err());
    JsonNode j = JSON.readTree(r.out());
    assertEquals(tree.leafCount(), j.get("leaves").asInt());
    assertEquals(tree.size(), j.get("nodes_total").asInt());
    assertEquals(new HashEmbedder(48).modelId(), j.get("model_id").asText());
    assertEquals(tree.id(tree.root()), j.get("root").asText());
    JsonNode nodes = j.get("nodes");
    assertEquals(tree.size(), nodes.size());
    int leaves = 0;
    for (JsonNode n : nodes) {
      int v = tree.indexOf(n.get("id").asText());
      assertTrue(v >= 0);
      for (String field : List.of("id", "kind", "level", "parent", "children", "tokens", "faithfulness", "loss",
          "summarizer", "text")) {
        assertTrue(n.has(field), field + " missing in " + n);
      }
      assertEquals(tree.text(v), n.get("text").asText());
      assertEquals(tree.childCount(v), n.get("children").size());
      for (int i = 0; i < tree.childCount(v); i++) {
        assertEquals(tree.id(tree.child(v, i)), n.get("children").get(i).asText());
      }
      if (tree.isLeaf(v)) {
        leaves++;
        assertEquals("leaf", n.get("kind").asText());
        assertTrue(n.get("faithfulness").isNull() && n.get("loss").isNull() && n.get("summarizer").isNull());
      } else {
        assertEquals("summary", n.get("kind").asText());
        assertEquals(tree.summarizerKind(v), n.get("summarizer").asText());
        assertEquals(tree.loss(v), n.get("loss").floatValue(), 1e-6);
        int f = tree.faithfulness(v);
        assertEquals(f == TreeView.UNKNOWN_FAITHFULNESS, n.get("faithfulness").isNull());
        if (f != TreeView.UNKNOWN_FAITHFULNESS) {
          assertEquals(f, n.get("faithfulness").asInt());
        }
      }
    }
    assertEquals(tree.leafCount(), leaves);
  }

  @Test
  void nodeAndDepthRestrictTheView() throws Exception {
    int root = tree.root();
    int sub = -1;
    for (int i = 0; i < tree.childCount(root); i++) {
      int c = tree.child(root, i);
      if (!tree.isLeaf(c) && (sub < 0 || tree.leavesUnder(c) > tree.leavesUnder(sub))) {
        sub = c;
      }
    }
    assertTrue(sub >= 0);
    Run r = run("inspect", "--db", db.toString(), "--view", "json", "--node", tree.id(sub));
    assertEquals(0, r.code(), r.err());
    JsonNode j = JSON.readTree(r.out());
    assertEquals(tree.id(sub), j.get("start").asText());
    assertEquals(subtreeSize(sub), j.get("nodes").size());
    assertEquals(tree.id(sub), j.get("nodes").get(0).get("id").asText());

    Run t = run("inspect", "--db", db.toString(), "--node", tree.id(sub), "--depth", "1");
    assertEquals(0, t.code(), t.err());
    assertEquals(1 + 1 + tree.childCount(sub), t.out().lines().count(), t.out());

    Run zero = run("inspect", "--db", db.toString(), "--view", "flat", "--depth", "0");
    assertEquals(0, zero.code(), zero.err());
    assertEquals(3, zero.out().lines().count());
  }

  @Test
  void badNodeIdExitsOne() {
    Run r = run("inspect", "--db", db.toString(), "--node", "no-such-node");
    assertEquals(1, r.code());
    assertTrue(r.err().contains("no node with id 'no-such-node'"), r.err());
    assertTrue(r.err().contains("--view flat"), "says how to find the ids: " + r.err());
    assertEquals("", r.out());
    Run d = run("inspect", "--db", db.toString(), "--depth", "-1");
    assertEquals(1, d.code());
    assertTrue(d.err().contains("--depth must be >= 0"), d.err());
  }

  @Test
  void nonSetreeFileExitsOneNamingTheProblem(@TempDir Path other) throws Exception {
    Path text = other.resolve("notes.txt");
    Files.writeString(text, "this is a plain text file, not a database\n".repeat(20));
    String before = sha256(text);
    Run r = run("inspect", "--db", text.toString());
    assertEquals(1, r.code());
    assertTrue(r.err().contains("notes.txt") && r.err().contains("is not a SQLite database"), r.err());
    assertEquals(before, sha256(text));
    try (Stream<Path> files = Files.list(other)) {
      assertEquals(1, files.count(), "nothing created beside the refused file");
    }
    Run missing = run("inspect", "--db", other.resolve("missing.db").toString());
    assertEquals(1, missing.code());
    assertTrue(missing.err().contains("missing.db") && missing.err().contains("does not exist"), missing.err());
    assertFalse(Files.exists(other.resolve("missing.db")), "inspect never creates a file");
  }

  @Test
  void emptyKnowledgeBaseIsShown(@TempDir Path other) throws Exception {
    Path empty = other.resolve("empty.db");
    SETreeConfig config = SETreeConfig.builder().embedder(new HashEmbedder(48))
        .tokenCounter(new SimpleTokenCounter()).build();
    try (SETree kb = SETree.open(empty, config)) {
      kb.insert("the user has a pending fact");
    }
    Run r = run("inspect", "--db", empty.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("empty knowledge base (no tree yet)") && r.out().contains("1 pending mutation"),
        r.out());
    Run j = run("inspect", "--db", empty.toString(), "--view", "json");
    assertEquals(0, j.code(), j.err());
    JsonNode node = JSON.readTree(j.out());
    assertEquals(0, node.get("nodes").size());
    assertTrue(node.get("root").isNull());
  }

  @Test
  void htmlPageIsSelfContained() throws Exception {
    Path page = dir.resolve("out").resolve("page.html");
    Run r = run("inspect", "--db", db.toString(), "--html", page.toString());
    assertEquals(0, r.code(), r.err());
    assertEquals("", r.out(), "--html alone prints no view");
    assertTrue(r.err().contains(tree.size() + " node(s)"), r.err());
    String html = Files.readString(page);
    assertTrue(html.startsWith("<!DOCTYPE html>"));
    for (String external : List.of("<link", " src=", "url(", "@import", "http://", "https://")) {
      assertFalse(html.contains(external), "the page must load nothing from outside: found " + external);
    }
    assertTrue(html.contains("id=\"search\""), "search box");
    assertTrue(html.contains(tree.id(tree.root())));
  }

  /** A separate JVM logging every loaded class: inspect never loads the model (ONNX Runtime, tokenizer). */
  @Test
  void inspectNeverLoadsTheModel(@TempDir Path other) throws Exception {
    Path log = other.resolve("classes.log");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xlog:class+load=info:file=" + log, "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "inspect", "--db", db.toString(), "--view", "json")
        .redirectOutput(other.resolve("out.json").toFile())
        .redirectError(other.resolve("err.txt").toFile())
        .start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "inspect did not finish");
    assertEquals(0, p.exitValue(), Files.readString(other.resolve("err.txt")));
    assertNotNull(JSON.readTree(other.resolve("out.json").toFile()).get("nodes"));
    String classes = Files.readString(log);
    assertTrue(classes.contains("dev.setree.internal.store.SqliteTreeStore"), "the log lists loaded classes");
    // picocli's reflection over every subcommand loads the MiniLmEmbedder class itself; the model is loaded
    // through ONNX Runtime and DJL's tokenizer, and a knowledge base opened for writing starts a scheduler.
    assertFalse(classes.contains("ai.onnxruntime."), "inspect loaded ONNX Runtime (the MiniLM model)");
    assertFalse(classes.contains("ai.djl."), "inspect loaded the MiniLM tokenizer");
    assertFalse(classes.contains("dev.setree.MaintenanceScheduler"), "inspect opened the knowledge base for writing");
  }
}

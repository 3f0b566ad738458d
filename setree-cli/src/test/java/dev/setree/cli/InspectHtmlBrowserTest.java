package dev.setree.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.TreeView;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loads the page of {@code setree inspect --html} in headless Chromium (Debian's {@code chromium}; install it
 * with {@code scripts/install_chromium.sh}): the script renders one element per node, the search box
 * filters, and a screenshot is saved to {@code target/inspector-screenshot.png}. Without Chromium the test
 * fails, unless {@code SETREE_SKIP_BROWSER_TESTS=1} is set.
 */
class InspectHtmlBrowserTest {
  private static final Pattern DATA_NODES = Pattern.compile("<body[^>]*\\bdata-nodes=\"(\\d+)\"");
  private static final Pattern DATA_MATCHES = Pattern.compile("<body[^>]*\\bdata-matches=\"(\\d+)\"");

  @Test
  void pageRendersEveryNodeAndSearches(@TempDir Path dir) throws Exception {
    String chromium = findChromium();
    Path db = InspectCommandTest.buildKnowledgeBase(dir.resolve("kb.db"), 60);
    TreeView tree;
    try (SETree kb = SETree.open(db, SETreeConfig.builder().embedder(new HashEmbedder(48))
        .tokenCounter(new SimpleTokenCounter()).build())) {
      tree = kb.tree();
    }
    Path page = dir.resolve("inspector.html");
    CommandLineTest.Run r = CommandLineTest.run("inspect", "--db", db.toString(), "--html", page.toString());
    assertEquals(0, r.code(), r.err());

    // 1. The script ran and rendered one li.node per node of the tree.
    String dom = chromium(chromium, dir, "--dump-dom", page.toUri().toString());
    Matcher m = DATA_NODES.matcher(dom);
    assertTrue(m.find(), "the page's script did not set data-nodes; DOM starts: " + head(dom));
    assertEquals(tree.size(), Integer.parseInt(m.group(1)), "rendered nodes");
    assertEquals(tree.size(), count(dom, "class=\"node "), "li.node elements in the DOM");

    // 2. The search (?q= fills the box and runs it) highlights every node whose id or text matches.
    String word = "coffee";
    int expected = 0;
    for (int v = 0; v < tree.size(); v++) {
      if ((tree.id(v) + " " + tree.text(v)).toLowerCase(Locale.ROOT).contains(word)) {
        expected++;
      }
    }
    assertTrue(expected > 0, "the corpus mentions " + word);
    String searched = chromium(chromium, dir, "--dump-dom", page.toUri() + "?q=" + word);
    Matcher sm = DATA_MATCHES.matcher(searched);
    assertTrue(sm.find(), "the search did not run; DOM starts: " + head(searched));
    assertEquals(expected, Integer.parseInt(sm.group(1)), "nodes matching '" + word + "'");
    assertTrue(count(searched, "<mark>") >= expected, "matches are highlighted");
    assertTrue(count(searched, "filtered-out") > 0, "branches without a match are hidden");

    // 3. A screenshot for people.
    Path shot = Path.of("target", "inspector-screenshot.png").toAbsolutePath();
    Files.createDirectories(shot.getParent());
    Files.deleteIfExists(shot);
    chromium(chromium, dir, "--screenshot=" + shot, "--window-size=1280,900", page.toUri().toString());
    assertTrue(Files.size(shot) > 1000, "screenshot written");
    byte[] sig = Files.readAllBytes(shot);
    assertEquals((byte) 0x89, sig[0]);
    assertEquals('P', sig[1]);
    System.out.println("inspector screenshot: " + shot);
  }

  private static String head(String s) {
    return s.length() > 400 ? s.substring(0, 400) : s;
  }

  private static int count(String s, String needle) {
    int n = 0;
    for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + needle.length())) {
      n++;
    }
    return n;
  }

  /** The Chromium executable: {@code $SETREE_CHROMIUM}, else the first of the usual names on the PATH. */
  static String findChromium() {
    return dev.setree.cli.host.HeadlessChromium.find();
  }

  /** Runs headless Chromium with a fresh profile, bounded in time; returns its standard output. */
  private static String chromium(String exe, Path work, String... args) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory(work, "chromium-profile-");
    List<String> cmd = new ArrayList<>(List.of(exe, "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile));
    cmd.addAll(List.of(args));
    Path out = work.resolve("chromium-" + System.nanoTime() + ".out");
    Path err = work.resolve("chromium-" + System.nanoTime() + ".err");
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try {
      if (!p.waitFor(90, TimeUnit.SECONDS)) {
        fail("chromium did not finish within 90 s: " + cmd + "\n" + tail(err));
      }
      assertEquals(0, p.exitValue(), "chromium failed: " + cmd + "\n" + tail(err));
      return Files.readString(out, StandardCharsets.UTF_8);
    } finally {
      if (p.isAlive()) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
      deleteTree(profile);
    }
  }

  private static String tail(Path f) throws IOException {
    if (!Files.exists(f)) {
      return "";
    }
    String s = Files.readString(f, StandardCharsets.UTF_8);
    return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: @TempDir removes the rest
    }
  }
}

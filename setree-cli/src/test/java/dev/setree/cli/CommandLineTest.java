package dev.setree.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.setree.testing.Corpora;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line end to end on the real model and real files. */
class CommandLineTest {
  static final ObjectMapper JSON = new ObjectMapper();

  record Run(int code, String out, String err) {}

  static synchronized Run run(String... args) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int code = Main.run(args);
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  static Path writeFacts(Path dir) throws Exception {
    List<String> lines = new ArrayList<>();
    for (Corpora.TopicFact tf : Corpora.personalFacts().subList(0, 80)) {
      lines.add(JSON.writeValueAsString(java.util.Map.of("id", tf.fact().id(), "text", tf.fact().text())));
    }
    Path f = dir.resolve("facts.jsonl");
    Files.write(f, lines);
    return f;
  }

  /** build, stats --json, retrieve --json on a real database file. */
  @Test
  void buildStatsRetrieve(@TempDir Path dir) throws Exception {
    Path facts = writeFacts(dir);
    Path db = dir.resolve("kb.db");
    Run b = run("build", "--db", db.toString(), "--facts", facts.toString());
    assertEquals(0, b.code(), b.err());
    assertTrue(b.out().contains("80 leaves"), b.out());
    assertTrue(b.err().contains("embed"), "progress bar on stderr");
    // standard error is not a terminal here: a line per 10%, no redrawn bar
    assertFalse(b.err().contains("\r"), "no carriage returns in a log: " + b.err());
    assertTrue(b.err().contains("embed 100% (80/80)"), b.err());
    Run s = run("stats", "--db", db.toString(), "--json");
    assertEquals(0, s.code(), s.err());
    JsonNode stats = JSON.readTree(s.out());
    assertEquals(80, stats.get("leaves").asInt());
    assertTrue(stats.get("nodes").asInt() > 80);
    assertTrue(stats.get("depth").asInt() >= 2);
    Run r = run("retrieve", "--db", db.toString(), "--budget", "128", "--json", "how", "does", "the", "user", "cook?");
    assertEquals(0, r.code(), r.err());
    JsonNode ctx = JSON.readTree(r.out());
    assertTrue(ctx.get("tokens_used").asInt() <= 128);
    assertTrue(ctx.get("items").size() > 0);
    assertTrue(ctx.get("complete").asBoolean());
  }

  /** eval prints a table and writes the documented JSON shape. */
  @Test
  void evalWritesJson(@TempDir Path dir) throws Exception {
    Path facts = writeFacts(dir);
    Path queries = dir.resolve("queries.jsonl");
    Files.write(queries, List.of(
        "{\"id\": \"q1\", \"prompt\": \"Who taught the user to make gnocchi?\", \"gold\": [\"cooking-02\"], \"category\": 4, \"answer\": \"grandmother Rosa\"}",
        "{\"id\": \"q2\", \"prompt\": \"What does the user bake?\", \"gold\": [\"cooking-01\"], \"category\": 1, \"answer\": 2022}"));
    Path out = dir.resolve("eval.json");
    Run e = run("eval", "--facts", facts.toString(), "--queries", queries.toString(), "--budgets", "128,256",
        "--systems", "setree,flat", "--json", out.toString());
    assertEquals(0, e.code(), e.err());
    JsonNode rows = JSON.readTree(out.toFile()).get("results");
    assertTrue(rows.size() >= 4);
    JsonNode row = rows.get(0);
    for (String key : List.of("system", "budget", "categories", "queries", "recall", "all_hit", "any_hit",
        "answer_hit", "tokens_used", "p50_ms", "p99_ms")) {
      assertTrue(row.has(key), "missing " + key);
    }
    assertEquals("1-4", row.get("categories").asText());
    assertEquals(2, row.get("queries").asInt());
    assertTrue(row.has("event_rouge1") && row.get("event_rouge1").isNull(), "fact rows carry a null overview metric");
  }

  /**
   * eval --insert-share builds from the first facts and inserts the rest one maintenance run at a time: the inserted
   * facts are found, the JSON counts them, and a share outside [0, 1) is refused naming the option.
   */
  @Test
  void evalOnAMaintainedTree(@TempDir Path dir) throws Exception {
    Path facts = writeFacts(dir);
    List<String> lines = Files.readAllLines(facts);
    List<String> queries = new ArrayList<>();
    for (String line : lines.subList(lines.size() - 6, lines.size())) { // inserted, not built
      JsonNode f = JSON.readTree(line);
      queries.add(JSON.writeValueAsString(java.util.Map.of("id", "q-" + f.get("id").asText(), "prompt",
          f.get("text").asText(), "gold", List.of(f.get("id").asText()), "category", 1, "answer", "")));
    }
    Path q = dir.resolve("queries.jsonl");
    Files.write(q, queries);
    Path out = dir.resolve("eval.json");
    Run e = run("eval", "--facts", facts.toString(), "--queries", q.toString(), "--budgets", "256",
        "--systems", "setree", "--insert-share", "0.5", "--json", out.toString());
    assertEquals(0, e.code(), e.err());
    assertTrue(e.out().contains("then 40 facts inserted one at a time"), e.out());
    JsonNode root = JSON.readTree(out.toFile());
    assertEquals(0.5, root.get("insert_share").asDouble());
    assertEquals(40, root.get("inserted").asInt());
    assertEquals(0, root.get("insert_duplicates").asInt());
    JsonNode row = root.get("results").get(0);
    assertEquals(6, row.get("queries").asInt());
    assertTrue(row.get("recall").asDouble() >= 5 / 6.0, "inserted facts asked for by their own text: " + row);
    for (String bad : List.of("1", "-0.1")) {
      Run r = run("eval", "--facts", facts.toString(), "--queries", q.toString(), "--insert-share", bad);
      assertEquals(1, r.code(), bad);
      assertTrue(r.err().contains("--insert-share must be at least 0 and below 1"), r.err());
    }
  }

  /** eval reads overview (broad) queries with events and reports event_rouge1 / event_coverage for them. */
  @Test
  void evalScoresOverviewPrompts(@TempDir Path dir) throws Exception {
    Path facts = writeFacts(dir);
    Path queries = dir.resolve("queries.jsonl");
    Files.write(queries, List.of(
        "{\"id\": \"q1\", \"prompt\": \"Who taught the user to make gnocchi?\", \"gold\": [\"cooking-02\"], \"category\": 4, \"answer\": \"Rosa\"}"));
    Path broad = dir.resolve("broad.jsonl");
    Files.write(broad, List.of(
        "{\"id\": \"b1\", \"prompt\": \"Give me an overview of the user's cooking.\", \"gold\": [\"cooking-01\", \"cooking-02\"], \"category\": 6, \"answer\": \"\", \"events\": [\"The user bakes sourdough bread.\", \"The user learns gnocchi from grandmother Rosa.\"]}"));
    Path out = dir.resolve("eval.json");
    Path md = dir.resolve("eval.md");
    Run e = run("eval", "--facts", facts.toString(), "--queries", queries.toString(), "--broad", broad.toString(),
        "--budgets", "16,512", "--systems", "setree,hybrid", "--json", out.toString(), "--markdown", md.toString());
    assertEquals(0, e.code(), e.err());
    JsonNode root = JSON.readTree(out.toFile());
    double small = -1;
    double large = -1;
    for (JsonNode r : root.get("results")) {
      if (r.get("categories").asText().equals("6") && r.get("system").asText().equals("hybrid")) {
        double v = r.get("event_rouge1").asDouble();
        assertTrue(v >= 0 && v <= 1, r.toString());
        assertTrue(r.get("event_coverage").asDouble() >= 0 && r.get("event_coverage").asDouble() <= 1);
        if (r.get("budget").asInt() == 16) {
          small = v;
        } else {
          large = v;
        }
      }
    }
    assertTrue(large > 0.5 && large > small, "the whole knowledge base at 512 carries the events' words: " + large
        + " vs " + small + " at 16");
    boolean perVariantOverview = false;
    for (JsonNode r : root.get("per_variant")) {
      perVariantOverview |= r.get("categories").asText().equals("6") && r.has("event_rouge1");
    }
    assertTrue(perVariantOverview, "per_variant has the overview rows");
    assertTrue(Files.readString(md).contains("overview prompts (category 6)"));
  }

  /** Bad input fails with exit code 1 and a message naming the problem. */
  @Test
  void badInputIsReported(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("bad.txt");
    Files.write(bad, new byte[] {'o', 'k', '\n', (byte) 0xC3, (byte) 0x28, '\n'});
    Run r = run("build", "--db", dir.resolve("kb.db").toString(), "--facts", bad.toString());
    assertEquals(1, r.code());
    assertTrue(r.err().contains("not valid UTF-8"), r.err());
    Run missing = run("stats", "--db", dir.resolve("nope.db").toString());
    assertEquals(1, missing.code());
    assertTrue(missing.err().contains("does not exist"), missing.err());
    Path foreign = dir.resolve("foreign.db");
    Files.writeString(foreign, "this is not a database at all, just text");
    Run f = run("stats", "--db", foreign.toString());
    assertEquals(1, f.code());
    assertTrue(f.err().contains("not a SQLite database"), f.err());
    Run unknown = run("eval", "--facts", bad.toString(), "--queries", bad.toString(), "--systems", "magic");
    assertEquals(1, unknown.code());
    assertTrue(unknown.err().contains("unknown system 'magic'"), unknown.err());
  }

  /**
   * Build input: a byte-order mark is skipped, a JSON array and a bad line are refused naming file and
   * line, file errors name the path; a failed build at a new path leaves no file; read paths never write.
   */
  @Test
  void buildInputIsCheckedAndReadPathsNeverWrite(@TempDir Path dir) throws Exception {
    Path db = dir.resolve("kb.db");
    Path array = dir.resolve("facts.json");
    Files.writeString(array, "[{\"id\": \"a\", \"text\": \"the user rows\"}]\n");
    Run a = run("build", "--db", db.toString(), "--facts", array.toString());
    assertEquals(1, a.code());
    assertTrue(a.err().contains("facts.json:1") && a.err().contains("JSON array"), a.err());
    assertFalse(Files.exists(db), "nothing is created for refused input");

    Path badLine = dir.resolve("bad.jsonl");
    Files.writeString(badLine, "{\"id\": \"a\", \"text\": \"one\"}\n\n{\"id\": \"b\"}\n");
    Run b = run("build", "--db", db.toString(), "--facts", badLine.toString());
    assertEquals(1, b.code());
    assertTrue(b.err().contains("bad.jsonl:3"), b.err());

    Run missing = run("build", "--db", db.toString(), "--facts", dir.resolve("nope.jsonl").toString());
    assertEquals(1, missing.code());
    assertTrue(missing.err().contains(dir.resolve("nope.jsonl").toString()) && missing.err().contains("does not exist"),
        missing.err());
    Run folder = run("build", "--db", db.toString(), "--facts", dir.toString());
    assertEquals(1, folder.code());
    assertTrue(folder.err().contains("is a directory"), folder.err());

    Path corpus = dir.resolve("corpus.txt");
    Files.writeString(corpus, "one\ntwo\nthree\nfour\n");
    Path gone = dir.resolve("gone.db");
    Run benchMissing = run("bench", "insert", "--leaves", "2", "--inserts", "1", "--corpus", corpus.toString(),
        "--db", gone.toString());
    assertEquals(1, benchMissing.code());
    assertTrue(benchMissing.err().contains(gone + " does not exist"), "a file error says what is wrong: "
        + benchMissing.err());

    Path one = dir.resolve("one.txt");
    Files.writeString(one, "only one fact here\n");
    Run tooFew = run("build", "--db", db.toString(), "--facts", one.toString());
    assertEquals(1, tooFew.code(), tooFew.err());
    try (var files = Files.list(dir)) {
      assertTrue(files.noneMatch(f -> f.getFileName().toString().startsWith("kb.db")),
          "a failed build at a new path leaves no file behind");
    }

    Path bom = dir.resolve("bom.jsonl");
    Files.write(bom, ("\uFEFF{\"id\": \"row-1\", \"text\": \"the user rows a scull on Sundays\"}\n"
        + "{\"id\": \"tea-1\", \"text\": \"the user drinks green tea\"}\n"
        + "{\"id\": \"cat-1\", \"text\": \"the user has a cat named Miso\"}\n").getBytes(StandardCharsets.UTF_8));
    Run built = run("build", "--db", db.toString(), "--facts", bom.toString());
    assertEquals(0, built.code(), built.err());
    assertTrue(built.out().contains("3 leaves"), built.out());

    byte[] before = Files.readAllBytes(db);
    var mtime = Files.getLastModifiedTime(db);
    Run r = run("retrieve", "--db", db.toString(), "--json", "--budget", "64", "what", "does", "the", "user", "row?");
    assertEquals(0, r.code(), r.err());
    JsonNode ctx = JSON.readTree(r.out());
    assertTrue(ctx.get("text").asText().contains("scull"), r.out());
    assertFalse(ctx.get("text").asText().contains("{"), "leaves are the facts' texts, not raw JSON");
    Run st = run("stats", "--db", db.toString(), "--json");
    assertEquals(0, st.code(), st.err());
    assertEquals(0, JSON.readTree(st.out()).get("pending_mutations").asInt());
    assertArrayEquals(before, Files.readAllBytes(db), "retrieve and stats do not write the file");
    assertEquals(mtime, Files.getLastModifiedTime(db));
    for (String side : List.of("-wal", "-shm", "-journal")) {
      assertFalse(Files.exists(dir.resolve("kb.db" + side)), "no " + side + " file after read paths");
    }
  }

  /** The README's main job: demo builds, answers both prompts, exits 0 and leaves no file behind. */
  @Test
  void demoRunsAndCleansUp() {
    Run d = run("demo", "--budget", "120");
    assertEquals(0, d.code(), d.err());
    assertTrue(d.out().contains("Prompt: What do you know about me?"), d.out());
    assertTrue(d.out().contains("lisinopril"), "the niche prompt finds its fact:\n" + d.out());
    java.util.regex.Matcher m = java.util.regex.Pattern.compile(": (\\S+demo\\.db)").matcher(d.out());
    assertTrue(m.find(), d.out());
    Path db = Path.of(m.group(1));
    assertFalse(Files.exists(db.getParent()), "the demo's temporary folder is removed: " + db.getParent());
  }
}

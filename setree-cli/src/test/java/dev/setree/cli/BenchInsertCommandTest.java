package dev.setree.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code setree bench insert} end to end on the real model, store and Leiden, small: the JSON fields issue #12
 * names, and the JVM it ran on.
 */
class BenchInsertCommandTest {

  @Test
  void writesTheRunFieldsAndTheJvm(@TempDir Path dir) throws Exception {
    Path corpus = corpus(dir, personalSentences(14));
    Path json = dir.resolve("out.json");
    CommandLineTest.Run r = CommandLineTest.run("bench", "insert", "--leaves", "12", "--inserts", "2",
        "--quiet-ms", "50", "--skip-full-rebuild", "--corpus", corpus.toString(), "--json", json.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("JVM: Java " + Runtime.version()), r.out());

    JsonNode o = CommandLineTest.JSON.readTree(json.toFile());
    assertEquals(12, o.get("leaves").asInt());
    assertEquals(2, o.get("run_ms").size(), "one maintenance run per insert");
    assertEquals(2, o.get("steps_ms").size());
    assertTrue(o.get("run_p50_ms").asDouble() > 0 && o.get("run_p99_ms").asDouble() >= o.get("run_p50_ms").asDouble(),
        o.toString());
    assertTrue(o.get("visible_p99_ms").asDouble() >= o.get("visible_p50_ms").asDouble(), o.toString());
    assertTrue(o.get("bytes_written_per_run").asLong() > 0, "a run that inserts a fact writes it");
    assertTrue(o.get("open_ms").asDouble() > 0);
    assertTrue(o.get("step_p50_ms").has("embed"), "the new fact is embedded in the run: " + o.get("step_p50_ms"));
    assertEquals(0, o.get("warm_up_runs").asInt(), "the config's default: none");
    assertFalse(o.get("row_dot_lanes").asBoolean(), "no lanes for a tree of 12 leaves, nor without the module");
    assertTrue(o.get("final_tree_sha256").asText().matches("[0-9a-f]{64}"), o.get("final_tree_sha256").toString());
    assertTrue(r.out().contains("final tree: SHA-256 " + o.get("final_tree_sha256").asText()), r.out());

    JsonNode jvm = o.get("jvm");
    assertEquals(Runtime.version().toString(), jvm.get("version").asText());
    assertEquals(Runtime.getRuntime().maxMemory() >> 20, jvm.get("max_heap_mb").asLong());
    List<String> flags = new ArrayList<>();
    jvm.get("flags").forEach(f -> flags.add(f.asText()));
    assertEquals(ManagementFactory.getRuntimeMXBean().getInputArguments(), flags);
  }

  @Test
  void anInsertThatIsAlreadyALeafIsAnErrorNotAMissingRun(@TempDir Path dir) throws Exception {
    List<String> sentences = personalSentences(12);
    sentences.add(sentences.get(3)); // the first insert repeats a leaf
    Path corpus = corpus(dir, sentences);
    CommandLineTest.Run r = CommandLineTest.run("bench", "insert", "--leaves", "12", "--inserts", "1",
        "--quiet-ms", "50", "--skip-full-rebuild", "--corpus", corpus.toString());
    assertTrue(r.code() != 0, r.out());
    assertTrue(r.err().contains("insert 1 (corpus line 13) is already a leaf"), r.err());
  }

  @Test
  void aRungBeyondTheCorpusHasTheLaddersSyntheticLeavesAndInsertsTheNextOnes() {
    List<String> sentences = new ArrayList<>();
    for (int i = 0; i < 70; i++) {
      sentences.add("sentence " + i + " says " + (i % 7) + " things about the state of item " + (i * 13 % 29));
    }
    List<Fact> facts = BenchInsert.facts(sentences, 100, 3);
    List<Fact> ladder = BenchLadder.split(sentences, sentences.size(), 100, 50, 0).facts();
    assertEquals(ladder, facts.subList(0, 100), "the leaves of `bench ladder --prompts 50`'s rung of 100");
    java.util.Set<String> texts = new java.util.HashSet<>();
    facts.forEach(f -> texts.add(f.text()));
    assertEquals(103, texts.size(), "every insert is a new text");
    assertEquals(List.of("ins0", "ins1", "ins2"), facts.subList(100, 103).stream().map(Fact::id).toList());
    List<Fact> inCorpus = BenchInsert.facts(sentences, 60, 10);
    assertEquals(Fact.of("s59", sentences.get(59)), inCorpus.get(59));
    assertEquals(Fact.of("ins9", sentences.get(69)), inCorpus.get(69));
  }

  @Test
  void theHashEmbedderRunsARungBeyondTheCorpus(@TempDir Path dir) throws Exception {
    Path corpus = corpus(dir, personalSentences(60));
    Path json = dir.resolve("out.json");
    CommandLineTest.Run r = CommandLineTest.run("bench", "insert", "--leaves", "90", "--inserts", "2",
        "--embedder", "hash", "--quiet-ms", "50", "--skip-full-rebuild", "--corpus", corpus.toString(), "--json",
        json.toString());
    assertEquals(0, r.code(), r.err());
    JsonNode o = CommandLineTest.JSON.readTree(json.toFile());
    assertEquals(90, o.get("leaves").asInt());
    assertEquals(2, o.get("run_ms").size(), "one maintenance run per insert");
    assertTrue(o.get("bytes_written_per_run").asLong() > 0, "a run that inserts a fact writes it");
  }

  @Test
  void aNegativeWarmUpIsRefusedByName(@TempDir Path dir) throws Exception {
    Path corpus = corpus(dir, personalSentences(14));
    CommandLineTest.Run r = CommandLineTest.run("bench", "insert", "--leaves", "12", "--inserts", "1",
        "--warm-up-runs", "-1", "--skip-full-rebuild", "--corpus", corpus.toString());
    assertTrue(r.code() != 0, r.out());
    assertTrue(r.err().contains("maintenance.warm_up_runs"), r.err());
  }

  /** The final tree's digest is the knowledge base's: the same for the same runs, another for other runs. */
  @Test
  void theFinalTreesDigestTellsTheSameKnowledgeBaseFromAnother(@TempDir Path dir) throws Exception {
    Path corpus = corpus(dir, personalSentences(60));
    String first = digest(dir, corpus, 2, "a.json");
    assertEquals(first, digest(dir, corpus, 2, "b.json"), "the same inserts, the same tree");
    assertNotEquals(first, digest(dir, corpus, 1, "c.json"), "one insert fewer, another tree");
  }

  private static String digest(Path dir, Path corpus, int inserts, String name) throws Exception {
    Path json = dir.resolve(name);
    CommandLineTest.Run r = CommandLineTest.run("bench", "insert", "--leaves", "50", "--inserts",
        String.valueOf(inserts), "--embedder", "hash", "--quiet-ms", "20", "--skip-full-rebuild", "--corpus",
        corpus.toString(), "--json", json.toString());
    assertEquals(0, r.code(), r.err());
    return CommandLineTest.JSON.readTree(json.toFile()).get("final_tree_sha256").asText();
  }

  @Test
  void aJvmWithoutFlagsSaysSo() {
    BenchJvm bare = new BenchJvm("17.0.15+6", "Eclipse Adoptium", List.of(), 512, false);
    assertEquals("JVM: Java 17.0.15+6 (Eclipse Adoptium), max heap 512 MB, flags: none", bare.line());
    BenchJvm tuned = new BenchJvm("25+36", "Eclipse Adoptium", List.of("-Xms2g", "-XX:+AlwaysPreTouch"), 2048, true);
    assertTrue(tuned.line().endsWith("flags: -Xms2g -XX:+AlwaysPreTouch"), tuned.line());
    ObjectNode o = CommandLineTest.JSON.createObjectNode();
    tuned.putInto(o);
    assertEquals("[\"-Xms2g\",\"-XX:+AlwaysPreTouch\"]", o.get("jvm").get("flags").toString());
    assertTrue(o.get("jvm").get("vector_lanes").asBoolean());
  }

  private static List<String> personalSentences(int n) {
    List<String> sentences = new ArrayList<>();
    for (Fact f : Corpora.personal().subList(0, n)) {
      sentences.add(f.text());
    }
    return sentences;
  }

  private static Path corpus(Path dir, List<String> sentences) throws IOException {
    return Files.write(dir.resolve("corpus.txt"), sentences);
  }
}

package dev.setree.internal.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.setree.internal.core.Vectors;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Tests the real MiniLM model on ONNX Runtime. */
class MiniLmEmbedderTest {
  static MiniLmEmbedder embedder;

  static final List<String> TEXTS = List.of(
      "The user bakes sourdough bread every Sunday morning.",
      "Caroline went to an LGBTQ support group yesterday.",
      "Melanie is planning a camping trip with her kids in July.",
      "The quarterly report shows revenue grew by twelve percent.",
      "I love hiking in the Dolomites when the weather is clear.",
      "What does the user work on?",
      "Rust's borrow checker prevents data races at compile time.",
      "My grandmother taught me to make gnocchi in 1998.",
      "The concert was loud, but the violinist was brilliant!",
      "Paris is the capital of France.",
      "He takes 20 mg of atorvastatin every evening for cholesterol.",
      "SETree selects a tree cover that fits a token budget.");

  @BeforeAll
  static void load() {
    embedder = MiniLmEmbedder.load();
  }

  @AfterAll
  static void close() {
    embedder.close();
  }

  @Test
  void agreesWithLangchain4jsOwnModel() {
    AllMiniLmL6V2EmbeddingModel reference = new AllMiniLmL6V2EmbeddingModel();
    float[][] ours = embedder.embed(TEXTS);
    for (int i = 0; i < TEXTS.size(); i++) {
      float[] theirs = reference.embed(TEXTS.get(i)).content().vector();
      Vectors.normalize(theirs);
      float cos = Vectors.dot(ours[i], theirs);
      assertTrue(cos >= 0.99999f, "cosine " + cos + " for: " + TEXTS.get(i));
    }
  }

  @Test
  void loadRunsTheModelOnceSoThatItsFirstCallerDoesNotPayTheSessionsFirstInference() {
    try (MiniLmEmbedder fresh = MiniLmEmbedder.load()) {
      assertEquals(1, fresh.inferenceRuns(), "the warm-up inference of load()");
      float[] v = fresh.embed(TEXTS.get(0));
      assertEquals(2, fresh.inferenceRuns());
      assertArrayEquals(embedder.embed(TEXTS.get(0)), v, "the warm-up leaves nothing behind in later vectors");
    }
  }

  /**
   * The single-threaded view for maintenance runs (ADR 0039) gives this embedder's vectors bit for bit, before its
   * session is made (on the prompt session) and after (on its own); small calls then run there, a large call still
   * as a large call. Closing the view leaves the embedder open; closing the embedder closes the view.
   */
  @Test
  void singleThreadedViewGivesTheSameVectorsBitForBitOnASessionOfItsOwn() throws Exception {
    String longText = "The committee reviewed the annual budget in great detail. ".repeat(60);
    List<String> sixteen = new ArrayList<>();
    for (int i = 0; i < MiniLmEmbedder.BATCH; i++) {
      sixteen.add(TEXTS.get(i % TEXTS.size()) + " And one more clause.".repeat(i % 4));
    }
    List<List<String>> calls = List.of(List.of(TEXTS.get(0)), List.of(longText), TEXTS, sixteen);
    try (MiniLmEmbedder fresh = MiniLmEmbedder.load()) {
      float[][][] expected = new float[calls.size()][][];
      for (int c = 0; c < calls.size(); c++) {
        expected[c] = embedder.embed(calls.get(c));
      }
      dev.setree.spi.Embedder view = fresh.singleThreaded();
      assertEquals(fresh.modelId(), view.modelId());
      assertEquals(MiniLmEmbedder.DIMENSION, view.dimension());
      assertArrayEquals(expected[0][0], view.embed(TEXTS.get(0)), "whichever session runs it");
      assertEquals(0, fresh.singleThreadedRuns(), "not made until asked for");
      fresh.prepareSingleThreaded().get(60, java.util.concurrent.TimeUnit.SECONDS);
      long before = fresh.singleThreadedRuns();
      for (int c = 0; c < calls.size(); c++) {
        float[][] got = view.embed(calls.get(c));
        for (int i = 0; i < got.length; i++) {
          assertArrayEquals(expected[c][i], got[i], "call " + c + ", text " + i);
        }
      }
      assertEquals(before + calls.size(), fresh.singleThreadedRuns(), "every small call ran on the view's session");
      List<String> large = new ArrayList<>(sixteen);
      large.add(TEXTS.get(1));
      float[][] got = view.embed(large);
      assertEquals(before + calls.size(), fresh.singleThreadedRuns(), "a large call is shared out as before");
      assertTrue(Vectors.dot(embedder.embed(TEXTS.get(1)), got[MiniLmEmbedder.BATCH]) > 0.99999f);
      assertArrayEquals(expected[0][0], fresh.embed(TEXTS.get(0)), "the embedder itself is unchanged");
      view.close();
      assertArrayEquals(expected[0][0], fresh.embed(TEXTS.get(0)), "closing the view leaves the embedder open");
      fresh.close();
      assertThrows(IllegalStateException.class, () -> view.embed(TEXTS.get(0)));
    }
  }

  /**
   * A text's vector does not depend on the call it is in, bit for bit: alone, among a few, or in a large call
   * shared out in padded batches, on either session. A maintenance pass relies on it when it asks for its summaries'
   * embeddings whenever it would otherwise wait (the summary pass's deferred embeddings).
   */
  @Test
  void aTextsVectorDoesNotDependOnTheCallItIsIn() throws Exception {
    List<String> texts = new ArrayList<>();
    java.util.Random random = new java.util.Random(7);
    String[] words = "the budget nation congress war peace economy tax people freedom health school jobs energy"
        .split(" ");
    for (int i = 0; i < 40; i++) {
      StringBuilder t = new StringBuilder(TEXTS.get(i % TEXTS.size()));
      int extra = random.nextInt(i % 5 == 0 ? 120 : 25);
      for (int w = 0; w < extra; w++) {
        t.append(' ').append(words[random.nextInt(words.length)]);
      }
      texts.add(t.toString());
    }
    float[][] all = embedder.embed(texts); // sorted by length, shared out in batches of 16
    for (int i = 0; i < texts.size(); i++) {
      assertArrayEquals(all[i], embedder.embed(texts.get(i)), "text " + i + " alone");
    }
    embedder.prepareSingleThreaded().get(60, java.util.concurrent.TimeUnit.SECONDS);
    dev.setree.spi.Embedder view = embedder.singleThreaded();
    for (int from = 0; from < texts.size(); from += 7) {
      int to = Math.min(texts.size(), from + 7);
      float[][] some = view.embed(texts.subList(from, to));
      for (int i = from; i < to; i++) {
        assertArrayEquals(all[i], some[i - from], "text " + i + " among " + (to - from) + ", on one thread");
      }
    }
  }

  @Test
  void vectorsAreUnitLengthOfDimension384() {
    for (float[] v : embedder.embed(TEXTS)) {
      assertEquals(384, v.length);
      assertEquals(1.0, Vectors.dot(v, v), 1e-5);
    }
  }

  @Test
  void paraphraseIsCloserThanUnrelatedSentence() {
    float[][] v = embedder.embed(List.of(
        "The user bakes bread on Sundays.",
        "Every Sunday the user makes sourdough loaves.",
        "The stock market fell sharply on Tuesday."));
    assertTrue(Vectors.dot(v[0], v[1]) > Vectors.dot(v[0], v[2]) + 0.2f);
  }

  @Test
  void batchAndSingleAgree() {
    float[][] batch = embedder.embed(TEXTS);
    for (int i = 0; i < TEXTS.size(); i++) {
      float[] single = embedder.embed(TEXTS.get(i));
      assertTrue(Vectors.dot(single, batch[i]) > 0.99999f, TEXTS.get(i));
    }
  }

  /**
   * A call larger than one batch is length-sorted, cut into batches and run on several workers at once:
   * every text, a multi-window one among them, still gets its own vector, in input order.
   */
  @Test
  void largeCallRunsSortedBatchesInParallelAndKeepsOrder() throws Exception {
    List<String> many = new ArrayList<>();
    for (int round = 0; round < 6; round++) {
      for (int i = 0; i < TEXTS.size(); i++) {
        many.add(TEXTS.get((i + round) % TEXTS.size()) + " ".repeat(round) + (round > 1 ? " Indeed." : ""));
      }
    }
    String longText = "The committee reviewed the annual budget in great detail. ".repeat(60);
    many.add(7, longText);
    assertTrue(many.size() > 4 * MiniLmEmbedder.BATCH, "large enough to tokenise in slices");
    float[][] together = embedder.embed(many);
    assertEquals(many.size(), together.length);
    for (int i = 0; i < many.size(); i += i < 10 ? 1 : 3) {
      float[] alone = embedder.embed(List.of(many.get(i)))[0];
      assertTrue(Vectors.dot(alone, together[i]) > 0.99999f, "item " + i + ": " + many.get(i));
    }
    // Calls from several threads at once share the batch workers without mixing their results.
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<float[][]>> futures = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        futures.add(pool.submit(() -> embedder.embed(many)));
      }
      for (Future<float[][]> f : futures) {
        float[][] got = f.get();
        for (int i = 0; i < many.size(); i++) {
          assertTrue(Vectors.dot(together[i], got[i]) > 0.99999f, "item " + i);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void eightThreadsAgreeWithOne() throws Exception {
    float[][] expected = embedder.embed(TEXTS);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<float[][]>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        futures.add(pool.submit(() -> embedder.embed(TEXTS)));
      }
      for (Future<float[][]> f : futures) {
        float[][] got = f.get();
        for (int i = 0; i < TEXTS.size(); i++) {
          assertTrue(Vectors.dot(expected[i], got[i]) > 0.99999f);
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void refusesEmptyAndBlankText() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> embedder.embed(""));
    assertTrue(e.getMessage().contains("empty"));
    assertThrows(IllegalArgumentException.class, () -> embedder.embed(List.of("ok", " \n\t")));
  }

  @Test
  void sanitisesUnpairedSurrogates() {
    float[] v = embedder.embed("broken \uD800 text and \uDC00 more");
    assertEquals(1.0, Vectors.dot(v, v), 1e-5);
    assertEquals("a\uFFFDb", WordPieceTokenizer.sanitize("a\uD800b"));
    assertEquals("ok \uD83D\uDE00", WordPieceTokenizer.sanitize("ok \uD83D\uDE00"));
  }

  @Test
  void longTextIsEmbeddedInWindows() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 120; i++) {
      sb.append("The user walks the dog in the park near the river. ");
    }
    String longText = sb.toString();
    assertTrue(embedder.tokenizer().count(longText) > 2 * MiniLmEmbedder.WINDOW);
    assertTrue(embedder.tokenizer().windows(longText, MiniLmEmbedder.WINDOW).size() >= 3);
    float[] v = embedder.embed(longText);
    float[] shortV = embedder.embed("The user walks the dog in the park near the river.");
    float[] unrelated = embedder.embed("Quarterly revenue grew by twelve percent.");
    assertTrue(Vectors.dot(v, shortV) > 0.5f, "cos " + Vectors.dot(v, shortV));
    assertTrue(Vectors.dot(v, shortV) > Vectors.dot(v, unrelated) + 0.3f);
  }

  @Test
  void tokenCounterCountsPiecesWithoutSpecialTokensAndIsAdditive() {
    WordPieceTokenizer t = embedder.tokenizer();
    assertEquals(List.of("hello", "world"), t.tokens("hello world"));
    assertEquals(0, t.count(""));
    String a = "Caroline went to an LGBTQ support group yesterday.";
    String b = "- Summary: the user's sourdough";
    assertEquals(t.count(a) + t.count(b), t.count(a + "\n  " + b));
    assertTrue(t.count(longWord()) > 128, "no truncation at 128 pieces");
  }

  /**
   * The ids and the count of a text are those of DJL's full encoding, for plain, accented, CJK, emoji, control, combining
   * and broken (unpaired surrogate) text, also when it is remembered from an earlier count, and longer texts than
   * the memory keeps.
   */
  @Test
  void aCountIsTheFullEncodingsPieceCountAlsoFromMemory() {
    WordPieceTokenizer t = embedder.tokenizer();
    int[][] ranges = {{0x20, 0x7e}, {0xc0, 0x17f}, {0x300, 0x36f}, {0x4e00, 0x4e80}, {0x1f600, 0x1f64f}, {0x0, 0x1f},
        {0x600, 0x6ff}, {0x900, 0x97f}, {0x2000, 0x206f}, {0xd800, 0xdfff}};
    java.util.Random random = new java.util.Random(17);
    List<String> texts = new java.util.ArrayList<>(TEXTS);
    for (int i = 0; i < 1500; i++) {
      StringBuilder b = new StringBuilder();
      int n = 1 + random.nextInt(60);
      for (int k = 0; k < n; k++) {
        int[] r = ranges[random.nextInt(ranges.length)];
        int cp = r[0] + random.nextInt(r[1] - r[0] + 1);
        if (cp >= 0xd800 && cp <= 0xdfff) {
          b.append((char) cp); // a lone surrogate
        } else {
          b.appendCodePoint(random.nextInt(4) == 0 ? ' ' : cp);
        }
      }
      texts.add(b.toString());
    }
    texts.add(longWord() + " " + "x".repeat(WordPieceTokenizer.RECENT_MAX_CHARS));
    for (int round = 0; round < 2; round++) { // the second round is answered from memory
      for (String text : texts) {
        long[] ids = t.encodingIds(text);
        String shown = text.codePoints().limit(40).mapToObj(Integer::toHexString).toList().toString();
        assertArrayEquals(ids, t.pieces(text), "ids of " + shown);
        assertEquals(ids.length, t.count(text), "pieces of " + shown);
      }
    }
  }

  @Test
  void closedEmbedderRefusesWork() {
    MiniLmEmbedder e = MiniLmEmbedder.load(1);
    e.close();
    e.close();
    assertThrows(IllegalStateException.class, () -> e.embed("text"));
  }

  @Test
  void differentTextsGiveDifferentVectors() {
    float[][] v = embedder.embed(List.of("cats", "dogs"));
    assertTrue(Vectors.dot(v[0], v[1]) < 0.99f);
    assertArrayEquals(embedder.embed("cats"), embedder.embed("cats"));
  }

  private static String longWord() {
    return "antidisestablishmentarianism ".repeat(40);
  }
}

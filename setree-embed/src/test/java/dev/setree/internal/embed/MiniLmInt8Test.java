package dev.setree.internal.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.model.embedding.onnx.allminilml6v2q.AllMiniLmL6V2QuantizedEmbeddingModel;
import dev.setree.internal.core.Vectors;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The int8-quantised MiniLM: its own model id, langchain4j's own quantised model's vectors, close to fp32. */
class MiniLmInt8Test {
  private static final List<String> TEXTS = List.of(
      "The user drives his kids to school every morning.",
      "My grandmother taught me to make gnocchi in 1998.",
      "Paris is the capital of France.",
      "SETree selects a tree cover that fits a token budget.");

  @Test
  void int8ModelHasItsOwnIdAndTracksTheReference() {
    try (MiniLmEmbedder int8 = MiniLmEmbedder.loadInt8(); MiniLmEmbedder fp32 = MiniLmEmbedder.load()) {
      assertEquals(MiniLmEmbedder.MODEL_ID_INT8, int8.modelId());
      assertNotEquals(fp32.modelId(), int8.modelId(), "a knowledge base built with one is refused by the other");
      assertEquals(MiniLmEmbedder.Variant.INT8, int8.variant());
      assertEquals(384, int8.dimension());
      // One text per call: dynamic quantisation scales activations by the whole batch tensor, so a text's
      // int8 vector depends on what it is batched with (langchain4j embeds one text per call).
      float[][] q = new float[TEXTS.size()][];
      for (int i = 0; i < TEXTS.size(); i++) {
        q[i] = int8.embed(TEXTS.get(i));
      }
      float[][] batched = int8.embed(TEXTS);
      float[][] f = fp32.embed(TEXTS);
      AllMiniLmL6V2QuantizedEmbeddingModel reference = new AllMiniLmL6V2QuantizedEmbeddingModel();
      for (int i = 0; i < TEXTS.size(); i++) {
        assertEquals(1.0, Math.sqrt(Vectors.dot(q[i], q[i])), 1e-5);
        float[] theirs = reference.embed(TEXTS.get(i)).content().vector();
        Vectors.normalize(theirs);
        float same = Vectors.dot(q[i], theirs);
        assertTrue(same >= 0.9999f, "int8 vs langchain4j's int8 model, cosine " + same + ": " + TEXTS.get(i));
        float inBatch = Vectors.dot(q[i], batched[i]);
        assertTrue(inBatch > 0.97f, "int8 alone vs in a batch, cosine " + inBatch + ": " + TEXTS.get(i));
        float close = Vectors.dot(q[i], f[i]);
        assertTrue(close > 0.95f && close < 0.99999f, "int8 vs fp32, cosine " + close + ": " + TEXTS.get(i));
      }
      assertTrue(Vectors.dot(q[0], q[1]) < Vectors.dot(q[0], q[0]));
    }
  }
}

package dev.setree.internal.eval;

import dev.setree.RetrieveOptions;
import dev.setree.internal.core.FeatureHashEmbedder;
import dev.setree.internal.maintain.ExtractiveSummarizer;
import dev.setree.spi.Embedder;
import dev.setree.spi.Summarizer;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The evaluation's door into SETree: the baselines and research knobs that are not part of the user API
 * (ADR 0021), for {@code setree eval} and {@code setree demo}'s hidden experiment flags. Not an exported
 * package: no compatibility promise.
 */
public final class Research {
  /** The extractive summary designs compared in ADR 0011 ({@code --summary-design}). */
  public enum SummaryDesign {
    /** Whole central leaves (MMR); the default. */
    SENTENCE,
    /** Class-based TF-IDF topic terms. */
    TERMS,
    /** Central leaves compressed to their key clauses. */
    CLAUSES,
    /** Topic terms for the overview's nodes (the root and its children), whole central leaves below. */
    TOPICS
  }

  /** The evaluation-only baselines {@link #baseline} sets, by their {@code setree eval --systems} names. */
  public static final List<String> BASELINES = List.of("collapsed", "recency");

  /** Sets a baseline on a retrieve options builder; installed by {@code dev.setree} (a shared secret). */
  private static volatile BiConsumer<RetrieveOptions.Builder, String> baselineSetter;

  private Research() {}

  /**
   * Makes {@code b} ask for an evaluation baseline instead of its strategy: {@code collapsed} (RAPTOR's
   * collapsed-tree retrieval over SETree's own tree: every node ranked by cosine, packed in score order) or
   * {@code recency} (the most recent leaves that fit).
   *
   * @throws IllegalArgumentException for another name
   */
  public static RetrieveOptions.Builder baseline(RetrieveOptions.Builder b, String name) {
    if (!BASELINES.contains(name)) {
      throw new IllegalArgumentException("unknown baseline '" + name + "' (known: " + BASELINES + ")");
    }
    RetrieveOptions.defaults(); // runs RetrieveOptions' initialiser, which installs the setter
    baselineSetter.accept(Objects.requireNonNull(b, "b"), name.toUpperCase(java.util.Locale.ROOT));
    return b;
  }

  /** Called once by {@code dev.setree.RetrieveOptions}; later calls are ignored. */
  public static void install(BiConsumer<RetrieveOptions.Builder, String> setter) {
    if (baselineSetter == null) {
      baselineSetter = setter;
    }
  }

  /**
   * The model-free deterministic embedder of scale benchmarks (feature hashing, model id
   * {@code hash-<dimension>}): it measures everything but embedding at sizes a neural model would take hours
   * to embed.
   */
  public static Embedder hashEmbedder(int dimension) {
    return new FeatureHashEmbedder(dimension);
  }

  /** The extractive summariser of one design. */
  public static Summarizer extractive(SummaryDesign design) {
    return new ExtractiveSummarizer(ExtractiveSummarizer.Design.valueOf(design.name()));
  }
}

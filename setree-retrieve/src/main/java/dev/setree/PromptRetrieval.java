package dev.setree;

import dev.setree.internal.core.CapabilityScore;
import dev.setree.internal.core.ContextFormat;
import dev.setree.internal.core.LeafNeighbours;
import dev.setree.internal.core.TreeCoverWalk;
import dev.setree.spi.Embedder;
import java.util.List;
import java.util.concurrent.Future;

/**
 * One knowledge base's retrieves, within the deadline: embeds the prompt (abandoned past
 * {@code retrieve_deadline_ms}, when the prompt's words alone choose the cover), looks up the prompt's words
 * meanwhile on the candidate path, sets up the walk and the optional clustering a call's options ask for, and
 * hands the rest to {@link Retriever}. Lock-free; never calls a summariser or an LLM.
 */
final class PromptRetrieval implements AutoCloseable {
  private final SETreeConfig config;
  private final Embedder embedder;
  /** Embeds prompts so that {@code retrieve} keeps its deadline. */
  private final DeadlineEmbedder promptEmbedder;
  private final ContextFormat format;
  private final TreeCoverWalk walk;

  PromptRetrieval(SETreeConfig config, Embedder embedder, ContextFormat format) {
    this.config = config;
    this.embedder = embedder;
    this.promptEmbedder = new DeadlineEmbedder(embedder);
    this.format = format;
    this.walk = new TreeCoverWalk(new CapabilityScore((float) config.beta(), (float) config.epsilon()),
        (float) config.overviewShare(), (float) config.overviewTemperature(), format);
  }

  /**
   * Refuses a retrieve's arguments: a blank prompt, one over {@link SETree#MAX_PROMPT_CHARS} characters, a
   * negative budget, no options.
   */
  static void check(String prompt, int budget, RetrieveOptions options) {
    int maxChars = SETree.MAX_PROMPT_CHARS;
    if (prompt == null || prompt.isBlank()) {
      throw new IllegalArgumentException("the prompt must not be empty");
    }
    if (prompt.length() > maxChars) {
      throw new IllegalArgumentException("the prompt has " + prompt.length() + " characters; at most "
          + maxChars + " are accepted (put long material in the knowledge base, not in the prompt)");
    }
    if (budget < 0) {
      throw new IllegalArgumentException("budget must be >= 0, got " + budget);
    }
    java.util.Objects.requireNonNull(options, "options");
  }

  /**
   * The context for a checked prompt and budget on snapshot {@code s}; {@code t0} is when the call began
   * (its deadline and elapsed time count from there).
   */
  Context retrieve(Snapshot s, String prompt, int budget, RetrieveOptions options, long t0) {
    if (s.tree().isEmpty()) {
      return new Context("", List.of(), 0, budget, true, new Context.Stats(0, 0, System.nanoTime() - t0));
    }
    long deadline = t0 + config.retrieveDeadlineMillis() * 1_000_000L;
    boolean approximate = options.approximate(config, s.tree().leafCount());
    boolean treeCover = options.strategy() == Strategy.TREE_COVER && options.baseline() == null;
    LeafPrior prior = treeCover
        ? LeafPrior.of(s, prompt, options.periodBoost(config), options.substance(config),
            options.periodSubstance(config)) : null;
    boolean candidates = approximate && treeCover;
    // On the candidate path the embedder's thread goes on to the prompt's nearest leaves, while the caller
    // looks up the prompt's words: the two cores overlap them.
    Future<Embedded> embedding = promptEmbedder.start(prompt,
        v -> new Embedded(v, candidates ? Retriever.nearest(s, v, prior) : null));
    Retriever.Words words = candidates && options.tau(config) > 0 ? Retriever.words(s, prompt) : null;
    Embedded e = promptEmbedder.finish(embedding, deadline);
    boolean cutShort = e == null;
    float[] q = cutShort ? null : e.q();
    if (cutShort) {
      // No embedding in time: relevance from the prompt's words alone; no second hop, no clustering.
      q = new float[embedder.dimension()];
      options = options.lexicalOnly();
    }
    TreeCoverWalk w = options.usesConfigCalibration() ? walk : new TreeCoverWalk(
        new CapabilityScore((float) options.beta(config), (float) options.epsilon(config)),
        (float) options.overviewShare(config), (float) options.overviewTemperature(config), format);
    ClusterSelection clustering = options.intentionalClustering(config)
        ? new ClusterSelection((float) config.clusterEdgeWeightFloor(), config.clusterDiversityTarget(),
            config.fallbackToScore())
        : null;
    Context ctx = Retriever.retrieve(s, prompt, q, budget, options.strategy(), options.baseline(),
        options.tau(config), options.secondHop(config), clustering, embedder, w, format, approximate, words,
        cutShort ? null : e.near(), prior, t0);
    return cutShort ? ctx.markCutShort() : ctx;
  }

  /** A prompt's embedding and, on the candidate path, its nearest leaves (else null). */
  private record Embedded(float[] q, LeafNeighbours.Hits near) {}

  /** Stops the prompt embedder's thread. */
  @Override
  public void close() {
    promptEmbedder.close();
  }
}

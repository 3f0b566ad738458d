package dev.setree;

import dev.setree.internal.maintain.llm.LlmSettings;
import dev.setree.spi.Embedder;
import dev.setree.spi.Summarizer;
import dev.setree.spi.TokenCounter;
import java.util.Objects;

/**
 * The immutable settings of a knowledge base: calibration of the walk, budgets, build shape, and the
 * components (embedder, token counter, summariser) when a host supplies its own. Every value is checked
 * when the config is built; a bad one fails naming the key and the value. See docs/config.md.
 *
 * <p>Create with {@link #builder()}; {@link #defaults()} is the embedded default (MiniLM, extractive
 * summaries, no network).
 */
public final class SETreeConfig {
  private final ConfigValues values;

  private SETreeConfig(Builder b) {
    this.values = b.values.checked();
  }

  /** The embedded default configuration. */
  public static SETreeConfig defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder(new ConfigValues());
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    return new Builder(values.copy());
  }

  /** Weight of the parent's directional fidelity loss in the capability score (default 0.2). */
  public double beta() {
    return values.beta;
  }

  /** Weight of the lexical (BM25) term in leaf relevance: {@code cos + tau * bm25 / max bm25} (default 0.3). */
  public double tau() {
    return values.tau;
  }

  /** Absolute per-child fidelity floor of the capability score (default 0). */
  public double epsilon() {
    return values.epsilon;
  }

  /**
   * Added to the relevance of a leaf whose time stamp lies in the period a prompt names ("in May 2023",
   * "2023-05-08", "in 2023"), for the tree cover; >= 0 (default 0.3; docs/adr/0026-period-and-substance.md).
   */
  public double periodBoost() {
    return values.periodBoost;
  }

  /**
   * Weight of a leaf's substance in its relevance, for the tree cover: {@code substance x min(1, ln(1 + d) /
   * ln(33))}, {@code d} the leaf's distinct content words; >= 0 (default 0.2; docs/adr/0026-period-and-substance.md).
   */
  public double substance() {
    return values.substance;
  }

  /**
   * Added to {@link #substance()}'s weight for a prompt that names a period holding leaves ("What happened in
   * May 2023?"; periods count only while {@link #periodBoost()} is positive): such a prompt asks what
   * happened, so among the period's leaves those that say more come first; >= 0 (default 0.3;
   * docs/adr/0026-period-and-substance.md).
   */
  public double periodSubstance() {
    return values.periodSubstance;
  }

  /** Faithfulness below which maintenance re-summarises a node, in [-100, 100] (default 60). */
  public int faithfulnessThreshold() {
    return values.faithfulnessThreshold;
  }

  /** Budget of {@link SETree#retrieve(String)} (default 4096 tokens). */
  public int defaultBudget() {
    return values.defaultBudget;
  }

  /** Summariser calls in flight at once; 0 = number of processors (default 0). */
  public int maxConcurrency() {
    return values.maxConcurrency;
  }

  /**
   * Context window of the Target LLM in the knowledge base's tokens ({@code context_window}, default 8192); at
   * least {@value LlmSettings#MIN_CONTEXT_WINDOW} with an LLM; children that do not fit are summarised in
   * chunks.
   */
  public int contextWindow() {
    return values.contextWindow;
  }

  /** Largest share of a budget the overview's summaries may take, in [0, 1] (default 0; ADR 0010). */
  public double overviewShare() {
    return values.overviewShare;
  }

  /**
   * How fast the overview's share shrinks as a prompt focuses on fewer top-level subtrees, in relevance
   * units, > 0 (default 0.2): the share is {@code overview_share x breadth}, breadth being the mean over
   * the root's children of {@code exp((care - max care) / overview_temperature)}. Large values give every
   * prompt the whole share.
   */
  public double overviewTemperature() {
    return values.overviewTemperature;
  }

  /** Mean community size the Leiden resolution search aims at (default 8). */
  public int targetArity() {
    return values.targetArity;
  }

  /** Neighbours per member in the kNN graphs (default 10). */
  public int knnK() {
    return values.knnK;
  }

  /** Summary cap, in tokens, of the root and its children (default 12). */
  public int topSummaryTokens() {
    return values.topSummaryTokens;
  }

  /** Summary cap, in tokens, of deeper nodes (default 24). */
  public int summaryTokens() {
    return values.summaryTokens;
  }

  /** Quiet window after a mutation before maintenance runs, coalescing bursts (default 500 ms). */
  public long quietWindowMillis() {
    return values.quietWindowMillis;
  }

  /**
   * Warm-up runs a writer makes on open while it has no mutation to apply (default 0: none): made-up one-fact
   * maintenance runs whose results are dropped, so that the JIT compiles a run's code before the first real one
   * (docs/adr/0038). Once per JVM, for knowledge bases of at least 4,096 leaves, with extractive summaries only;
   * given up as soon as a mutation arrives. Worth it where the first run after open is waited for (a quiet window of
   * 0, {@link SETree#triggerMaintain()}) and nothing else is asked of the process meanwhile: three runs take about a
   * second of a core, and retrieves made meanwhile took about twice as long.
   */
  public int warmUpRuns() {
    return values.warmUpRuns;
  }

  /** The names of the bundled embedders ({@code embedder} in the config file). */
  public static final java.util.List<String> EMBEDDERS = java.util.List.of("minilm", "minilm-int8");

  /**
   * Which bundled embedder SETree loads when no {@link #embedder()} is given ({@code embedder}, default
   * {@code minilm}): {@code minilm} is all-MiniLM-L6-v2 in float32, {@code minilm-int8} its int8-quantised
   * build (faster, slightly different vectors, its own model id: a knowledge base is always opened with the
   * embedder it was built with). See ADR 0015.
   */
  public String embedderName() {
    return values.embedderName;
  }

  /**
   * The hard deadline of one {@code retrieve} in milliseconds ({@code retrieve_deadline_ms}, default 1000):
   * when the prompt's embedding has not come back by then, retrieve returns a cover chosen by the prompt's
   * words alone (BM25), marked {@link Context#cutShort()}.
   */
  public long retrieveDeadlineMillis() {
    return values.retrieveDeadlineMillis;
  }

  /**
   * How a tree-cover retrieve scores leaves ({@code retrieve_path}, default {@link RetrievePath#AUTO}): every
   * leaf, or the candidates only (approximate nearest leaves plus the best BM25 hits; docs/adr/0018), whose
   * cost does not grow with the knowledge base.
   */
  public RetrievePath retrievePath() {
    return values.retrievePath;
  }

  /**
   * The knowledge-base size, in leaves, from which {@link RetrievePath#AUTO} takes the candidate path
   * ({@code approximate_from_leaves}, default 20000).
   */
  public int approximateFromLeaves() {
    return values.approximateFromLeaves;
  }

  /**
   * The Target LLM's connection settings, or null for no LLM (default). When set and no
   * {@link #summarizer()} is given, {@link SETree} summarises with a {@code TargetLlmSummarizer} on these
   * settings; it checks the endpoint before each build (a dead endpoint fails the build, nothing written)
   * and each maintenance run (the run is retried later, the mutations stay pending). Retrieve never calls it.
   * The LLM works within this config's {@link #contextWindow()}.
   */
  public LlmConfig llm() {
    return values.llm;
  }

  /** The LLM client's settings: {@link #llm()} with this config's context window; null for no LLM. */
  LlmSettings llmSettings() {
    return values.llm == null ? null : values.llm.settings(values.contextWindow);
  }

  /** Whether intentional clustering reorders selection (default false; docs/adr/0009-intentional-clustering.md). */
  public boolean useIntentionalClustering() {
    return values.useIntentionalClustering;
  }

  /**
   * Intentional clustering's edge floor on tree affinity, in [0, 1] (default 0.4): two candidates are
   * linked when {@code 1 / h >= floor}, h being the number of levels from the deeper of them up to their
   * lowest common ancestor (1 for siblings, so 0.4 links candidates within two levels).
   */
  public double clusterEdgeWeightFloor() {
    return values.clusterEdgeWeightFloor;
  }

  /** Intentional clustering: clusters given one representative each, >= 1 (default 3). */
  public int clusterDiversityTarget() {
    return values.clusterDiversityTarget;
  }

  /** Intentional clustering: stage 1 ends at the first representative that does not fit (default true). */
  public boolean fallbackToScore() {
    return values.fallbackToScore;
  }

  /**
   * The second hop ({@code second_hop}): 0 (off, the default), 1 or 2 = re-query with the prompt and its best
   * one or two leaves and interleave the rankings (docs/adr/0008-second-hop.md, 0010).
   */
  public int secondHopLeaves() {
    return values.secondHop;
  }

  /** The host's embedder, or null for the bundled MiniLM. */
  public Embedder embedder() {
    return values.embedder;
  }

  /** The host's token counter, or null for MiniLM's WordPiece counter. */
  public TokenCounter tokenCounter() {
    return values.tokenCounter;
  }

  /** The host's summariser, or null for the extractive default. */
  public Summarizer summarizer() {
    return values.summarizer;
  }

  /** Builds {@link SETreeConfig}s; every setter returns the builder. Not thread-safe. */
  public static final class Builder {
    private final ConfigValues values;

    private Builder(ConfigValues values) {
      this.values = values;
    }

    /** See {@link SETreeConfig#beta()}. */
    public Builder beta(double v) {
      values.beta = v;
      return this;
    }

    /** See {@link SETreeConfig#tau()}. */
    public Builder tau(double v) {
      values.tau = v;
      return this;
    }

    /** See {@link SETreeConfig#epsilon()}. */
    public Builder epsilon(double v) {
      values.epsilon = v;
      return this;
    }

    /** See {@link SETreeConfig#periodBoost()}. */
    public Builder periodBoost(double v) {
      values.periodBoost = v;
      return this;
    }

    /** See {@link SETreeConfig#substance()}. */
    public Builder substance(double v) {
      values.substance = v;
      return this;
    }

    /** See {@link SETreeConfig#periodSubstance()}. */
    public Builder periodSubstance(double v) {
      values.periodSubstance = v;
      return this;
    }

    /** See {@link SETreeConfig#faithfulnessThreshold()}. */
    public Builder faithfulnessThreshold(int v) {
      values.faithfulnessThreshold = v;
      return this;
    }

    /** See {@link SETreeConfig#defaultBudget()}. */
    public Builder defaultBudget(int v) {
      values.defaultBudget = v;
      return this;
    }

    /** See {@link SETreeConfig#maxConcurrency()}. */
    public Builder maxConcurrency(int v) {
      values.maxConcurrency = v;
      return this;
    }

    /** See {@link SETreeConfig#contextWindow()}: the LLM's window. */
    public Builder contextWindow(int v) {
      values.contextWindow = v;
      return this;
    }

    /** See {@link SETreeConfig#overviewTemperature()}. */
    public Builder overviewTemperature(double v) {
      values.overviewTemperature = v;
      return this;
    }

    /** See {@link SETreeConfig#overviewShare()}. */
    public Builder overviewShare(double v) {
      values.overviewShare = v;
      return this;
    }

    /** See {@link SETreeConfig#targetArity()}. */
    public Builder targetArity(int v) {
      values.targetArity = v;
      return this;
    }

    /** See {@link SETreeConfig#knnK()}. */
    public Builder knnK(int v) {
      values.knnK = v;
      return this;
    }

    /** See {@link SETreeConfig#topSummaryTokens()}. */
    public Builder topSummaryTokens(int v) {
      values.topSummaryTokens = v;
      return this;
    }

    /** See {@link SETreeConfig#summaryTokens()}. */
    public Builder summaryTokens(int v) {
      values.summaryTokens = v;
      return this;
    }

    /** See {@link SETreeConfig#embedderName()}. */
    public Builder embedderName(String v) {
      values.embedderName = v;
      return this;
    }

    /** See {@link SETreeConfig#retrievePath()}. */
    public Builder retrievePath(RetrievePath v) {
      values.retrievePath = Objects.requireNonNull(v, "retrievePath");
      return this;
    }

    /** See {@link SETreeConfig#approximateFromLeaves()}. */
    public Builder approximateFromLeaves(int v) {
      values.approximateFromLeaves = v;
      return this;
    }

    /** See {@link SETreeConfig#retrieveDeadlineMillis()}. */
    public Builder retrieveDeadlineMillis(long v) {
      values.retrieveDeadlineMillis = v;
      return this;
    }

    /** See {@link SETreeConfig#quietWindowMillis()}. */
    public Builder quietWindowMillis(long v) {
      values.quietWindowMillis = v;
      return this;
    }

    /** See {@link SETreeConfig#warmUpRuns()}. */
    public Builder warmUpRuns(int v) {
      values.warmUpRuns = v;
      return this;
    }

    /** See {@link SETreeConfig#llm()}; null for no LLM. */
    public Builder llm(LlmConfig v) {
      values.llm = v;
      return this;
    }

    /** See {@link SETreeConfig#useIntentionalClustering()}. */
    public Builder useIntentionalClustering(boolean v) {
      values.useIntentionalClustering = v;
      return this;
    }

    /** See {@link SETreeConfig#clusterEdgeWeightFloor()}. */
    public Builder clusterEdgeWeightFloor(double v) {
      values.clusterEdgeWeightFloor = v;
      return this;
    }

    /** See {@link SETreeConfig#clusterDiversityTarget()}. */
    public Builder clusterDiversityTarget(int v) {
      values.clusterDiversityTarget = v;
      return this;
    }

    /** See {@link SETreeConfig#fallbackToScore()}. */
    public Builder fallbackToScore(boolean v) {
      values.fallbackToScore = v;
      return this;
    }

    /** See {@link SETreeConfig#secondHopLeaves()}: 0 (off), 1 or 2. */
    public Builder secondHop(int v) {
      values.secondHop = v;
      return this;
    }

    /** Uses the host's embedder (not closed by SETree); null for the bundled MiniLM. */
    public Builder embedder(Embedder e) {
      values.embedder = e;
      return this;
    }

    /** Uses the host's token counter; null for MiniLM's WordPiece counter. */
    public Builder tokenCounter(TokenCounter c) {
      values.tokenCounter = c;
      return this;
    }

    /** Uses the host's summariser; null for the extractive default. */
    public Builder summarizer(Summarizer s) {
      values.summarizer = s;
      return this;
    }

    /**
     * Checks every value and builds the config.
     *
     * @throws IllegalArgumentException naming the first bad key and its value ({@code KEY must be RANGE, got
     *     VALUE}), or a context window below {@value LlmSettings#MIN_CONTEXT_WINDOW} with an LLM
     */
    public SETreeConfig build() {
      return new SETreeConfig(this);
    }
  }
}

package dev.setree;

import dev.setree.maintain.llm.LlmSettings;
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
  private final double beta;
  private final double tau;
  private final double epsilon;
  private final int faithfulnessThreshold;
  private final int defaultBudget;
  private final int maxConcurrency;
  private final int contextWindow;
  private final double overviewShare;
  private final double overviewTemperature;
  private final int targetArity;
  private final int knnK;
  private final int topSummaryTokens;
  private final int summaryTokens;
  private final long quietWindowMillis;
  private final long retrieveDeadlineMillis;
  private final RetrievePath retrievePath;
  private final int approximateFromLeaves;
  private final String embedderName;
  private final LlmConfig llm;
  private final boolean useIntentionalClustering;
  private final double clusterEdgeWeightFloor;
  private final int clusterDiversityTarget;
  private final boolean fallbackToScore;
  private final int secondHop;
  private final Embedder embedder;
  private final TokenCounter tokenCounter;
  private final Summarizer summarizer;

  private SETreeConfig(Builder b) {
    this.beta = Settings.BETA.check(b.beta);
    this.tau = Settings.TAU.check(b.tau);
    this.epsilon = Settings.EPSILON.check(b.epsilon);
    this.faithfulnessThreshold = Settings.FAITHFULNESS_THRESHOLD.checkInt(b.faithfulnessThreshold);
    this.defaultBudget = Settings.DEFAULT_BUDGET.checkInt(b.defaultBudget);
    this.maxConcurrency = Settings.MAX_CONCURRENCY.checkInt(b.maxConcurrency);
    this.overviewShare = Settings.OVERVIEW_SHARE.check(b.overviewShare);
    this.overviewTemperature = Settings.OVERVIEW_TEMPERATURE.check(b.overviewTemperature);
    this.targetArity = Settings.TARGET_ARITY.checkInt(b.targetArity);
    this.knnK = Settings.KNN_K.checkInt(b.knnK);
    this.topSummaryTokens = Settings.TOP_SUMMARY_TOKENS.checkInt(b.topSummaryTokens);
    this.summaryTokens = Settings.SUMMARY_TOKENS.checkInt(b.summaryTokens);
    this.quietWindowMillis = Settings.QUIET_WINDOW_MS.check(b.quietWindowMillis);
    this.retrieveDeadlineMillis = Settings.RETRIEVE_DEADLINE_MS.check(b.retrieveDeadlineMillis);
    this.retrievePath = Objects.requireNonNull(b.retrievePath, "retrieve_path");
    this.approximateFromLeaves = Settings.APPROXIMATE_FROM_LEAVES.checkInt(b.approximateFromLeaves);
    this.embedderName = Settings.EMBEDDER.check(b.embedderName);
    this.useIntentionalClustering = b.useIntentionalClustering;
    this.clusterEdgeWeightFloor = Settings.CLUSTER_EDGE_WEIGHT_FLOOR.check(b.clusterEdgeWeightFloor);
    this.clusterDiversityTarget = Settings.CLUSTER_DIVERSITY_TARGET.checkInt(b.clusterDiversityTarget);
    this.fallbackToScore = b.fallbackToScore;
    this.secondHop = Settings.SECOND_HOP.check(b.secondHop);
    this.contextWindow = Settings.CONTEXT_WINDOW.checkInt(b.contextWindow);
    this.llm = b.llm;
    if (llm != null) {
      llm.settings(contextWindow); // the window's floor with an LLM
    }
    this.embedder = b.embedder;
    this.tokenCounter = b.tokenCounter;
    this.summarizer = b.summarizer;
  }

  /** The embedded default configuration. */
  public static SETreeConfig defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.beta = beta;
    b.tau = tau;
    b.epsilon = epsilon;
    b.faithfulnessThreshold = faithfulnessThreshold;
    b.defaultBudget = defaultBudget;
    b.maxConcurrency = maxConcurrency;
    b.contextWindow = contextWindow;
    b.overviewShare = overviewShare;
    b.overviewTemperature = overviewTemperature;
    b.targetArity = targetArity;
    b.knnK = knnK;
    b.topSummaryTokens = topSummaryTokens;
    b.summaryTokens = summaryTokens;
    b.quietWindowMillis = quietWindowMillis;
    b.retrieveDeadlineMillis = retrieveDeadlineMillis;
    b.retrievePath = retrievePath;
    b.approximateFromLeaves = approximateFromLeaves;
    b.embedderName = embedderName;
    b.llm = llm;
    b.useIntentionalClustering = useIntentionalClustering;
    b.clusterEdgeWeightFloor = clusterEdgeWeightFloor;
    b.clusterDiversityTarget = clusterDiversityTarget;
    b.fallbackToScore = fallbackToScore;
    b.secondHop = secondHop;
    b.embedder = embedder;
    b.tokenCounter = tokenCounter;
    b.summarizer = summarizer;
    return b;
  }

  /** Weight of the parent's directional fidelity loss in the capability score (default 0.2). */
  public double beta() {
    return beta;
  }

  /** Weight of the lexical (BM25) term in leaf relevance: {@code cos + tau * bm25 / max bm25} (default 0.3). */
  public double tau() {
    return tau;
  }

  /** Absolute per-child fidelity floor of the capability score (default 0). */
  public double epsilon() {
    return epsilon;
  }

  /** Faithfulness below which maintenance re-summarises a node, in [-100, 100] (default 60). */
  public int faithfulnessThreshold() {
    return faithfulnessThreshold;
  }

  /** Budget of {@link SETree#retrieve(String)} (default 4096 tokens). */
  public int defaultBudget() {
    return defaultBudget;
  }

  /** Summariser calls in flight at once; 0 = number of processors (default 0). */
  public int maxConcurrency() {
    return maxConcurrency;
  }

  /**
   * Context window of the Target LLM in the knowledge base's tokens ({@code context_window}, default 8192); at
   * least {@value LlmSettings#MIN_CONTEXT_WINDOW} with an LLM; children that do not fit are summarised in
   * chunks.
   */
  public int contextWindow() {
    return contextWindow;
  }

  /** Largest share of a budget the overview's summaries may take, in [0, 1] (default 0; ADR 0010). */
  public double overviewShare() {
    return overviewShare;
  }

  /**
   * How fast the overview's share shrinks as a prompt focuses on fewer top-level subtrees, in relevance
   * units, > 0 (default 0.2): the share is {@code overview_share x breadth}, breadth being the mean over
   * the root's children of {@code exp((care - max care) / overview_temperature)}. Large values give every
   * prompt the whole share.
   */
  public double overviewTemperature() {
    return overviewTemperature;
  }

  /** Mean community size the Leiden resolution search aims at (default 8). */
  public int targetArity() {
    return targetArity;
  }

  /** Neighbours per member in the kNN graphs (default 10). */
  public int knnK() {
    return knnK;
  }

  /** Summary cap, in tokens, of the root and its children (default 12). */
  public int topSummaryTokens() {
    return topSummaryTokens;
  }

  /** Summary cap, in tokens, of deeper nodes (default 24). */
  public int summaryTokens() {
    return summaryTokens;
  }

  /** Quiet window after a mutation before maintenance runs, coalescing bursts (default 500 ms). */
  public long quietWindowMillis() {
    return quietWindowMillis;
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
    return embedderName;
  }

  /**
   * The hard deadline of one {@code retrieve} in milliseconds ({@code retrieve_deadline_ms}, default 1000):
   * when the prompt's embedding has not come back by then, retrieve returns a cover chosen by the prompt's
   * words alone (BM25), marked {@link Context#cutShort()}.
   */
  public long retrieveDeadlineMillis() {
    return retrieveDeadlineMillis;
  }

  /**
   * How a tree-cover retrieve scores leaves ({@code retrieve_path}, default {@link RetrievePath#AUTO}): every
   * leaf, or the candidates only (approximate nearest leaves plus the best BM25 hits; docs/adr/0018), whose
   * cost does not grow with the knowledge base.
   */
  public RetrievePath retrievePath() {
    return retrievePath;
  }

  /**
   * The knowledge-base size, in leaves, from which {@link RetrievePath#AUTO} takes the candidate path
   * ({@code approximate_from_leaves}, default 20000).
   */
  public int approximateFromLeaves() {
    return approximateFromLeaves;
  }

  /**
   * The Target LLM's connection settings, or null for no LLM (default). When set and no
   * {@link #summarizer()} is given, {@link SETree} summarises with a {@code TargetLlmSummarizer} on these
   * settings; it checks the endpoint before each build (a dead endpoint fails the build, nothing written)
   * and each maintenance run (the run is retried later, the mutations stay pending). Retrieve never calls it.
   * The LLM works within this config's {@link #contextWindow()}.
   */
  public LlmConfig llm() {
    return llm;
  }

  /** The LLM client's settings: {@link #llm()} with this config's context window; null for no LLM. */
  LlmSettings llmSettings() {
    return llm == null ? null : llm.settings(contextWindow);
  }

  /**
   * Whether intentional clustering reorders selection (default false; docs/adr/0009-intentional-clustering.md).
   */
  public boolean useIntentionalClustering() {
    return useIntentionalClustering;
  }

  /**
   * Intentional clustering's edge floor on tree affinity, in [0, 1] (default 0.4): two candidates are
   * linked when {@code 1 / h >= floor}, h being the number of levels from the deeper of them up to their
   * lowest common ancestor (1 for siblings, so 0.4 links candidates within two levels).
   */
  public double clusterEdgeWeightFloor() {
    return clusterEdgeWeightFloor;
  }

  /** Intentional clustering: clusters given one representative each, >= 1 (default 3). */
  public int clusterDiversityTarget() {
    return clusterDiversityTarget;
  }

  /** Intentional clustering: stage 1 ends at the first representative that does not fit (default true). */
  public boolean fallbackToScore() {
    return fallbackToScore;
  }

  /**
   * The second hop ({@code second_hop}): 0 (off, the default), 1 or 2 = re-query with the prompt and its best
   * one or two leaves and interleave the rankings (docs/adr/0008-second-hop.md, 0010).
   */
  public int secondHopLeaves() {
    return secondHop;
  }

  /** The host's embedder, or null for the bundled MiniLM. */
  public Embedder embedder() {
    return embedder;
  }

  /** The host's token counter, or null for MiniLM's WordPiece counter. */
  public TokenCounter tokenCounter() {
    return tokenCounter;
  }

  /** The host's summariser, or null for the extractive default. */
  public Summarizer summarizer() {
    return summarizer;
  }

  /** Builds {@link SETreeConfig}s; every setter returns the builder. Not thread-safe. */
  public static final class Builder {
    private double beta = Settings.BETA.defaultValue;
    private double tau = Settings.TAU.defaultValue;
    private double epsilon = Settings.EPSILON.defaultValue;
    private int faithfulnessThreshold = Settings.FAITHFULNESS_THRESHOLD.defaultValue.intValue();
    private int defaultBudget = Settings.DEFAULT_BUDGET.defaultValue.intValue();
    private int maxConcurrency = Settings.MAX_CONCURRENCY.defaultValue.intValue();
    private int contextWindow = Settings.CONTEXT_WINDOW.defaultValue.intValue();
    private double overviewShare = Settings.OVERVIEW_SHARE.defaultValue;
    private double overviewTemperature = Settings.OVERVIEW_TEMPERATURE.defaultValue;
    private int targetArity = Settings.TARGET_ARITY.defaultValue.intValue();
    private int knnK = Settings.KNN_K.defaultValue.intValue();
    private int topSummaryTokens = Settings.TOP_SUMMARY_TOKENS.defaultValue.intValue();
    private int summaryTokens = Settings.SUMMARY_TOKENS.defaultValue.intValue();
    private long quietWindowMillis = Settings.QUIET_WINDOW_MS.defaultValue;
    private long retrieveDeadlineMillis = Settings.RETRIEVE_DEADLINE_MS.defaultValue;
    private RetrievePath retrievePath = RetrievePath.parse(Settings.RETRIEVE_PATH.key, Settings.RETRIEVE_PATH.defaultValue);
    private int approximateFromLeaves = Settings.APPROXIMATE_FROM_LEAVES.defaultValue.intValue();
    private String embedderName = Settings.EMBEDDER.defaultValue;
    private LlmConfig llm;
    private boolean useIntentionalClustering = Settings.USE_INTENTIONAL_CLUSTERING.defaultValue;
    private double clusterEdgeWeightFloor = Settings.CLUSTER_EDGE_WEIGHT_FLOOR.defaultValue;
    private int clusterDiversityTarget = Settings.CLUSTER_DIVERSITY_TARGET.defaultValue.intValue();
    private boolean fallbackToScore = Settings.FALLBACK_TO_SCORE.defaultValue;
    private int secondHop = Settings.SECOND_HOP.defaultValue;
    private Embedder embedder;
    private TokenCounter tokenCounter;
    private Summarizer summarizer;

    private Builder() {}

    /** See {@link SETreeConfig#beta()}. */
    public Builder beta(double v) {
      beta = v;
      return this;
    }

    /** See {@link SETreeConfig#tau()}. */
    public Builder tau(double v) {
      tau = v;
      return this;
    }

    /** See {@link SETreeConfig#epsilon()}. */
    public Builder epsilon(double v) {
      epsilon = v;
      return this;
    }

    /** See {@link SETreeConfig#faithfulnessThreshold()}. */
    public Builder faithfulnessThreshold(int v) {
      faithfulnessThreshold = v;
      return this;
    }

    /** See {@link SETreeConfig#defaultBudget()}. */
    public Builder defaultBudget(int v) {
      defaultBudget = v;
      return this;
    }

    /** See {@link SETreeConfig#maxConcurrency()}. */
    public Builder maxConcurrency(int v) {
      maxConcurrency = v;
      return this;
    }

    /** See {@link SETreeConfig#contextWindow()}: the LLM's window. */
    public Builder contextWindow(int v) {
      contextWindow = v;
      return this;
    }

    /** See {@link SETreeConfig#overviewTemperature()}. */
    public Builder overviewTemperature(double v) {
      overviewTemperature = v;
      return this;
    }

    /** See {@link SETreeConfig#overviewShare()}. */
    public Builder overviewShare(double v) {
      overviewShare = v;
      return this;
    }

    /** See {@link SETreeConfig#targetArity()}. */
    public Builder targetArity(int v) {
      targetArity = v;
      return this;
    }

    /** See {@link SETreeConfig#knnK()}. */
    public Builder knnK(int v) {
      knnK = v;
      return this;
    }

    /** See {@link SETreeConfig#topSummaryTokens()}. */
    public Builder topSummaryTokens(int v) {
      topSummaryTokens = v;
      return this;
    }

    /** See {@link SETreeConfig#summaryTokens()}. */
    public Builder summaryTokens(int v) {
      summaryTokens = v;
      return this;
    }

    /** See {@link SETreeConfig#embedderName()}. */
    public Builder embedderName(String v) {
      embedderName = v;
      return this;
    }

    /** See {@link SETreeConfig#retrievePath()}. */
    public Builder retrievePath(RetrievePath v) {
      retrievePath = Objects.requireNonNull(v, "retrievePath");
      return this;
    }

    /** See {@link SETreeConfig#approximateFromLeaves()}. */
    public Builder approximateFromLeaves(int v) {
      approximateFromLeaves = v;
      return this;
    }

    /** See {@link SETreeConfig#retrieveDeadlineMillis()}. */
    public Builder retrieveDeadlineMillis(long v) {
      retrieveDeadlineMillis = v;
      return this;
    }

    /** See {@link SETreeConfig#quietWindowMillis()}. */
    public Builder quietWindowMillis(long v) {
      quietWindowMillis = v;
      return this;
    }

    /** See {@link SETreeConfig#llm()}; null for no LLM. */
    public Builder llm(LlmConfig v) {
      llm = v;
      return this;
    }

    /** See {@link SETreeConfig#useIntentionalClustering()}. */
    public Builder useIntentionalClustering(boolean v) {
      useIntentionalClustering = v;
      return this;
    }

    /** See {@link SETreeConfig#clusterEdgeWeightFloor()}. */
    public Builder clusterEdgeWeightFloor(double v) {
      clusterEdgeWeightFloor = v;
      return this;
    }

    /** See {@link SETreeConfig#clusterDiversityTarget()}. */
    public Builder clusterDiversityTarget(int v) {
      clusterDiversityTarget = v;
      return this;
    }

    /** See {@link SETreeConfig#fallbackToScore()}. */
    public Builder fallbackToScore(boolean v) {
      fallbackToScore = v;
      return this;
    }

    /** See {@link SETreeConfig#secondHopLeaves()}: 0 (off), 1 or 2. */
    public Builder secondHop(int v) {
      secondHop = v;
      return this;
    }

    /** Uses the host's embedder (not closed by SETree); null for the bundled MiniLM. */
    public Builder embedder(Embedder e) {
      embedder = e;
      return this;
    }

    /** Uses the host's token counter; null for MiniLM's WordPiece counter. */
    public Builder tokenCounter(TokenCounter c) {
      tokenCounter = c;
      return this;
    }

    /** Uses the host's summariser; null for the extractive default. */
    public Builder summarizer(Summarizer s) {
      summarizer = s;
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

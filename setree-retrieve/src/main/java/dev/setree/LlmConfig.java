package dev.setree;

import dev.setree.internal.maintain.llm.LlmModels;
import dev.setree.internal.maintain.llm.LlmSettings;
import java.time.Duration;
import java.util.List;

/**
 * Where the Target LLM is and how patiently to ask it: an OpenAI-compatible chat-completions endpoint that
 * writes abstractive summaries at build and maintenance time ({@link SETreeConfig#llm()}) and answers the
 * web host's chat. Immutable; every value is checked when built, against the one definition of its key in
 * docs/config.md ({@code llm.*}), so a value set from code and one read from the config file get the same
 * check and message. The context window is the config's {@link SETreeConfig#contextWindow()}.
 *
 * <p>The API key is a secret: it is sent only in the {@code Authorization} header, never appears in
 * {@link #toString()}, in an exception message or in a log, and SETree never writes it to a database.
 */
public final class LlmConfig {
  private final LlmSettings settings;

  private LlmConfig(LlmSettings settings) {
    this.settings = settings;
  }

  /**
   * The model ids an OpenAI-compatible server lists ({@code GET {baseUrl}/models}), in its order: for a
   * caller that was given the endpoint but no model.
   *
   * @param baseUrl the endpoint, for example {@code http://localhost:8080/v1}
   * @param timeout connect and read timeout
   * @return the ids, never empty
   * @throws dev.setree.spi.SummarizerException naming the URL when no connection could be made
   * @throws IllegalArgumentException naming the URL when the server has no model list or lists no model
   */
  public static List<String> serverModels(String baseUrl, Duration timeout) {
    return LlmModels.list(baseUrl, null, timeout);
  }

  /** A builder with the defaults; {@code baseUrl} and {@code model} must be set. */
  public static Builder builder() {
    return new Builder(LlmSettings.builder()
        .connectTimeout(Duration.ofMillis(Settings.LLM_CONNECT_TIMEOUT_MS.defaultValue))
        .readTimeout(Duration.ofMillis(Settings.LLM_READ_TIMEOUT_MS.defaultValue))
        .maxRetries(Settings.LLM_MAX_RETRIES.defaultValue.intValue())
        .maxConcurrency(Settings.LLM_MAX_CONCURRENCY.defaultValue.intValue()));
  }

  /** A builder starting from this configuration. */
  public Builder toBuilder() {
    return new Builder(settings.toBuilder());
  }

  /** The API root without {@code /chat/completions}, for example {@code http://localhost:8080/v1}. */
  public String baseUrl() {
    return settings.baseUrl();
  }

  /** The model name sent with every request. */
  public String model() {
    return settings.model();
  }

  /** Whether an API key is set (the key itself is not exposed). */
  public boolean hasApiKey() {
    return settings.hasApiKey();
  }

  /** How long to wait for a connection ({@code llm.connect_timeout_ms}). */
  public Duration connectTimeout() {
    return settings.connectTimeout();
  }

  /** How long to wait for an answer ({@code llm.read_timeout_ms}; LLMs on a CPU are slow: two minutes). */
  public Duration readTimeout() {
    return settings.readTimeout();
  }

  /** Retries of one request after a connection error, HTTP 429 or a 5xx answer ({@code llm.max_retries}). */
  public int maxRetries() {
    return settings.maxRetries();
  }

  /** Requests in flight at once ({@code llm.max_concurrency}); 0 = {@value LlmSettings#DEFAULT_CONCURRENCY}. */
  public int maxConcurrency() {
    return settings.maxConcurrency();
  }

  /** The first wait before a retry; it doubles on each retry, up to 30 s. */
  public Duration retryBackoff() {
    return settings.retryBackoff();
  }

  /** The client settings with the knowledge base's context window. */
  LlmSettings settings(int contextWindow) {
    return contextWindow == settings.contextWindow() ? settings
        : settings.toBuilder().contextWindow(contextWindow).build();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LlmConfig other && settings.equals(other.settings);
  }

  @Override
  public int hashCode() {
    return settings.hashCode();
  }

  /** The configuration without the API key: {@code apiKey=<set>} or {@code apiKey=<none>}. */
  @Override
  public String toString() {
    return "LlmConfig[baseUrl=" + baseUrl() + ", model=" + model() + ", apiKey=" + (hasApiKey() ? "<set>" : "<none>")
        + ", connectTimeout=" + connectTimeout().toMillis() + "ms, readTimeout=" + readTimeout().toMillis()
        + "ms, maxRetries=" + maxRetries() + ", maxConcurrency=" + maxConcurrency() + ", retryBackoff="
        + retryBackoff().toMillis() + "ms]";
  }

  /**
   * Builds an {@link LlmConfig}; every setter returns the builder. Not thread-safe. It fills the LLM clients'
   * own builder (their settings' form) and checks the numbers against the table of settings when built.
   */
  public static final class Builder {
    private final LlmSettings.Builder settings;

    private Builder(LlmSettings.Builder settings) {
      this.settings = settings;
    }

    /**
     * The API root without {@code /chat/completions}: {@code http://localhost:8080/v1} (llama-server),
     * {@code http://localhost:11434/v1} (Ollama); a trailing slash is dropped.
     */
    public Builder baseUrl(String v) {
      settings.baseUrl(v);
      return this;
    }

    /** The model name sent with every request. */
    public Builder model(String v) {
      settings.model(v);
      return this;
    }

    /** The bearer token; null or blank for none. */
    public Builder apiKey(String v) {
      settings.apiKey(v);
      return this;
    }

    /** See {@link LlmConfig#connectTimeout()} (default 10 s). */
    public Builder connectTimeout(Duration v) {
      settings.connectTimeout(v);
      return this;
    }

    /** See {@link LlmConfig#readTimeout()} (default 120 s). */
    public Builder readTimeout(Duration v) {
      settings.readTimeout(v);
      return this;
    }

    /** See {@link LlmConfig#maxRetries()} (default 3). */
    public Builder maxRetries(int v) {
      settings.maxRetries(v);
      return this;
    }

    /** See {@link LlmConfig#maxConcurrency()} (default 0). */
    public Builder maxConcurrency(int v) {
      settings.maxConcurrency(v);
      return this;
    }

    /** See {@link LlmConfig#retryBackoff()} (default 500 ms). */
    public Builder retryBackoff(Duration v) {
      settings.retryBackoff(v);
      return this;
    }

    /**
     * Checks every value and builds the configuration.
     *
     * @throws IllegalArgumentException naming the bad key and its value ({@code llm.max_retries must be in
     *     [0, 10], got 11})
     */
    public LlmConfig build() {
      LlmSettings s = settings.build();
      Settings.LLM_CONNECT_TIMEOUT_MS.check(millis(s.connectTimeout()));
      Settings.LLM_READ_TIMEOUT_MS.check(millis(s.readTimeout()));
      Settings.LLM_MAX_RETRIES.checkInt(s.maxRetries());
      Settings.LLM_MAX_CONCURRENCY.checkInt(s.maxConcurrency());
      return new LlmConfig(s);
    }

    private static long millis(Duration d) {
      return d.isNegative() || d.isZero() ? Math.min(0, d.toMillis()) : Math.max(1, d.toMillis());
    }
  }
}

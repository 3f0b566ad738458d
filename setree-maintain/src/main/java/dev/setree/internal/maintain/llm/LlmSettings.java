package dev.setree.internal.maintain.llm;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Objects;

/**
 * The connection settings of the Target LLM: where the OpenAI-compatible chat-completions endpoint is, which
 * model to ask, and how patiently: the LLM clients' own form of the facade's {@code LlmConfig}, which checks the
 * numbers against their one definition (the facade's table of settings, docs/config.md) before it makes
 * these. Immutable; the URL, the model name and the context window's floor are checked here.
 *
 * <p>The API key is a secret: it is sent only in the {@code Authorization} header, never appears in
 * {@link #toString()}, in an exception message or in a log, and SETree never writes it to a database.
 *
 * @param baseUrl the API root without {@code /chat/completions}, for example {@code http://localhost:8080/v1}
 *     (llama-server) or {@code http://localhost:11434/v1} (Ollama); a trailing slash is dropped
 * @param model the model name sent with every request
 * @param apiKey the bearer token, or null for none
 * @param connectTimeout how long to wait for a connection
 * @param readTimeout how long to wait for an answer (LLMs on a CPU are slow: the default is two minutes)
 * @param maxRetries retries of one request after a connection error, HTTP 429 or a 5xx answer
 * @param maxConcurrency requests in flight at once; 0 = {@value #DEFAULT_CONCURRENCY}
 * @param contextWindow the model's context window in tokens of the knowledge base's token counter; children
 *     that do not fit are summarised in chunks
 * @param retryBackoff the first wait before a retry; it doubles on each retry, up to {@link #MAX_BACKOFF}
 */
public record LlmSettings(
    String baseUrl,
    String model,
    String apiKey,
    Duration connectTimeout,
    Duration readTimeout,
    int maxRetries,
    int maxConcurrency,
    int contextWindow,
    Duration retryBackoff) {

  /** Requests in flight when {@code maxConcurrency} is 0. */
  public static final int DEFAULT_CONCURRENCY = 4;
  /** The longest wait between two retries (also the cap of a server's {@code Retry-After}). */
  public static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
  /** The context window when none is given (SETree's {@code context_window} default). */
  public static final int DEFAULT_CONTEXT_WINDOW = 8192;
  /** The smallest context window accepted. */
  public static final int MIN_CONTEXT_WINDOW = 64;

  /** Checks the URL, the model and the window; messages name the setting and the value (never the API key). */
  public LlmSettings {
    Objects.requireNonNull(baseUrl, "llm.base_url");
    baseUrl = normaliseUrl(baseUrl);
    if (model == null || model.isBlank()) {
      throw new IllegalArgumentException("llm.model must be a non-empty model name");
    }
    model = model.strip();
    if (apiKey != null && apiKey.isBlank()) {
      apiKey = null;
    }
    Objects.requireNonNull(connectTimeout, "llm.connect_timeout_ms");
    Objects.requireNonNull(readTimeout, "llm.read_timeout_ms");
    retryBackoff = Objects.requireNonNull(retryBackoff, "retryBackoff");
    if (retryBackoff.isNegative()) {
      throw new IllegalArgumentException("retry backoff must be >= 0, got " + retryBackoff);
    }
    if (contextWindow < MIN_CONTEXT_WINDOW) {
      throw new IllegalArgumentException("context_window must be >= " + MIN_CONTEXT_WINDOW + " for the LLM, got "
          + contextWindow);
    }
  }

  private static String normaliseUrl(String url) {
    String u = url.strip();
    while (u.endsWith("/")) {
      u = u.substring(0, u.length() - 1);
    }
    URI uri;
    try {
      uri = new URI(u);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("llm.base_url is not a URL: '" + url + "'");
    }
    String scheme = uri.getScheme();
    if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
        || uri.getHost() == null) {
      throw new IllegalArgumentException("llm.base_url must be an http:// or https:// URL with a host, got '"
          + url + "'");
    }
    if (uri.getUserInfo() != null) {
      throw new IllegalArgumentException("llm.base_url must not hold credentials; use llm.api_key_env");
    }
    return u;
  }

  /** A builder with the defaults; {@code baseUrl} and {@code model} must be set. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these settings. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.baseUrl = baseUrl;
    b.model = model;
    b.apiKey = apiKey;
    b.connectTimeout = connectTimeout;
    b.readTimeout = readTimeout;
    b.maxRetries = maxRetries;
    b.maxConcurrency = maxConcurrency;
    b.contextWindow = contextWindow;
    b.retryBackoff = retryBackoff;
    return b;
  }

  /** Requests in flight at once, with 0 resolved to {@value #DEFAULT_CONCURRENCY}. */
  public int effectiveConcurrency() {
    return maxConcurrency == 0 ? DEFAULT_CONCURRENCY : maxConcurrency;
  }

  /** The endpoint summaries are asked from: {@code baseUrl + "/chat/completions"}. */
  public String chatCompletionsUrl() {
    return baseUrl + "/chat/completions";
  }

  /** Whether an API key is set (the key itself is not exposed by this method). */
  public boolean hasApiKey() {
    return apiKey != null;
  }

  /** The settings without the API key: {@code apiKey=<set>} or {@code apiKey=<none>}. */
  @Override
  public String toString() {
    return "LlmSettings[baseUrl=" + baseUrl + ", model=" + model + ", apiKey=" + (apiKey == null ? "<none>" : "<set>")
        + ", connectTimeout=" + connectTimeout.toMillis() + "ms, readTimeout=" + readTimeout.toMillis()
        + "ms, maxRetries=" + maxRetries + ", maxConcurrency=" + maxConcurrency + ", contextWindow="
        + contextWindow + ", retryBackoff=" + retryBackoff.toMillis() + "ms]";
  }

  /** Builds {@link LlmSettings}; every setter returns the builder. Not thread-safe. */
  public static final class Builder {
    private String baseUrl;
    private String model;
    private String apiKey;
    private Duration connectTimeout = Duration.ofSeconds(10);
    private Duration readTimeout = Duration.ofSeconds(120);
    private int maxRetries = 3;
    private int maxConcurrency = 0;
    private int contextWindow = DEFAULT_CONTEXT_WINDOW;
    private Duration retryBackoff = Duration.ofMillis(500);

    private Builder() {}

    /** See {@link LlmSettings#baseUrl()}. */
    public Builder baseUrl(String v) {
      baseUrl = v;
      return this;
    }

    /** See {@link LlmSettings#model()}. */
    public Builder model(String v) {
      model = v;
      return this;
    }

    /** See {@link LlmSettings#apiKey()}; null or blank for none. */
    public Builder apiKey(String v) {
      apiKey = v;
      return this;
    }

    /** See {@link LlmSettings#connectTimeout()} (default 10 s). */
    public Builder connectTimeout(Duration v) {
      connectTimeout = v;
      return this;
    }

    /** See {@link LlmSettings#readTimeout()} (default 120 s). */
    public Builder readTimeout(Duration v) {
      readTimeout = v;
      return this;
    }

    /** See {@link LlmSettings#maxRetries()} (default 3). */
    public Builder maxRetries(int v) {
      maxRetries = v;
      return this;
    }

    /** See {@link LlmSettings#maxConcurrency()} (default 0, meaning {@value LlmSettings#DEFAULT_CONCURRENCY}). */
    public Builder maxConcurrency(int v) {
      maxConcurrency = v;
      return this;
    }

    /** See {@link LlmSettings#contextWindow()} (default 8192). */
    public Builder contextWindow(int v) {
      contextWindow = v;
      return this;
    }

    /** See {@link LlmSettings#retryBackoff()} (default 500 ms). */
    public Builder retryBackoff(Duration v) {
      retryBackoff = v;
      return this;
    }

    /**
     * Checks every value and builds the settings.
     *
     * @throws IllegalArgumentException naming the bad setting and its value
     */
    public LlmSettings build() {
      if (baseUrl == null || baseUrl.isBlank()) {
        throw new IllegalArgumentException("llm.base_url is required");
      }
      return new LlmSettings(baseUrl, model, apiKey, connectTimeout, readTimeout, maxRetries, maxConcurrency,
          contextWindow, retryBackoff);
    }
  }
}

package dev.setree.internal.maintain.llm;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.internal.maintain.TextCut;
import dev.setree.spi.SummarizerException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * {@link TargetLlmSummarizer}'s HTTP exchange with an OpenAI-compatible endpoint: one non-streamed chat
 * completion at a time per caller, at most {@link LlmSettings#effectiveConcurrency()} in flight; connection
 * errors, timeouts, HTTP 429 and 5xx retried with exponential backoff and jitter ({@code Retry-After}
 * honoured up to {@link LlmSettings#MAX_BACKOFF}); any other answer read strictly (a 2xx JSON completion with
 * {@code choices[0].message.content}, else a {@link SummarizerException} naming the URL and the problem).
 */
final class CompletionsClient implements AutoCloseable {
  private static final MediaType JSON_TYPE = MediaType.get("application/json; charset=utf-8");

  private final LlmSettings settings;
  private final OkHttpClient http;
  private final Semaphore inFlight;
  private final ObjectMapper json = new ObjectMapper()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  CompletionsClient(LlmSettings settings) {
    this.settings = settings;
    this.http = LlmHttp.client(settings);
    this.inFlight = new Semaphore(settings.effectiveConcurrency(), true);
  }

  /**
   * Checks that the endpoint answers at all, with one cheap {@code GET {baseUrl}/models} (retried like a
   * summary request on connection errors and timeouts). Any HTTP answer, even an error status, counts as
   * alive.
   *
   * @throws LlmUnavailableException naming the URL when no connection could be made
   */
  void checkReachable() {
    String url = settings.baseUrl() + "/models";
    okhttp3.Request req = authorised(new okhttp3.Request.Builder().url(url).get()).build();
    IOException last = null;
    for (int attempt = 0; attempt <= settings.maxRetries(); attempt++) {
      if (attempt > 0) {
        sleep(backoff(attempt, -1), url);
      }
      try (Response resp = http.newCall(req).execute()) {
        resp.body().bytes();
        return;
      } catch (IOException e) {
        last = e;
      }
    }
    throw new LlmUnavailableException("cannot reach the LLM at " + settings.baseUrl() + " ("
        + describe(last) + ", " + attempts() + "): is the server running and the URL right?", last);
  }

  /** Sends one chat completion and returns its cleaned text; throws for anything unusable. */
  String complete(String userMessage, int cap) {
    String url = settings.chatCompletionsUrl();
    ObjectNode body = json.createObjectNode();
    body.put("model", settings.model());
    ArrayNode messages = body.putArray("messages");
    messages.addObject().put("role", "system").put("content", SummaryPrompt.SYSTEM_PROMPT);
    messages.addObject().put("role", "user").put("content", userMessage);
    body.put("temperature", 0);
    body.put("max_tokens", SummaryPrompt.answerRoom(cap));
    body.put("stream", false);
    String payload = LlmHttp.payload(json, body, url);
    okhttp3.Request req = authorised(new okhttp3.Request.Builder().url(url)
        .header("Accept", "application/json")
        .post(RequestBody.create(payload, JSON_TYPE))).build();
    Answer a = send(req, url);
    if (a.code() < 200 || a.code() >= 300) {
      String hint = a.code() == 404 ? " (is the base URL right? it usually ends in /v1; is the model name right?)"
          : a.code() == 401 || a.code() == 403 ? " (check the API key)" : "";
      throw new SummarizerException(url + " answered HTTP " + a.code() + hint + ": " + errorText(a.body()));
    }
    return parse(a, url);
  }

  private okhttp3.Request.Builder authorised(okhttp3.Request.Builder b) {
    return LlmHttp.authorised(b, settings);
  }

  private record Answer(int code, String contentType, String body) {}

  /** Sends with retries on connection errors, timeouts, 429 and 5xx; returns any other answer. */
  private Answer send(okhttp3.Request req, String url) {
    IOException lastIo = null;
    String lastProblem = null;
    long retryAfter = -1;
    for (int attempt = 0; attempt <= settings.maxRetries(); attempt++) {
      if (attempt > 0) {
        sleep(backoff(attempt, retryAfter), url);
      }
      retryAfter = -1;
      try {
        inFlight.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new SummarizerException("interrupted while waiting to call " + url, e);
      }
      try (Response resp = http.newCall(req).execute()) {
        String text = resp.body().string();
        int code = resp.code();
        if (code == 429 || code >= 500) {
          lastProblem = "HTTP " + code + ": " + errorText(text);
          lastIo = null;
          retryAfter = retryAfterMillis(resp.header("Retry-After"));
          continue;
        }
        String type = resp.header("Content-Type");
        return new Answer(code, type == null ? "" : type, text);
      } catch (InterruptedIOException e) {
        if (Thread.currentThread().isInterrupted() && !(e instanceof SocketTimeoutException)) {
          throw new SummarizerException("interrupted while calling " + url, e);
        }
        lastIo = e;
        lastProblem = describe(e);
      } catch (IOException e) {
        lastIo = e;
        lastProblem = describe(e);
      } finally {
        inFlight.release();
      }
    }
    if (lastIo != null) {
      throw new LlmUnavailableException("cannot reach the LLM at " + url + " (" + lastProblem + ", " + attempts()
          + ")", lastIo);
    }
    throw new LlmUnavailableException("the LLM at " + url + " is unavailable (" + lastProblem + ", " + attempts()
        + ")");
  }

  private String attempts() {
    int n = settings.maxRetries() + 1;
    return n == 1 ? "1 attempt" : n + " attempts";
  }

  /** Reads a 2xx answer: the text of {@code choices[0].message.content}, cleaned. */
  private String parse(Answer a, String url) {
    String body = a.body();
    String head = body.stripLeading();
    if (head.isEmpty()) {
      throw new SummarizerException(url + " answered HTTP " + a.code() + " with an empty body");
    }
    if (a.contentType().toLowerCase(Locale.ROOT).contains("html") || head.startsWith("<")) {
      throw new SummarizerException(url + " answered HTML instead of JSON (HTTP " + a.code() + "): "
          + snippet(head));
    }
    JsonNode root;
    try {
      root = json.readTree(body);
    } catch (IOException e) {
      throw new SummarizerException(url + " answered a body that is not valid JSON (not JSON, or truncated): "
          + snippet(head));
    }
    JsonNode choice = root.path("choices").path(0);
    JsonNode content = choice.path("message").path("content");
    if (!content.isTextual()) {
      String error = root.path("error").path("message").asText("");
      throw new SummarizerException(url + " answered JSON without choices[0].message.content"
          + (error.isEmpty() ? "" : " (error: " + snippet(error) + ")") + ": " + snippet(head));
    }
    String finish = choice.path("finish_reason").asText("");
    String text = SummaryPrompt.clean(content.asText());
    if ("length".equals(finish)) {
      // Cut off by max_tokens: keep the whole sentences, if any.
      String whole = TextCut.endsSentence(text) ? text : TextCut.atSentence(text, Integer.MAX_VALUE,
          s -> s.length());
      if (whole.isBlank()) {
        throw new SummarizerException(url + " cut its answer off (finish_reason \"length\") before a complete"
            + " sentence" + (text.isEmpty() ? " (no text at all)" : ": " + snippet(text)));
      }
      text = whole;
    }
    if (text.isBlank()) {
      throw new SummarizerException(url + " answered an empty summary (choices[0].message.content is empty)");
    }
    return text;
  }

  private static String errorText(String body) {
    return LlmHttp.errorText(body);
  }

  private static String snippet(String s) {
    return LlmHttp.snippet(s);
  }

  private long backoff(int attempt, long retryAfter) {
    long base = settings.retryBackoff().toMillis();
    long max = LlmSettings.MAX_BACKOFF.toMillis();
    long wait = Math.min(max, base << Math.min(attempt - 1, 20));
    // Jitter (50-100 %) keeps parallel callers from retrying in lockstep.
    wait = wait / 2 + (wait > 1 ? ThreadLocalRandom.current().nextLong(wait / 2 + 1) : 0);
    if (retryAfter >= 0) {
      wait = Math.max(wait, Math.min(max, retryAfter));
    }
    return wait;
  }

  private static long retryAfterMillis(String header) {
    if (header == null) {
      return -1;
    }
    try {
      return Math.max(0, Long.parseLong(header.strip())) * 1000L;
    } catch (NumberFormatException e) {
      return -1; // an HTTP date: use the backoff
    }
  }

  private static void sleep(long millis, String url) {
    if (millis <= 0) {
      return;
    }
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new SummarizerException("interrupted while waiting to retry " + url, e);
    }
  }

  private String describe(IOException e) {
    return LlmHttp.describe(e, settings);
  }

  /** Releases the connection pool and okhttp's threads. */
  @Override
  public void close() {
    LlmHttp.release(http);
  }
}

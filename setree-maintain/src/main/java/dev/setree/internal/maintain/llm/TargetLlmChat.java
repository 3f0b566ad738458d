package dev.setree.internal.maintain.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.spi.SummarizerException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import okhttp3.Call;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.RequestBody;
import okhttp3.Response;
import okio.BufferedSource;

/**
 * A conversation with the Target LLM, streamed: sends the messages to the OpenAI-compatible
 * {@code POST {baseUrl}/chat/completions} with {@code stream: true} and hands each piece of the answer to the
 * caller as it arrives (server-sent events, {@code choices[0].delta.content}). A server that ignores
 * {@code stream} and answers one JSON completion is accepted too: its whole text is one piece.
 *
 * <p>It shares {@link LlmSettings} and the HTTP set-up with {@link TargetLlmSummarizer}; the read timeout
 * bounds the wait for each piece (the first one included), so a stalled server ends the answer with an
 * error instead of a hang. It is not retried: a person is waiting. Thread-safe; close it to release the
 * connection pool.
 */
public final class TargetLlmChat implements AutoCloseable {
  private static final MediaType JSON_TYPE = MediaType.get("application/json; charset=utf-8");

  private final LlmSettings settings;
  private final OkHttpClient http;
  private final ObjectMapper json = new ObjectMapper();

  /** Creates the client; no request is made until {@link #stream} is called. */
  public TargetLlmChat(LlmSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.http = LlmHttp.client(settings);
  }

  /** The settings (their {@code toString} hides the API key). */
  public LlmSettings settings() {
    return settings;
  }

  /**
   * Asks for the answer to {@code messages} and streams it.
   *
   * @param messages the conversation, oldest first (the facade's {@code LlmChat.Message}s)
   * @param role a message's role: {@code system}, {@code user} or {@code assistant}
   * @param content a message's text
   * @param <M> the type of a message
   * @param maxTokens the {@code max_tokens} sent
   * @param onPiece called, on the calling thread, with each piece of the answer in order; if it throws, the
   *     request is cancelled and the exception propagates
   * @return the whole answer
   * @throws LlmUnavailableException naming the URL when no connection could be made, no piece came within
   *     the read timeout, or the server answered HTTP 429 or 5xx
   * @throws SummarizerException naming the URL for any other unusable answer (another error status, an
   *     answer that is neither an event stream nor a completion)
   */
  public <M> String stream(List<M> messages, Function<? super M, String> role, Function<? super M, String> content,
      int maxTokens, Consumer<String> onPiece) {
    String url = settings.chatCompletionsUrl();
    ObjectNode body = json.createObjectNode();
    body.put("model", settings.model());
    ArrayNode list = body.putArray("messages");
    for (M m : messages) {
      list.addObject().put("role", role.apply(m)).put("content", content.apply(m));
    }
    body.put("max_tokens", maxTokens);
    body.put("stream", true);
    String payload = LlmHttp.payload(json, body, url);
    okhttp3.Request req = LlmHttp.authorised(new okhttp3.Request.Builder().url(url)
        .header("Accept", "text/event-stream, application/json")
        .post(RequestBody.create(payload, JSON_TYPE)), settings).build();
    Call call = http.newCall(req);
    try (Response resp = call.execute()) {
      int code = resp.code();
      if (code < 200 || code >= 300) {
        String text = LlmHttp.errorText(resp.body().string());
        if (code == 429 || code >= 500) {
          throw new LlmUnavailableException("the LLM at " + url + " is unavailable (HTTP " + code + ": " + text + ")");
        }
        String hint = code == 404 ? " (is the base URL right? it usually ends in /v1; is the model name right?)"
            : code == 401 || code == 403 ? " (check the API key)" : "";
        throw new SummarizerException(url + " answered HTTP " + code + hint + ": " + text);
      }
      String type = String.valueOf(resp.header("Content-Type")).toLowerCase(Locale.ROOT);
      if (!type.contains("event-stream")) {
        String whole = completion(resp.body().string(), url);
        onPiece.accept(whole);
        return whole;
      }
      return events(resp.body().source(), url, onPiece);
    } catch (InterruptedIOException e) {
      call.cancel();
      if (e instanceof SocketTimeoutException || !Thread.currentThread().isInterrupted()) {
        throw new LlmUnavailableException("the LLM at " + url + " did not answer in time ("
            + LlmHttp.describe(e, settings) + ")", e);
      }
      throw new SummarizerException("interrupted while calling " + url, e);
    } catch (IOException e) {
      throw new LlmUnavailableException("cannot reach the LLM at " + url + " (" + LlmHttp.describe(e, settings)
          + "): is the server running and the URL right?", e);
    } catch (RuntimeException e) {
      call.cancel();
      throw e;
    }
  }

  /** Reads the event stream up to {@code [DONE]} or its end, handing on each piece. */
  private String events(BufferedSource source, String url, Consumer<String> onPiece) throws IOException {
    StringBuilder all = new StringBuilder();
    String line;
    while ((line = source.readUtf8Line()) != null) {
      if (!line.startsWith("data:")) {
        continue; // blank separators, comments, event names
      }
      String data = line.substring(5).strip();
      if (data.equals("[DONE]")) {
        break;
      }
      JsonNode event;
      try {
        event = json.readTree(data);
      } catch (JsonProcessingException e) {
        throw new SummarizerException(url + " sent an event that is not JSON: " + LlmHttp.snippet(data));
      }
      if (event.has("error")) {
        throw new SummarizerException(url + " sent an error: " + LlmHttp.errorText(data));
      }
      String piece = event.path("choices").path(0).path("delta").path("content").asText("");
      if (!piece.isEmpty()) {
        all.append(piece);
        onPiece.accept(piece);
      }
    }
    return all.toString();
  }

  /** The text of a whole (non-streamed) completion. */
  private String completion(String body, String url) {
    try {
      JsonNode content = json.readTree(body).path("choices").path(0).path("message").path("content");
      if (content.isTextual()) {
        return content.asText();
      }
    } catch (JsonProcessingException e) {
      // said below
    }
    throw new SummarizerException(url + " answered neither an event stream nor a chat completion: "
        + LlmHttp.snippet(body.isBlank() ? "(empty body)" : body));
  }

  /** Releases the connection pool and the HTTP client's threads. */
  @Override
  public void close() {
    LlmHttp.release(http);
  }

  @Override
  public String toString() {
    return "TargetLlmChat[" + settings + "]";
  }
}

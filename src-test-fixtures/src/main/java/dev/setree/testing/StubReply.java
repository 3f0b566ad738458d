package dev.setree.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import mockwebserver3.MockResponse;
import mockwebserver3.SocketEffect;

/**
 * A scripted answer of a {@link StubLlmServer}: build one with the static factories, optionally
 * {@linkplain #delayed delayed}.
 */
public final class StubReply {
  private static final ObjectMapper JSON = new ObjectMapper();

  final Function<StubRequest, MockResponse> respond;
  final Duration delay;

  private StubReply(Function<StubRequest, MockResponse> respond, Duration delay) {
    this.respond = respond;
    this.delay = delay;
  }

  private static StubReply of(Function<StubRequest, MockResponse> respond) {
    return new StubReply(respond, Duration.ZERO);
  }

  /** The same reply, sent after {@code delay} (the request counts as in flight meanwhile). */
  public StubReply delayed(Duration delay) {
    return new StubReply(respond, Objects.requireNonNull(delay));
  }

  /**
   * The same reply, its body sent at most {@code bytes} every {@code period}: a streamed answer then
   * arrives piece by piece, as from a real model.
   */
  public StubReply throttled(long bytes, Duration period) {
    Function<StubRequest, MockResponse> plain = respond;
    return new StubReply(r -> plain.apply(r).newBuilder()
        .throttleBody(bytes, period.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS).build(), delay);
  }

  /** A valid chat completion with {@code text} as content and {@code finish_reason "stop"}. */
  public static StubReply summary(String text) {
    return summary(r -> text);
  }

  /** A valid chat completion whose content is computed from the request. */
  public static StubReply summary(Function<StubRequest, String> text) {
    return of(r -> completion(r, text.apply(r), "stop"));
  }

  /** A whole chat completion with {@code text}, even when the request asks for a stream (a server that does not stream). */
  public static StubReply unstreamed(String text) {
    return of(r -> completion(r, text, "stop", false));
  }

  /** A chat completion cut off by the token limit: {@code finish_reason "length"} with {@code partial}. */
  public static StubReply cutOff(String partial) {
    return of(r -> completion(r, partial, "length"));
  }

  /** A valid chat completion whose content is empty. */
  public static StubReply emptyContent() {
    return of(r -> completion(r, "", "stop"));
  }

  /** An HTTP status with an OpenAI-style error body. */
  public static StubReply status(int code) {
    return of(r -> StubLlmServer.json(code, "{\"error\":{\"message\":\"stub error " + code + "\",\"type\":\"server_error\"}}"));
  }

  /** HTTP 429 with a {@code Retry-After} of {@code seconds}. */
  public static StubReply tooManyRequests(int seconds) {
    return of(r -> new MockResponse.Builder().code(429).setHeader("Retry-After", seconds)
        .setHeader("Content-Type", "application/json")
        .body("{\"error\":{\"message\":\"rate limited\",\"type\":\"rate_limit\"}}").build());
  }

  /** HTTP 200 with an HTML page, as a proxy or a captive portal would send. */
  public static StubReply html() {
    return of(r -> new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
        .body("<!DOCTYPE html><html><body><h1>Welcome to nginx!</h1></body></html>").build());
  }

  /** HTTP 200 with plain text that is not JSON. */
  public static StubReply notJson() {
    return of(r -> new MockResponse.Builder().code(200).setHeader("Content-Type", "text/plain")
        .body("The user likes cooking.").build());
  }

  /** HTTP 200 with a JSON document cut off in the middle. */
  public static StubReply truncatedJson() {
    return of(r -> StubLlmServer.json(200, "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
        + "\"content\":\"The user li"));
  }

  /** HTTP 200 with valid JSON that has no {@code choices}. */
  public static StubReply noChoices() {
    return of(r -> StubLlmServer.json(200, "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[]}"));
  }

  /** HTTP 200 with an empty body. */
  public static StubReply emptyBody() {
    return of(r -> new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json").body("")
        .build());
  }

  /** Closes the connection without answering (an I/O error on the client). */
  public static StubReply disconnect() {
    return of(r -> new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build());
  }

  /** Any response a test builds itself. */
  public static StubReply raw(Function<StubRequest, MockResponse> respond) {
    return of(Objects.requireNonNull(respond));
  }

  private static MockResponse completion(StubRequest r, String text, String finish) {
    return completion(r, text, finish, r.streamed());
  }

  private static MockResponse completion(StubRequest r, String text, String finish, boolean streamed) {
    if (streamed) {
      return events(r, text, finish);
    }
    ObjectNode root = JSON.createObjectNode();
    root.put("id", "chatcmpl-stub");
    root.put("object", "chat.completion");
    root.put("created", 1_700_000_000L);
    root.put("model", r.model().isEmpty() ? StubLlmServer.MODEL : r.model());
    ObjectNode choice = root.putArray("choices").addObject();
    choice.put("index", 0);
    choice.putObject("message").put("role", "assistant").put("content", text);
    choice.put("finish_reason", finish);
    ObjectNode usage = root.putObject("usage");
    usage.put("prompt_tokens", r.body().length() / 4);
    usage.put("completion_tokens", text.length() / 4);
    try {
      return StubLlmServer.json(200, JSON.writeValueAsString(root));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * The answer as server-sent events, the way a server answers {@code stream: true}: one
   * {@code chat.completion.chunk} per word (with its following space), one with the finish reason, then
   * {@code data: [DONE]}.
   */
  private static MockResponse events(StubRequest r, String text, String finish) {
    StringBuilder body = new StringBuilder();
    java.util.regex.Matcher words = java.util.regex.Pattern.compile("\\S+\\s*|\\s+").matcher(text);
    while (words.find()) {
      body.append(chunk(r, words.group(), null));
    }
    body.append(chunk(r, null, finish)).append("data: [DONE]\n\n");
    return new MockResponse.Builder().code(200).setHeader("Content-Type", "text/event-stream")
        .setHeader("Cache-Control", "no-cache").body(body.toString()).build();
  }

  private static String chunk(StubRequest r, String piece, String finish) {
    ObjectNode root = JSON.createObjectNode();
    root.put("id", "chatcmpl-stub");
    root.put("object", "chat.completion.chunk");
    root.put("model", r.model().isEmpty() ? StubLlmServer.MODEL : r.model());
    ObjectNode choice = root.putArray("choices").addObject();
    choice.put("index", 0);
    ObjectNode delta = choice.putObject("delta");
    if (piece != null) {
      delta.put("content", piece);
    }
    if (finish == null) {
      choice.putNull("finish_reason");
    } else {
      choice.put("finish_reason", finish);
    }
    try {
      return "data: " + JSON.writeValueAsString(root) + "\n\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}

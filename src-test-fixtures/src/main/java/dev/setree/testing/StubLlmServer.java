package dev.setree.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;

/**
 * A scriptable OpenAI-compatible LLM server for tests, on loopback: answers {@code POST /v1/chat/completions}
 * and {@code GET /v1/models} the way llama-server or Ollama would, or with whatever failure a test scripts
 * (error statuses, delays, HTML, non-JSON, truncated JSON, empty content, dropped connections). It logs
 * every request so a test can assert what was asked. Host applications can use it too.
 *
 * <pre>{@code
 * try (StubLlmServer llm = StubLlmServer.start()) {
 *   llm.defaultReply(StubLlmServer.Reply.summary("The user cooks."));
 *   llm.enqueue(StubLlmServer.Reply.status(500));          // the first request fails, the next succeed
 *   LlmSettings s = LlmSettings.builder().baseUrl(llm.baseUrl()).model("stub").build();
 *   ...
 *   String prompt = llm.chatRequests().get(0).userMessage();
 * }
 * }</pre>
 *
 * <p>A request with {@code "stream": true} gets its completion as server-sent events
 * ({@code text/event-stream}: one {@code chat.completion.chunk} per word, then {@code data: [DONE]}); the
 * failure replies are the same either way.
 *
 * <p>Which reply a chat request gets: the next {@linkplain #enqueue queued} one, else the first
 * {@linkplain #when rule} that matches, else the {@linkplain #defaultReply default} (a valid summary,
 * {@value #DEFAULT_SUMMARY}). Thread-safe.
 */
public final class StubLlmServer implements AutoCloseable {
  /** The text of the default reply. */
  public static final String DEFAULT_SUMMARY = "Stub summary.";
  /** The model id listed by {@code GET /v1/models}. */
  public static final String MODEL = "stub-model";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final MockWebServer server = new MockWebServer();
  private final Deque<Reply> queue = new ArrayDeque<>();
  private final List<Rule> rules = new ArrayList<>();
  private final List<StubRequest> log = new ArrayList<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private final AtomicInteger completions = new AtomicInteger();
  private volatile Reply fallback = Reply.summary(DEFAULT_SUMMARY);
  private volatile boolean closed;
  /** While not null, chat replies wait for it (see {@link #holdReplies()}). */
  private volatile CountDownLatch gate;
  private volatile int modelsStatus = 200;
  private volatile List<String> models = List.of(MODEL);

  private record Rule(Predicate<StubRequest> when, Reply reply) {}

  private StubLlmServer() {}

  /** Starts a server on a free loopback port. */
  public static StubLlmServer start() {
    StubLlmServer s = new StubLlmServer();
    s.server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        return s.dispatch(request);
      }
    });
    try {
      s.server.start(InetAddress.getLoopbackAddress(), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the stub LLM server", e);
    }
    return s;
  }

  /**
   * A base URL on loopback where nothing listens (a port just bound and released), so connections are
   * refused: a dead endpoint.
   */
  public static String deadBaseUrl() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Scripts {@code GET /v1/models}: these ids (an empty list for a server without a loaded model), or, for a
   * status other than 200, that HTTP error (a server without the endpoint). Default: 200 with {@link #MODEL}.
   */
  public StubLlmServer models(int status, String... ids) {
    this.modelsStatus = status;
    this.models = List.of(ids);
    return this;
  }

  /** The base URL to configure, {@code http://127.0.0.1:PORT/v1}. */
  public String baseUrl() {
    return "http://" + server.getHostName() + ":" + server.getPort() + "/v1";
  }

  /** The reply of every chat request that no queued reply or rule answers. */
  public StubLlmServer defaultReply(Reply reply) {
    fallback = Objects.requireNonNull(reply);
    return this;
  }

  /** Queues one-shot replies for the next chat requests, in order. */
  public synchronized StubLlmServer enqueue(Reply... replies) {
    for (Reply r : replies) {
      queue.add(Objects.requireNonNull(r));
    }
    return this;
  }

  /** Answers every chat request matching {@code when} with {@code reply} (first matching rule wins). */
  public synchronized StubLlmServer when(Predicate<StubRequest> when, Reply reply) {
    rules.add(new Rule(Objects.requireNonNull(when), Objects.requireNonNull(reply)));
    return this;
  }

  /** Answers every chat request whose user message contains {@code text} with {@code reply}. */
  public StubLlmServer whenUserMessageContains(String text, Reply reply) {
    return when(r -> r.userMessage().contains(text), reply);
  }

  /** Every request received, in arrival order (chat completions and model listings). */
  public synchronized List<StubRequest> requests() {
    return List.copyOf(log);
  }

  /** The chat-completion requests received, in arrival order. */
  public synchronized List<StubRequest> chatRequests() {
    return log.stream().filter(StubRequest::isChatCompletion).toList();
  }

  /** The number of chat-completion requests received. */
  public int chatRequestCount() {
    return completions.get();
  }

  /** The most chat requests that were being answered at the same time. */
  public int maxInFlight() {
    return maxInFlight.get();
  }

  /**
   * Holds every chat reply until {@link #releaseReplies()}, so a test can see how many requests are in
   * flight at once without racing a delay ({@link #awaitInFlight}).
   */
  public void holdReplies() {
    gate = new CountDownLatch(1);
  }

  /** Lets held chat replies (and later ones) go. */
  public void releaseReplies() {
    CountDownLatch g = gate;
    gate = null;
    if (g != null) {
      g.countDown();
    }
  }

  /**
   * Waits until {@code n} chat requests are being answered at the same time (held by
   * {@link #holdReplies()}); returns false if that does not happen within {@code timeout}.
   */
  public boolean awaitInFlight(int n, Duration timeout) throws InterruptedException {
    long end = System.nanoTime() + timeout.toNanos();
    synchronized (inFlight) {
      while (inFlight.get() < n) {
        long left = end - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        inFlight.wait(Math.max(1, left / 1_000_000));
      }
      return true;
    }
  }

  private MockResponse dispatch(RecordedRequest rr) {
    String path = rr.getUrl().encodedPath();
    String body = rr.getBody() == null ? "" : rr.getBody().utf8();
    StubRequest req = new StubRequest(rr.getMethod(), path, rr.getHeaders().get("Authorization"), body);
    Reply reply;
    synchronized (this) {
      log.add(req);
      if (!req.isChatCompletion()) {
        reply = null;
      } else if (!queue.isEmpty()) {
        reply = queue.poll();
      } else {
        reply = fallback;
        for (Rule rule : rules) {
          if (rule.when().test(req)) {
            reply = rule.reply();
            break;
          }
        }
      }
    }
    if (req.isModels()) {
      if (modelsStatus != 200) {
        return json(modelsStatus, "{\"error\":{\"message\":\"no models endpoint\"}}");
      }
      StringBuilder data = new StringBuilder();
      for (String id : models) {
        data.append(data.length() == 0 ? "" : ",").append("{\"id\":\"").append(id).append("\",\"object\":\"model\"}");
      }
      return json(200, "{\"object\":\"list\",\"data\":[" + data + "]}");
    }
    if (reply == null) {
      return json(404, "{\"error\":{\"message\":\"no route " + rr.getMethod() + " " + path + "\"}}");
    }
    completions.incrementAndGet();
    int now;
    synchronized (inFlight) {
      now = inFlight.incrementAndGet();
      inFlight.notifyAll();
    }
    maxInFlight.accumulateAndGet(now, Math::max);
    try {
      CountDownLatch g = gate;
      if (g != null) {
        try {
          g.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      pause(reply.delay);
      return reply.respond.apply(req);
    } finally {
      inFlight.decrementAndGet();
    }
  }

  private void pause(Duration d) {
    long end = System.nanoTime() + d.toNanos();
    while (!closed && System.nanoTime() < end) {
      try {
        Thread.sleep(Math.min(20, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
  }

  /** Stops the server. */
  @Override
  public void close() {
    closed = true;
    releaseReplies();
    server.close();
  }

  /**
   * One request as received.
   *
   * @param method the HTTP method
   * @param path the URL path, for example {@code /v1/chat/completions}
   * @param authorization the {@code Authorization} header, or null
   * @param body the request body as text
   */
  public record StubRequest(String method, String path, String authorization, String body) {

    /** Whether this is a {@code POST /v1/chat/completions}. */
    public boolean isChatCompletion() {
      return "POST".equals(method) && path.equals("/v1/chat/completions");
    }

    /** Whether this is a {@code GET /v1/models}. */
    public boolean isModels() {
      return "GET".equals(method) && path.equals("/v1/models");
    }

    /** The body as JSON (a missing node when it is not JSON). */
    public JsonNode json() {
      try {
        return body.isBlank() ? MissingNode.getInstance() : JSON.readTree(body);
      } catch (JsonProcessingException e) {
        return MissingNode.getInstance();
      }
    }

    /** The content of the first message with role {@code system} ("" when none). */
    public String systemPrompt() {
      return message("system");
    }

    /** The content of the last message with role {@code user} ("" when none). */
    public String userMessage() {
      return message("user");
    }

    /** The {@code model} asked for. */
    public String model() {
      return json().path("model").asText("");
    }

    /** Whether the request asks for a streamed answer ({@code "stream": true}). */
    public boolean streamed() {
      return json().path("stream").asBoolean(false);
    }

    /** The {@code max_tokens} asked for (-1 when absent). */
    public int maxTokens() {
      return json().path("max_tokens").asInt(-1);
    }

    /** The lines between {@code <facts>} and {@code </facts>} in the user message. */
    public List<String> factLines() {
      List<String> out = new ArrayList<>();
      boolean in = false;
      for (String line : userMessage().split("\n")) {
        if (line.strip().equals("<facts>")) {
          in = true;
        } else if (line.strip().equals("</facts>")) {
          in = false;
        } else if (in) {
          out.add(line);
        }
      }
      return out;
    }

    private String message(String role) {
      String found = "";
      for (JsonNode m : json().path("messages")) {
        if (role.equals(m.path("role").asText())) {
          found = m.path("content").asText("");
          if (role.equals("system")) {
            return found;
          }
        }
      }
      return found;
    }
  }

  /** A scripted answer: build one with the static factories, optionally {@linkplain #delayed delayed}. */
  public static final class Reply {
    private final Function<StubRequest, MockResponse> respond;
    private final Duration delay;

    private Reply(Function<StubRequest, MockResponse> respond, Duration delay) {
      this.respond = respond;
      this.delay = delay;
    }

    private static Reply of(Function<StubRequest, MockResponse> respond) {
      return new Reply(respond, Duration.ZERO);
    }

    /** The same reply, sent after {@code delay} (the request counts as in flight meanwhile). */
    public Reply delayed(Duration delay) {
      return new Reply(respond, Objects.requireNonNull(delay));
    }

    /**
     * The same reply, its body sent at most {@code bytes} every {@code period}: a streamed answer then
     * arrives piece by piece, as from a real model.
     */
    public Reply throttled(long bytes, Duration period) {
      Function<StubRequest, MockResponse> plain = respond;
      return new Reply(r -> plain.apply(r).newBuilder()
          .throttleBody(bytes, period.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS).build(), delay);
    }

    /** A valid chat completion with {@code text} as content and {@code finish_reason "stop"}. */
    public static Reply summary(String text) {
      return summary(r -> text);
    }

    /** A valid chat completion whose content is computed from the request. */
    public static Reply summary(Function<StubRequest, String> text) {
      return of(r -> completion(r, text.apply(r), "stop"));
    }

    /** A whole chat completion with {@code text}, even when the request asks for a stream (a server that does not stream). */
    public static Reply unstreamed(String text) {
      return of(r -> completion(r, text, "stop", false));
    }

    /** A chat completion cut off by the token limit: {@code finish_reason "length"} with {@code partial}. */
    public static Reply cutOff(String partial) {
      return of(r -> completion(r, partial, "length"));
    }

    /** A valid chat completion whose content is empty. */
    public static Reply emptyContent() {
      return of(r -> completion(r, "", "stop"));
    }

    /** An HTTP status with an OpenAI-style error body. */
    public static Reply status(int code) {
      return of(r -> json(code, "{\"error\":{\"message\":\"stub error " + code + "\",\"type\":\"server_error\"}}"));
    }

    /** HTTP 429 with a {@code Retry-After} of {@code seconds}. */
    public static Reply tooManyRequests(int seconds) {
      return of(r -> new MockResponse.Builder().code(429).setHeader("Retry-After", seconds)
          .setHeader("Content-Type", "application/json")
          .body("{\"error\":{\"message\":\"rate limited\",\"type\":\"rate_limit\"}}").build());
    }

    /** HTTP 200 with an HTML page, as a proxy or a captive portal would send. */
    public static Reply html() {
      return of(r -> new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
          .body("<!DOCTYPE html><html><body><h1>Welcome to nginx!</h1></body></html>").build());
    }

    /** HTTP 200 with plain text that is not JSON. */
    public static Reply notJson() {
      return of(r -> new MockResponse.Builder().code(200).setHeader("Content-Type", "text/plain")
          .body("The user likes cooking.").build());
    }

    /** HTTP 200 with a JSON document cut off in the middle. */
    public static Reply truncatedJson() {
      return of(r -> json(200, "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
          + "\"content\":\"The user li"));
    }

    /** HTTP 200 with valid JSON that has no {@code choices}. */
    public static Reply noChoices() {
      return of(r -> json(200, "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[]}"));
    }

    /** HTTP 200 with an empty body. */
    public static Reply emptyBody() {
      return of(r -> new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json").body("")
          .build());
    }

    /** Closes the connection without answering (an I/O error on the client). */
    public static Reply disconnect() {
      return of(r -> new MockResponse.Builder().onResponseStart(new SocketEffect.CloseSocket()).build());
    }

    /** Any response a test builds itself. */
    public static Reply raw(Function<StubRequest, MockResponse> respond) {
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
      root.put("model", r.model().isEmpty() ? MODEL : r.model());
      ObjectNode choice = root.putArray("choices").addObject();
      choice.put("index", 0);
      choice.putObject("message").put("role", "assistant").put("content", text);
      choice.put("finish_reason", finish);
      ObjectNode usage = root.putObject("usage");
      usage.put("prompt_tokens", r.body().length() / 4);
      usage.put("completion_tokens", text.length() / 4);
      try {
        return json(200, JSON.writeValueAsString(root));
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
      root.put("model", r.model().isEmpty() ? MODEL : r.model());
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
}

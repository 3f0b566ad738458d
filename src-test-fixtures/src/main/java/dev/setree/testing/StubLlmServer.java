package dev.setree.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * A scriptable OpenAI-compatible LLM server for tests, on loopback: answers {@code POST /v1/chat/completions}
 * and {@code GET /v1/models} the way llama-server or Ollama would, or with whatever failure a test scripts
 * (error statuses, delays, HTML, non-JSON, truncated JSON, empty content, dropped connections). It logs
 * every request so a test can assert what was asked. Host applications can use it too.
 *
 * <pre>{@code
 * try (StubLlmServer llm = StubLlmServer.start()) {
 *   llm.defaultReply(StubReply.summary("The user cooks."));
 *   llm.enqueue(StubReply.status(500));          // the first request fails, the next succeed
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
  private final Deque<StubReply> queue = new ArrayDeque<>();
  private final List<Rule> rules = new ArrayList<>();
  private final List<StubRequest> log = new ArrayList<>();
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicInteger maxInFlight = new AtomicInteger();
  private final AtomicInteger completions = new AtomicInteger();
  private volatile StubReply fallback = StubReply.summary(DEFAULT_SUMMARY);
  private volatile boolean closed;
  /** While not null, chat replies wait for it (see {@link #holdReplies()}). */
  private volatile CountDownLatch gate;
  private volatile int modelsStatus = 200;
  private volatile List<String> models = List.of(MODEL);

  private record Rule(Predicate<StubRequest> when, StubReply reply) {}

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

  /** Sockets bound to a port and never listening, kept for the JVM's life: see {@link #deadBaseUrl}. */
  private static final List<Socket> DEAD_PORTS = new ArrayList<>();

  /**
   * A base URL on loopback where nothing listens, so connections are refused: a dead endpoint. Its port stays
   * bound (by a socket that never listens) for as long as this JVM runs, so that no server started later, in this
   * process or another, is given it (a port bound and released at once was, now and then, given to the very host
   * under test, which then answered for the dead LLM).
   */
  public static String deadBaseUrl() {
    Socket socket = new Socket();
    try {
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    } catch (IOException e) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // the bind's failure is the one to report
      }
      throw new UncheckedIOException(e);
    }
    synchronized (DEAD_PORTS) {
      DEAD_PORTS.add(socket);
    }
    return "http://127.0.0.1:" + socket.getLocalPort() + "/v1";
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
  public StubLlmServer defaultReply(StubReply reply) {
    fallback = Objects.requireNonNull(reply);
    return this;
  }

  /** Queues one-shot replies for the next chat requests, in order. */
  public synchronized StubLlmServer enqueue(StubReply... replies) {
    for (StubReply r : replies) {
      queue.add(Objects.requireNonNull(r));
    }
    return this;
  }

  /** Answers every chat request matching {@code when} with {@code reply} (first matching rule wins). */
  public synchronized StubLlmServer when(Predicate<StubRequest> when, StubReply reply) {
    rules.add(new Rule(Objects.requireNonNull(when), Objects.requireNonNull(reply)));
    return this;
  }

  /** Answers every chat request whose user message contains {@code text} with {@code reply}. */
  public StubLlmServer whenUserMessageContains(String text, StubReply reply) {
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
    StubReply reply;
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

  static MockResponse json(int code, String body) {
    return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
  }

  /** Stops the server. */
  @Override
  public void close() {
    closed = true;
    releaseReplies();
    server.close();
  }
}

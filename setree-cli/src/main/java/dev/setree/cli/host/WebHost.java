package dev.setree.cli.host;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.setree.LlmChat;
import dev.setree.LlmConfig;
import dev.setree.SETree;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves one open knowledge base to a browser on {@code 127.0.0.1}: the page (static files of this package)
 * and its JSON API ({@link KnowledgeBaseRoutes}, {@link EditRoutes}, {@link ChatRelay}), every request first
 * through the {@link HostGuard}. Built on the JDK's {@code com.sun.net.httpserver} (ADR 0016). The host does
 * not own the knowledge base: closing it stops the server, and the caller closes the {@link SETree}.
 *
 * <pre>{@code
 * try (SETree kb = SETree.open(db); WebHost host = WebHost.start(kb, WebHost.Options.of(0))) {
 *   System.out.println(host.url()); // http://127.0.0.1:PORT/#token=...
 * }
 * }</pre>
 */
public final class WebHost implements AutoCloseable {
  private static final int THREADS = 8;

  private final HttpServer server;
  private final ExecutorService executor;
  private final String token;
  private final LlmChat chat;
  private final Map<String, Route> routes = new HashMap<>();
  private final HostGuard guard;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * How to serve.
   *
   * @param port the loopback port; 0 for any free one
   * @param llm the Target LLM the chat asks, or null when none is configured (the chat then says how to
   *     configure one)
   * @param howToConfigureLlm what the chat says when {@code llm} is null: the flags to pass
   */
  public record Options(int port, LlmConfig llm, String howToConfigureLlm) {
    /** Checks the port. */
    public Options {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("--port must be in [0, 65535], got " + port);
      }
      Objects.requireNonNull(howToConfigureLlm, "howToConfigureLlm");
    }

    /** No LLM, with the {@code setree host} flags as the hint. */
    public static Options of(int port) {
      return withLlm(port, null);
    }

    /** This LLM (or none, when null, with the {@code setree host} flags as the hint). */
    public static Options withLlm(int port, LlmConfig llm) {
      return new Options(port, llm, ChatRelay.hint("FILE"));
    }

    /** This LLM (or none, when null, with the {@code setree host} flags for {@code db} as the hint). */
    public static Options withLlm(int port, LlmConfig llm, String db) {
      return new Options(port, llm, ChatRelay.hint(db));
    }
  }

  /** One API or file route: answers the exchange (the guard has passed it). */
  interface Route {
    void handle(HttpExchange ex) throws IOException;
  }

  private WebHost(SETree kb, Options options) throws IOException {
    this.token = newToken();
    // 127.0.0.1 itself (not getLoopbackAddress(), which is ::1 when IPv6 is preferred): the URL names it.
    InetAddress loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    this.server = HttpServer.create(new InetSocketAddress(loopback, options.port()), 64);
    this.guard = new HostGuard(server.getAddress().getPort(), token);
    this.chat = options.llm() == null ? null : new LlmChat(options.llm());
    AtomicInteger n = new AtomicInteger();
    this.executor = Executors.newFixedThreadPool(THREADS, r -> {
      Thread t = new Thread(r, "setree-host-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    new StaticAssets().register(routes);
    new KnowledgeBaseRoutes(kb, chat).register(routes);
    new EditRoutes(kb).register(routes);
    new ChatRelay(kb, chat, options.howToConfigureLlm()).register(routes);
    server.createContext("/", this::dispatch);
    server.setExecutor(executor);
  }

  /**
   * Starts serving {@code kb}.
   *
   * @throws IOException when the port cannot be bound
   */
  public static WebHost start(SETree kb, Options options) throws IOException {
    WebHost host = new WebHost(Objects.requireNonNull(kb, "kb"), Objects.requireNonNull(options, "options"));
    host.server.start();
    return host;
  }

  /** The port served on. */
  public int port() {
    return server.getAddress().getPort();
  }

  /** The page's URL with the run's token: the only way into the API. */
  public String url() {
    return "http://127.0.0.1:" + port() + "/#token=" + token;
  }

  /** The run's token (for tests and for clients other than the page). */
  public String token() {
    return token;
  }

  private void dispatch(HttpExchange ex) throws IOException {
    try (ex) {
      HostGuard.secure(ex);
      HostGuard.Refusal no = guard.refusal(ex);
      if (no != null) {
        drain(ex);
        Exchanges.error(ex, no.status(), no.reason());
        return;
      }
      Route r = routes.get(ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
      if (r == null) {
        drain(ex);
        Exchanges.error(ex, 404, "no route " + ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
        return;
      }
      try {
        r.handle(ex);
      } catch (Exchanges.HttpError e) {
        Exchanges.error(ex, e.status, e.getMessage());
      } catch (IllegalArgumentException e) {
        Exchanges.error(ex, 400, e.getMessage());
      } catch (IllegalStateException e) {
        Exchanges.error(ex, 409, e.getMessage());
      } catch (RuntimeException e) {
        Exchanges.error(ex, 500, "internal error: " + e);
      }
    } catch (IOException e) {
      // the browser went away: nothing to answer
    }
  }

  /** Reads and drops a bounded part of an unused body, so the connection can answer. */
  private static void drain(HttpExchange ex) throws IOException {
    ex.getRequestBody().readNBytes(Exchanges.MAX_BODY_BYTES);
  }

  private static String newToken() {
    byte[] b = new byte[24];
    new SecureRandom().nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** Stops the server (open chat streams are cut) and the LLM client. Idempotent. */
  @Override
  public void close() {
    if (closed.getAndSet(true)) {
      return;
    }
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (chat != null) {
      chat.close();
    }
  }
}

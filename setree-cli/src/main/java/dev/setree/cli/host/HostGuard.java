package dev.setree.cli.host;

import com.sun.net.httpserver.HttpExchange;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Locale;

/**
 * The web host's front door: every request passes {@link #refusal} before any route sees it. It refuses a
 * {@code Host} or {@code Origin} that is not the loopback address the host serves (DNS rebinding: a page of
 * another site that resolves its name to 127.0.0.1 still sends its own name), an API request without the
 * run's token, and an over-long URL; and it sets the security headers of every answer.
 */
final class HostGuard {
  /** The header the page sends the token in (a custom header also forces a CORS preflight). */
  static final String TOKEN_HEADER = "X-SETree-Token";
  /** The longest request URL accepted, in characters. */
  static final int MAX_URI_CHARS = 4096;
  /** The Content-Security-Policy of every answer: only this origin's files, no inline script or style. */
  static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self';"
      + " img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private final List<String> hosts;
  private final List<String> origins;
  private final byte[] token;

  /**
   * A guard for a host on {@code 127.0.0.1:port} with this token.
   *
   * @param port the port the host listens on
   * @param token the per-run secret the printed URL carries
   */
  HostGuard(int port, String token) {
    this.hosts = List.of("127.0.0.1:" + port, "localhost:" + port);
    this.origins = List.of("http://127.0.0.1:" + port, "http://localhost:" + port);
    this.token = token.getBytes(StandardCharsets.UTF_8);
  }

  /** A refused request: the HTTP status and the reason sent back. */
  record Refusal(int status, String reason) {}

  /** Why this request is refused, or null when it may go on. */
  Refusal refusal(HttpExchange ex) {
    String uri = ex.getRequestURI().toString();
    if (uri.length() > MAX_URI_CHARS) {
      return new Refusal(414, "the URL is longer than " + MAX_URI_CHARS + " characters");
    }
    String host = ex.getRequestHeaders().getFirst("Host");
    if (host == null || !hosts.contains(host.toLowerCase(Locale.ROOT))) {
      return new Refusal(403, "Host '" + host + "' is not the address this host serves (" + hosts.get(0) + ")");
    }
    String origin = ex.getRequestHeaders().getFirst("Origin");
    if (origin != null && !origins.contains(origin.toLowerCase(Locale.ROOT))) {
      return new Refusal(403, "Origin '" + origin + "' is not this host (" + origins.get(0) + ")");
    }
    if (ex.getRequestURI().getPath().startsWith("/api/") && !tokenMatches(ex)) {
      return new Refusal(401, "missing or wrong token: open the URL that setree host printed (it carries the"
          + " token after #token=)");
    }
    return null;
  }

  private boolean tokenMatches(HttpExchange ex) {
    String given = ex.getRequestHeaders().getFirst(TOKEN_HEADER);
    return given != null && MessageDigest.isEqual(token, given.getBytes(StandardCharsets.UTF_8));
  }

  /** Sets the headers every answer carries: CSP, no sniffing, no framing, no referrer, no caching. */
  static void secure(HttpExchange ex) {
    var h = ex.getResponseHeaders();
    h.set("Content-Security-Policy", CSP);
    h.set("X-Content-Type-Options", "nosniff");
    h.set("X-Frame-Options", "DENY");
    h.set("Referrer-Policy", "no-referrer");
    h.set("Cache-Control", "no-store");
    h.set("Cross-Origin-Resource-Policy", "same-origin");
  }
}

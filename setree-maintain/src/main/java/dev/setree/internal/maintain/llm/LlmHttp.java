package dev.setree.internal.maintain.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.setree.spi.SummarizerException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import okhttp3.OkHttpClient;

/**
 * What the Target LLM's clients share: the HTTP client made from {@link LlmSettings}, the bearer header, and
 * how a connection problem is said in an error message.
 */
final class LlmHttp {
  private static final int SNIPPET = 160;
  private static final ObjectMapper JSON = new ObjectMapper();

  private LlmHttp() {}

  /** An error answer in words: its {@code error.message}, else the start of the body. */
  static String errorText(String body) {
    try {
      JsonNode root = JSON.readTree(body);
      String m = root.path("error").path("message").asText("");
      if (!m.isEmpty()) {
        return snippet(m);
      }
    } catch (IOException | RuntimeException e) {
      // not JSON: show the start of the body
    }
    return body.isBlank() ? "(empty body)" : snippet(body.strip());
  }

  /** The text on one line, quoted, cut after {@value #SNIPPET} characters. */
  static String snippet(String s) {
    String one = s.replaceAll("\\s+", " ");
    return one.length() <= SNIPPET ? "'" + one + "'" : "'" + one.substring(0, SNIPPET) + "...'";
  }

  /** An HTTP client with the settings' timeouts, no silent retries and no redirects. */
  static OkHttpClient client(LlmSettings settings) {
    return new OkHttpClient.Builder()
        .connectTimeout(settings.connectTimeout())
        .readTimeout(settings.readTimeout())
        .writeTimeout(settings.readTimeout())
        .retryOnConnectionFailure(false)
        .followRedirects(false)
        .build();
  }

  /** The request with the API key as a bearer token, when one is set. */
  static okhttp3.Request.Builder authorised(okhttp3.Request.Builder b, LlmSettings settings) {
    if (settings.hasApiKey()) {
      b.header("Authorization", "Bearer " + settings.apiKey());
    }
    return b;
  }

  /** The request body as JSON text. */
  static String payload(ObjectMapper json, JsonNode body, String url) {
    try {
      return json.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new SummarizerException("cannot encode the request for " + url, e);
    }
  }

  /** Releases the client's connection pool and threads. */
  static void release(OkHttpClient http) {
    http.dispatcher().executorService().shutdown();
    http.connectionPool().evictAll();
  }

  /** A connection problem in words: refused, which timeout, unknown host... */
  static String describe(IOException e, LlmSettings settings) {
    if (e == null) {
      return "no attempt";
    }
    if (e instanceof ConnectException) {
      return "connection refused";
    }
    if (e instanceof SocketTimeoutException) {
      String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
      return m.contains("connect") ? "connect timed out after " + settings.connectTimeout().toMillis() + " ms"
          : "no answer within the read timeout of " + settings.readTimeout().toMillis() + " ms";
    }
    if (e instanceof UnknownHostException) {
      return "unknown host " + e.getMessage();
    }
    if (e instanceof NoRouteToHostException) {
      return "no route to host";
    }
    return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
  }
}

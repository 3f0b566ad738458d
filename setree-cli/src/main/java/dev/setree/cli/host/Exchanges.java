package dev.setree.cli.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** Reading requests and writing answers of the web host: bounded bodies, JSON in and out, errors as JSON. */
final class Exchanges {
  /** The largest request body accepted, in bytes (a fact holds at most 20,000 characters). */
  static final int MAX_BODY_BYTES = 128 * 1024;
  static final ObjectMapper JSON = new ObjectMapper();

  private Exchanges() {}

  /** A request the host refuses with this status and message (sent back as JSON). */
  static final class HttpError extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int status;

    HttpError(int status, String message) {
      super(message);
      this.status = status;
    }
  }

  /** The JSON body of a POST, at most {@value #MAX_BODY_BYTES} bytes. */
  static JsonNode body(HttpExchange ex) throws IOException {
    String type = ex.getRequestHeaders().getFirst("Content-Type");
    if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      throw new HttpError(415, "send the request as application/json");
    }
    String length = ex.getRequestHeaders().getFirst("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length.strip()) > MAX_BODY_BYTES) {
          throw tooLarge();
        }
      } catch (NumberFormatException e) {
        throw new HttpError(400, "bad Content-Length");
      }
    }
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    try (InputStream in = ex.getRequestBody()) {
      byte[] chunk = new byte[8192];
      int n;
      while ((n = in.read(chunk)) > 0) {
        if (buf.size() + n > MAX_BODY_BYTES) {
          throw tooLarge();
        }
        buf.write(chunk, 0, n);
      }
    }
    try {
      JsonNode node = JSON.readTree(buf.toByteArray());
      if (node == null || !node.isObject()) {
        throw new HttpError(400, "the body must be a JSON object");
      }
      return node;
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new HttpError(400, "the body is not valid JSON");
    }
  }

  private static HttpError tooLarge() {
    return new HttpError(413, "the request body is larger than " + MAX_BODY_BYTES + " bytes");
  }

  /** A text field of the body that must be present and not blank. */
  static String text(JsonNode body, String field) {
    JsonNode v = body.path(field);
    if (!v.isTextual() || v.asText().isBlank()) {
      throw new HttpError(400, "'" + field + "' must be a non-empty string");
    }
    return v.asText();
  }

  /** An integer field of the body, or {@code fallback} when absent. */
  static int integer(JsonNode body, String field, int fallback) {
    JsonNode v = body.path(field);
    if (v.isMissingNode() || v.isNull()) {
      return fallback;
    }
    if (!v.canConvertToInt()) {
      throw new HttpError(400, "'" + field + "' must be an integer");
    }
    return v.asInt();
  }

  /** The decoded query parameters (the last value of each name). */
  static Map<String, String> query(HttpExchange ex) {
    Map<String, String> out = new HashMap<>();
    String q = ex.getRequestURI().getRawQuery();
    if (q == null) {
      return out;
    }
    for (String pair : q.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  /** Sends {@code node} as JSON with {@code status}. */
  static void json(HttpExchange ex, int status, JsonNode node) throws IOException {
    send(ex, status, "application/json; charset=utf-8", JSON.writeValueAsBytes(node));
  }

  /** Sends {@code {"error": message}} with {@code status}. */
  static void error(HttpExchange ex, int status, String message) throws IOException {
    ObjectNode o = JSON.createObjectNode();
    o.put("error", message);
    json(ex, status, o);
  }

  /** Sends bytes with a content type and {@code status}; the security headers are set by the caller. */
  static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
    ex.getResponseHeaders().set("Content-Type", type);
    ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(body);
    }
  }
}

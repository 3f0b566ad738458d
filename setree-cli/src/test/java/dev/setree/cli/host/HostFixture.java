package dev.setree.cli.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.setree.BuildProgress;
import dev.setree.LlmConfig;
import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.testing.Corpora;
import dev.setree.testing.HashEmbedder;
import dev.setree.testing.SimpleTokenCounter;
import dev.setree.testing.StubLlmServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * A web host over a small knowledge base (the personal corpus, the fast hash embedder, a short quiet window)
 * and a stub LLM, for the host's tests; plus a raw HTTP client that can send any Host or Origin header.
 */
final class HostFixture implements AutoCloseable {
  static final ObjectMapper JSON = new ObjectMapper();

  final StubLlmServer llm;
  final SETree kb;
  final WebHost host;

  /** What a raw request got back. */
  record Answer(int status, Map<String, String> headers, String body) {
    JsonNode json() throws IOException {
      return JSON.readTree(body);
    }

    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  /** The chat's LLM: the stub's base URL and short timeouts. */
  static final Function<StubLlmServer, LlmConfig> STUB = s -> stubSettings(s.baseUrl());

  /**
   * Builds {@code facts} facts into {@code dir/kb.db} and serves them.
   *
   * @param llmFor the chat's LLM settings given the fixture's stub LLM, or null to serve without an LLM
   */
  HostFixture(Path dir, int facts, Function<StubLlmServer, LlmConfig> llmFor) throws IOException {
    llm = StubLlmServer.start();
    SETreeConfig config = SETreeConfig.builder().embedder(new HashEmbedder(48))
        .tokenCounter(new SimpleTokenCounter()).quietWindowMillis(20).build();
    kb = SETree.open(dir.resolve("kb.db"), config);
    kb.build(Corpora.personal().subList(0, facts), BuildProgress.NONE);
    host = WebHost.start(kb, WebHost.Options.withLlm(0, llmFor == null ? null : llmFor.apply(llm)));
  }

  /** Settings for an LLM at {@code baseUrl} with short timeouts. */
  static LlmConfig stubSettings(String baseUrl) {
    return LlmConfig.builder().baseUrl(baseUrl).model(StubLlmServer.MODEL)
        .connectTimeout(Duration.ofSeconds(2)).readTimeout(Duration.ofSeconds(2)).maxRetries(0).build();
  }

  String origin() {
    return "http://127.0.0.1:" + host.port();
  }

  /** A request with the right Host, Origin and token. */
  Answer call(String method, String path, String jsonBody) throws IOException {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Host", "127.0.0.1:" + host.port());
    h.put("Origin", origin());
    h.put(HostGuard.TOKEN_HEADER, host.token());
    if (jsonBody != null) {
      h.put("Content-Type", "application/json");
    }
    return raw(method, path, h, jsonBody == null ? null : jsonBody.getBytes(StandardCharsets.UTF_8));
  }

  /** A request with exactly these headers (Content-Length added for a body), over a fresh connection. */
  Answer raw(String method, String path, Map<String, String> headers, byte[] body) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), host.port())) {
      s.setSoTimeout(30_000);
      StringBuilder req = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
      headers.forEach((k, v) -> req.append(k).append(": ").append(v).append("\r\n"));
      if (body != null) {
        req.append("Content-Length: ").append(body.length).append("\r\n");
      }
      req.append("Connection: close\r\n\r\n");
      OutputStream out = s.getOutputStream();
      out.write(req.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (body != null) {
        try {
          out.write(body);
        } catch (IOException e) {
          // the host refused before reading it all: its answer is still there to read
        }
      }
      out.flush();
      return parse(s.getInputStream());
    }
  }

  private static Answer parse(InputStream in) throws IOException {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    try {
      in.transferTo(buf);
    } catch (IOException e) {
      // a reset after the answer: keep what came
    }
    byte[] all = buf.toByteArray();
    int end = 0;
    while (end + 3 < all.length && !(all[end] == '\r' && all[end + 1] == '\n' && all[end + 2] == '\r'
        && all[end + 3] == '\n')) {
      end++;
    }
    String head = new String(all, 0, Math.min(end, all.length), StandardCharsets.ISO_8859_1);
    String[] lines = head.split("\r\n");
    int status = Integer.parseInt(lines[0].split(" ")[1]);
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int c = lines[i].indexOf(':');
      headers.put(lines[i].substring(0, c).strip().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).strip());
    }
    int from = Math.min(end + 4, all.length);
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      int i = from;
      while (i < all.length) {
        int eol = i;
        while (eol + 1 < all.length && !(all[eol] == '\r' && all[eol + 1] == '\n')) {
          eol++;
        }
        int size = Integer.parseInt(new String(all, i, eol - i, StandardCharsets.US_ASCII).strip(), 16);
        if (size == 0) {
          break;
        }
        body.write(all, eol + 2, size);
        i = eol + 2 + size + 2;
      }
    } else {
      body.write(all, from, all.length - from);
    }
    return new Answer(status, headers, body.toString(StandardCharsets.UTF_8));
  }

  @Override
  public void close() {
    host.close();
    kb.close();
    llm.close();
  }
}

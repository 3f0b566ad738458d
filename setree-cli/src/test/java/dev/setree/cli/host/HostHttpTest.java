package dev.setree.cli.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.setree.testing.StubLlmServer;
import dev.setree.testing.StubReply;
import dev.setree.testing.StubRequest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web host over plain HTTP: its front door (loopback only, Host and Origin checked, the token required
 * on every API request, bounded requests, security headers), knowledge-base text kept as data, and the
 * chat's answers when the LLM streams, is dead, is too slow or is not configured.
 */
@Timeout(60)
class HostHttpTest {
  private static final Pattern EVENT = Pattern.compile("event: (\\w+)\ndata: (.*)\n\n");

  @TempDir static Path dir;
  static HostFixture f;

  @BeforeAll
  static void start() throws IOException {
    f = new HostFixture(dir, 60, HostFixture.STUB);
  }

  @AfterAll
  static void stop() {
    f.close();
  }

  private Map<String, String> goodHeaders() {
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Host", "127.0.0.1:" + f.host.port());
    h.put(HostGuard.TOKEN_HEADER, f.host.token());
    return h;
  }

  @Test
  void servesOnLoopbackWithTheTokenInThePrintedUrlOnly() throws IOException {
    assertTrue(f.host.url().startsWith("http://127.0.0.1:" + f.host.port() + "/#token="), f.host.url());
    assertTrue(f.host.token().length() >= 32, "a token of 24 random bytes");
    HostFixture.Answer ok = f.raw("GET", "/api/info", goodHeaders(), null);
    assertEquals(200, ok.status(), ok.body());
    assertEquals(60, ok.json().path("leaves").asInt());
  }

  @Test
  void aForeignHostIsRefused() throws IOException {
    for (String host : List.of("evil.example:" + f.host.port(), "127.0.0.1:1", "evil.example")) {
      Map<String, String> h = goodHeaders();
      h.put("Host", host);
      HostFixture.Answer a = f.raw("GET", "/api/info", h, null);
      assertEquals(403, a.status(), host + ": " + a.body());
      assertTrue(a.body().contains("is not the address this host serves"), a.body());
      assertEquals(403, f.raw("GET", "/", h, null).status(), "the page too, for " + host);
    }
    Map<String, String> none = goodHeaders();
    none.remove("Host");
    assertEquals(403, f.raw("GET", "/api/info", none, null).status(), "no Host header");
  }

  @Test
  void aForeignOriginIsRefused() throws IOException {
    for (String origin : List.of("http://evil.example", "null", "http://127.0.0.1:" + (f.host.port() + 1),
        "https://127.0.0.1:" + f.host.port())) {
      Map<String, String> h = goodHeaders();
      h.put("Origin", origin);
      h.put("Content-Type", "application/json");
      HostFixture.Answer a = f.raw("POST", "/api/insert", h,
          "{\"text\":\"a fact from a foreign page\"}".getBytes(StandardCharsets.UTF_8));
      assertEquals(403, a.status(), origin + ": " + a.body());
    }
    assertEquals(0, f.kb.pendingMutations(), "nothing was inserted");
    Map<String, String> same = goodHeaders();
    same.put("Origin", f.origin());
    assertEquals(200, f.raw("GET", "/api/info", same, null).status());
  }

  @Test
  void everyApiRequestNeedsTheToken() throws IOException {
    for (String token : new String[] {null, "", "wrong", f.host.token() + "x"}) {
      Map<String, String> h = goodHeaders();
      if (token == null) {
        h.remove(HostGuard.TOKEN_HEADER);
      } else {
        h.put(HostGuard.TOKEN_HEADER, token);
      }
      assertEquals(401, f.raw("GET", "/api/info", h, null).status(), "token " + token);
      h.put("Content-Type", "application/json");
      HostFixture.Answer a = f.raw("POST", "/api/insert", h,
          "{\"text\":\"a fact without the token\"}".getBytes(StandardCharsets.UTF_8));
      assertEquals(401, a.status(), a.body());
      assertTrue(a.body().contains("open the URL that setree host printed"), a.body());
      assertEquals(401, f.raw("POST", "/api/chat", h, "{\"message\":\"hi\"}".getBytes(StandardCharsets.UTF_8))
          .status());
    }
    assertEquals(0, f.kb.pendingMutations(), "nothing was inserted");
  }

  @Test
  void thePageIsStaticWithACspAndNoInlineScript() throws IOException {
    Map<String, String> h = goodHeaders();
    h.remove(HostGuard.TOKEN_HEADER); // the page holds no data: it is served without the token
    HostFixture.Answer page = f.raw("GET", "/", h, null);
    assertEquals(200, page.status());
    assertEquals(HostGuard.CSP, page.header("Content-Security-Policy"));
    assertTrue(page.header("Content-Security-Policy").contains("script-src 'self'"));
    assertFalse(page.header("Content-Security-Policy").contains("unsafe-inline"));
    assertEquals("nosniff", page.header("X-Content-Type-Options"));
    assertEquals("DENY", page.header("X-Frame-Options"));
    assertTrue(page.body().contains("<script src=\"/app.js\" defer></script>"));
    assertEquals(1, page.body().split("<script").length - 1, "one script element, a file");
    assertFalse(page.body().matches("(?s).*\\son[a-z]+=.*"), "no inline event handlers");
    assertFalse(page.body().contains("http://") || page.body().contains("https://"), "nothing from a CDN");
    HostFixture.Answer js = f.raw("GET", "/app.js", h, null);
    assertEquals(200, js.status());
    assertTrue(js.header("Content-Type").startsWith("text/javascript"));
    assertFalse(js.body().contains("innerHTML"), "the script never writes markup");
    assertEquals(200, f.raw("GET", "/app.css", h, null).status());
    assertEquals(404, f.raw("GET", "/etc/passwd", h, null).status());
  }

  @Test
  void requestSizesAreBounded() throws IOException {
    byte[] big = ("{\"text\":\"" + "x".repeat(Exchanges.MAX_BODY_BYTES) + "\"}").getBytes(StandardCharsets.UTF_8);
    Map<String, String> h = goodHeaders();
    h.put("Content-Type", "application/json");
    HostFixture.Answer a = f.raw("POST", "/api/insert", h, big);
    assertEquals(413, a.status(), a.body());
    HostFixture.Answer longUrl = f.raw("GET", "/api/search?q=" + "a".repeat(HostGuard.MAX_URI_CHARS), h, null);
    assertEquals(414, longUrl.status());
    HostFixture.Answer tooLongFact = f.call("POST", "/api/insert",
        "{\"text\":\"" + "y".repeat(20_001) + "\"}");
    assertEquals(400, tooLongFact.status(), "a fact over 20,000 characters is refused by the facade");
    HostFixture.Answer notJson = f.raw("POST", "/api/insert", goodHeaders(), "text=x".getBytes(StandardCharsets.UTF_8));
    assertEquals(415, notJson.status(), "a form post is refused");
    assertEquals(0, f.kb.pendingMutations());
  }

  @Test
  void knowledgeBaseTextStaysData() throws Exception {
    String evil = "The user's note <script>alert(1)</script> & <img src=x onerror=alert(2)> \"quoted\"";
    HostFixture.Answer ack = f.call("POST", "/api/insert", HostFixture.JSON.createObjectNode().put("text", evil)
        .toString());
    assertEquals(200, ack.status(), ack.body());
    long seq = ack.json().path("seq").asLong();
    assertTrue(seq > 0);
    JsonNode visible = f.call("GET", "/api/visible?seq=" + seq, null).json();
    assertTrue(visible.path("visible").asBoolean(), visible.toString());
    HostFixture.Answer found = f.call("GET", "/api/search?q=%3Cscript%3E", null);
    assertTrue(found.header("Content-Type").startsWith("application/json"), found.header("Content-Type"));
    assertEquals("nosniff", found.header("X-Content-Type-Options"));
    assertEquals(evil, found.json().path("leaves").path(0).path("text").asText(), "the text comes back unchanged");
    String leaf = found.json().path("leaves").path(0).path("id").asText();
    HostFixture.Answer del = f.call("POST", "/api/delete", "{\"leaf_id\":\"" + leaf + "\"}");
    assertEquals(200, del.status(), del.body());
    JsonNode gone = f.call("GET", "/api/visible?seq=" + del.json().path("seq").asLong(), null).json();
    assertTrue(gone.path("visible").asBoolean(), gone.toString());
    assertEquals(0, f.call("GET", "/api/search?q=%3Cscript%3E", null).json().path("total").asInt());
  }

  @Test
  void retrieveAnswersTheCoverWithItsFigures() throws IOException {
    HostFixture.Answer a = f.call("POST", "/api/retrieve", "{\"prompt\":\"coffee beans\",\"budget\":60}");
    assertEquals(200, a.status(), a.body());
    JsonNode r = a.json();
    assertTrue(r.path("tokens_used").asInt() <= 60);
    assertTrue(r.path("items").size() > 0);
    JsonNode counts = r.path("counts");
    assertEquals(f.kb.tree().size(), counts.path("visible").asInt() + counts.path("carried").asInt()
        + counts.path("not shown").asInt());
    assertEquals(r.path("items").size(), counts.path("visible").asInt());
    assertEquals(f.kb.tree().id(f.kb.tree().root()), r.path("cover").path("id").asText());
    assertEquals(400, f.call("POST", "/api/retrieve", "{\"prompt\":\"  \"}").status(), "a blank prompt");
    assertEquals(400, f.call("POST", "/api/retrieve", "{\"prompt\":\"x\",\"budget\":-1}").status());
  }

  @Test
  void chatStreamsTheAnswerAfterItsContext() throws IOException {
    f.llm.whenUserMessageContains("coffee", StubReply.summary("He grinds Blue Heron beans each morning."));
    HostFixture.Answer a = f.call("POST", "/api/chat", "{\"message\":\"what coffee does the user drink?\"}");
    assertEquals(200, a.status(), a.body());
    assertTrue(a.header("Content-Type").startsWith("text/event-stream"));
    List<String[]> events = events(a.body());
    assertEquals("context", events.get(0)[0]);
    assertEquals("done", events.get(events.size() - 1)[0], a.body());
    StringBuilder answer = new StringBuilder();
    int pieces = 0;
    for (String[] e : events) {
      if (e[0].equals("piece")) {
        answer.append(HostFixture.JSON.readTree(e[1]).path("text").asText());
        pieces++;
      }
    }
    assertEquals("He grinds Blue Heron beans each morning.", answer.toString());
    assertTrue(pieces > 1, "streamed in pieces, got " + pieces);
    StubRequest asked = f.llm.chatRequests().get(f.llm.chatRequests().size() - 1);
    assertTrue(asked.streamed(), "the host asks for a stream");
    assertTrue(asked.userMessage().contains("<context>"), asked.userMessage());
    String contextText = HostFixture.JSON.readTree(events.get(0)[1]).path("text").asText();
    assertTrue(asked.userMessage().contains(contextText), "the LLM got the context the page shows");
  }

  @Test
  void aDeadLlmGivesAClearMessage() throws IOException {
    try (HostFixture dead = new HostFixture(dir.resolve("dead"), 20,
        stub -> HostFixture.stubSettings(StubLlmServer.deadBaseUrl()))) {
      long t0 = System.nanoTime();
      HostFixture.Answer a = dead.call("POST", "/api/chat", "{\"message\":\"hello\"}");
      List<String[]> events = events(a.body());
      assertEquals("error", events.get(events.size() - 1)[0], a.body());
      String msg = HostFixture.JSON.readTree(events.get(events.size() - 1)[1]).path("message").asText();
      assertTrue(msg.contains("cannot reach the LLM") && msg.contains("connection refused"), msg);
      assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(10).toNanos());
    }
  }

  @Test
  void aSlowLlmTimesOutWithAClearMessage() throws IOException {
    try (HostFixture slow = new HostFixture(dir.resolve("slow"), 20,
        stub -> HostFixture.stubSettings(stub.baseUrl()).toBuilder().readTimeout(Duration.ofMillis(500)).build())) {
      slow.llm.defaultReply(StubReply.summary("too late").delayed(Duration.ofSeconds(5)));
      long t0 = System.nanoTime();
      HostFixture.Answer a = slow.call("POST", "/api/chat", "{\"message\":\"hello\"}");
      long ms = (System.nanoTime() - t0) / 1_000_000;
      List<String[]> events = events(a.body());
      assertEquals("error", events.get(events.size() - 1)[0], a.body());
      String msg = HostFixture.JSON.readTree(events.get(events.size() - 1)[1]).path("message").asText();
      assertTrue(msg.contains("did not answer in time") && msg.contains("500 ms"), msg);
      assertTrue(ms < 4000, "the page hears of it after the timeout, not after the LLM: " + ms + " ms");
    }
  }

  @Test
  void withoutAnLlmTheChatSaysWhichFlagsToPass() throws IOException {
    try (HostFixture none = new HostFixture(dir.resolve("none"), 20, null)) {
      JsonNode info = none.call("GET", "/api/info", null).json();
      assertTrue(info.path("llm").isNull());
      HostFixture.Answer a = none.call("POST", "/api/chat", "{\"message\":\"what does the user cook?\"}");
      List<String[]> events = events(a.body());
      assertEquals("context", events.get(0)[0], "the turn still retrieves");
      JsonNode err = HostFixture.JSON.readTree(events.get(events.size() - 1)[1]);
      assertEquals("no-llm", err.path("kind").asText());
      String msg = err.path("message").asText();
      assertTrue(msg.contains("--llm-base-url URL --llm-model NAME") && msg.contains("--config"), msg);
      assertEquals(0, none.llm.chatRequestCount());
    }
  }

  /** The server-sent events of a body: name and data of each. */
  static List<String[]> events(String body) {
    List<String[]> out = new ArrayList<>();
    Matcher m = EVENT.matcher(body);
    while (m.find()) {
      out.add(new String[] {m.group(1), m.group(2)});
    }
    assertFalse(out.isEmpty(), "no events in: " + body);
    return out;
  }
}

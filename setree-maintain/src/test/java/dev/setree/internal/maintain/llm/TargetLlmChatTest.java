package dev.setree.internal.maintain.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.SummarizerException;
import dev.setree.testing.StubLlmServer;
import dev.setree.testing.StubReply;
import dev.setree.testing.StubRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The streamed chat client against the stub server: pieces in order, a server that does not stream, failures. */
class TargetLlmChatTest {
  static final List<Map.Entry<String, String>> ASK = List.of(Map.entry("system", "be brief"), Map.entry("user", "what coffee?"));

  /** Asks {@link #ASK}: the role is an entry's key, the text its value. */
  static String ask(TargetLlmChat c, int maxTokens, Consumer<String> onPiece) {
    return c.stream(ASK, Map.Entry::getKey, Map.Entry::getValue, maxTokens, onPiece);
  }

  StubLlmServer stub;
  TargetLlmChat chat;

  @BeforeEach
  void start() {
    stub = StubLlmServer.start();
    chat = new TargetLlmChat(settings(stub.baseUrl(), Duration.ofSeconds(5)));
  }

  @AfterEach
  void stop() {
    chat.close();
    stub.close();
  }

  static LlmSettings settings(String url, Duration read) {
    return LlmSettings.builder().baseUrl(url).model("chat-model").apiKey("sk-test")
        .connectTimeout(Duration.ofSeconds(2)).readTimeout(read).build();
  }

  @Test
  void streamsThePiecesInOrder() {
    stub.defaultReply(StubReply.summary("Blue Heron beans, ground fresh."));
    List<String> pieces = new ArrayList<>();
    String whole = ask(chat, 64, pieces::add);
    assertEquals("Blue Heron beans, ground fresh.", whole);
    assertEquals(List.of("Blue ", "Heron ", "beans, ", "ground ", "fresh."), pieces);
    StubRequest r = stub.chatRequests().get(0);
    assertTrue(r.streamed());
    assertEquals("chat-model", r.model());
    assertEquals(64, r.maxTokens());
    assertEquals("Bearer sk-test", r.authorization());
    assertEquals("what coffee?", r.userMessage());
  }

  @Test
  void aServerThatDoesNotStreamGivesOnePiece() {
    stub.defaultReply(StubReply.unstreamed("All at once."));
    List<String> pieces = new ArrayList<>();
    assertEquals("All at once.", ask(chat, 64, pieces::add));
    assertEquals(List.of("All at once."), pieces);
  }

  @Test
  void failuresSayWhatWentWrong() {
    stub.enqueue(StubReply.status(503));
    LlmUnavailableException busy = assertThrows(LlmUnavailableException.class, () -> ask(chat, 8, p -> { }));
    assertTrue(busy.getMessage().contains("HTTP 503"), busy.getMessage());
    assertEquals(1, stub.chatRequestCount(), "a person waits: no retry");

    stub.enqueue(StubReply.status(404));
    SummarizerException missing = assertThrows(SummarizerException.class, () -> ask(chat, 8, p -> { }));
    assertTrue(missing.getMessage().contains("is the base URL right?"), missing.getMessage());

    stub.enqueue(StubReply.html());
    SummarizerException html = assertThrows(SummarizerException.class, () -> ask(chat, 8, p -> { }));
    assertTrue(html.getMessage().contains("neither an event stream nor a chat completion"), html.getMessage());
  }

  @Test
  void aDeadOrStalledServerEndsTheAnswer() {
    try (TargetLlmChat dead = new TargetLlmChat(settings(StubLlmServer.deadBaseUrl(), Duration.ofSeconds(5)))) {
      LlmUnavailableException e = assertThrows(LlmUnavailableException.class, () -> ask(dead, 8, p -> { }));
      assertTrue(e.getMessage().contains("connection refused"), e.getMessage());
    }
    stub.defaultReply(StubReply.summary("late").delayed(Duration.ofSeconds(3)));
    try (TargetLlmChat impatient = new TargetLlmChat(settings(stub.baseUrl(), Duration.ofMillis(300)))) {
      long t0 = System.nanoTime();
      LlmUnavailableException e = assertThrows(LlmUnavailableException.class,
          () -> ask(impatient, 8, p -> { }));
      assertTrue(e.getMessage().contains("did not answer in time") && e.getMessage().contains("300 ms"),
          e.getMessage());
      assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(2).toNanos(), "the read timeout, not the delay");
    }
  }

  @Test
  void aConsumerThatFailsStopsTheAnswer() {
    stub.defaultReply(StubReply.summary("one two three four"));
    List<String> pieces = new ArrayList<>();
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> ask(chat, 8, p -> {
      pieces.add(p);
      throw new IllegalStateException("the page went away");
    }));
    assertEquals("the page went away", e.getMessage());
    assertEquals(List.of("one "), pieces);
  }
}

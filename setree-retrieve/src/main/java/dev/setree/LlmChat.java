package dev.setree;

import dev.setree.internal.maintain.llm.LlmSettings;
import dev.setree.internal.maintain.llm.TargetLlmChat;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A streamed conversation with the Target LLM, for a host that answers questions over a retrieved
 * {@link Context} (the web host's chat): sends the messages to the OpenAI-compatible
 * {@code POST {baseUrl}/chat/completions} with {@code stream: true} and hands each piece of the answer to the
 * caller as it arrives. The read timeout bounds the wait for each piece; it is not retried (a person is
 * waiting). Thread-safe; close it to release the connection pool. A knowledge base never calls it.
 */
public final class LlmChat implements AutoCloseable {
  private final LlmConfig config;
  private final TargetLlmChat chat;

  /**
   * One message of a conversation.
   *
   * @param role {@code system}, {@code user} or {@code assistant}
   * @param content its text
   */
  public record Message(String role, String content) {
    /** Checks that both are present. */
    public Message {
      Objects.requireNonNull(role, "role");
      Objects.requireNonNull(content, "content");
    }
  }

  /** Creates the client; no request is made until {@link #stream} is called. */
  public LlmChat(LlmConfig config) {
    this.config = Objects.requireNonNull(config, "config");
    this.chat = new TargetLlmChat(config.settings(LlmSettings.DEFAULT_CONTEXT_WINDOW));
  }

  /** The endpoint and model asked (its {@code toString} hides the API key). */
  public LlmConfig config() {
    return config;
  }

  /**
   * Asks for the answer to {@code messages} and streams it.
   *
   * @param messages the conversation, oldest first
   * @param maxTokens the {@code max_tokens} sent
   * @param onPiece called, on the calling thread, with each piece of the answer in order; if it throws, the
   *     request is cancelled and the exception propagates
   * @return the whole answer
   * @throws dev.setree.spi.SummarizerException naming the URL when no connection could be made, no piece
   *     came within the read timeout, or the answer is unusable
   */
  public String stream(List<Message> messages, int maxTokens, Consumer<String> onPiece) {
    return chat.stream(messages, Message::role, Message::content, maxTokens, onPiece);
  }

  /** Releases the connection pool. */
  @Override
  public void close() {
    chat.close();
  }
}

package dev.setree.internal.maintain.llm;

import dev.setree.internal.maintain.TextCut;
import dev.setree.spi.Passage;
import dev.setree.spi.Summarizer;
import dev.setree.spi.SummarizerException;
import dev.setree.spi.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Target LLM {@link Summarizer} (kind {@value #KIND}): writes abstractive summaries by asking any
 * OpenAI-compatible chat-completions endpoint ({@code POST {baseUrl}/chat/completions}: llama-server,
 * Ollama, vLLM or a hosted API). Used at index and maintenance time only; retrieve never calls it.
 *
 * <ul>
 *   <li><b>Facts are data.</b> The system prompt is fixed ({@link #systemPrompt()}); a node's children go
 *       into the user message as numbered lines between {@code <facts>} and {@code </facts>}, one line each,
 *       with any delimiter inside a fact neutralised, so a fact that says "ignore previous instructions"
 *       cannot change what is asked.
 *   <li><b>Context window.</b> Children that do not fit {@link LlmSettings#contextWindow()} (measured with
 *       the request's token counter, after the prompt and the room for the answer) are summarised in
 *       chunks, and the chunk summaries then combined the same way.
 *   <li><b>Budget-monotone.</b> An answer longer than {@link Request#maxTokens()} is asked for once more
 *       with a tighter limit; the shorter answer is then cut at a sentence boundary (else at a word).
 *   <li><b>Failures.</b> Connection errors, timeouts, HTTP 429 and 5xx are retried with exponential backoff
 *       ({@link LlmSettings#maxRetries()}; {@code Retry-After} is honoured up to
 *       {@link LlmSettings#MAX_BACKOFF}); when retries run out, {@link LlmUnavailableException}. An empty,
 *       HTML, non-JSON or truncated answer, one without {@code choices[0].message.content}, another 4xx
 *       status, or an answer cut off ({@code finish_reason "length"}) before a whole sentence throws
 *       {@link SummarizerException} naming the URL and the problem; the builder then falls back to the
 *       extractive summary for that node and counts it. {@link #failureCount()} and {@link #lastFailure()}
 *       report them.
 *   <li><b>Concurrency.</b> At most {@link LlmSettings#effectiveConcurrency()} requests in flight, whatever
 *       the number of calling threads.
 * </ul>
 *
 * <p>Before a build, call {@link #checkReachable()}: a dead endpoint then fails the build with a clear
 * error instead of silently falling back for every node. Thread-safe; close it to release the connection
 * pool.
 */
public final class TargetLlmSummarizer implements Summarizer, AutoCloseable {
  /** The kind stored with every summary this summariser writes. */
  public static final String KIND = "llm";

  private static final int MAX_ROUNDS = 8;

  private final LlmSettings settings;
  private final CompletionsClient client;
  private final AtomicInteger failures = new AtomicInteger();
  private final AtomicReference<String> lastFailure = new AtomicReference<>();

  /** Creates the summariser; no request is made until {@link #checkReachable()} or a summary is asked for. */
  public TargetLlmSummarizer(LlmSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.client = new CompletionsClient(settings);
  }

  /** The fixed system prompt sent with every request (facts never change it). */
  public static String systemPrompt() {
    return SummaryPrompt.SYSTEM_PROMPT;
  }

  /** The settings (their {@code toString} hides the API key). */
  public LlmSettings settings() {
    return settings;
  }

  @Override
  public String kind() {
    return KIND;
  }

  /** Nodes this summariser failed on since it was created (each fell back to the extractive summary). */
  public int failureCount() {
    return failures.get();
  }

  /** The message of the last failure, naming the URL and the problem. */
  public Optional<String> lastFailure() {
    return Optional.ofNullable(lastFailure.get());
  }

  /**
   * Checks that the endpoint answers at all, with one cheap {@code GET {baseUrl}/models} (retried like a
   * summary request on connection errors and timeouts). Any HTTP answer, even an error status, counts as
   * alive: a misconfigured model or key then shows as per-node failures.
   *
   * @throws LlmUnavailableException naming the URL when no connection could be made
   */
  public void checkReachable() {
    client.checkReachable();
  }

  @Override
  public Summary summarize(Request request) {
    try {
      if (request.maxTokens() < 1) {
        throw new SummarizerException("cannot summarise into " + request.maxTokens() + " tokens");
      }
      List<String> lines = new ArrayList<>(request.children().size());
      for (Passage p : request.children()) {
        String line = SummaryPrompt.asDataLine(p.text());
        if (!line.isEmpty()) {
          lines.add(line);
        }
      }
      if (lines.isEmpty()) {
        throw new SummarizerException("node has no child text to summarise");
      }
      String text = summarizeLines(lines, request.maxTokens(), request.counter(), 0);
      return new Summary(text, List.of());
    } catch (SummarizerException e) {
      failures.incrementAndGet();
      lastFailure.set(e.getMessage());
      throw e;
    } catch (RuntimeException e) {
      // Whatever else goes wrong (the HTTP stack, a token counter) is one more failure for this node.
      SummarizerException wrapped = new SummarizerException("unexpected error calling "
          + settings.chatCompletionsUrl() + ": " + e, e);
      failures.incrementAndGet();
      lastFailure.set(wrapped.getMessage());
      throw wrapped;
    }
  }

  /** Summarises {@code lines}, in chunks when they do not fit the context window. */
  private String summarizeLines(List<String> lines, int cap, TokenCounter counter, int round) {
    int room = settings.contextWindow() - counter.count(SummaryPrompt.SYSTEM_PROMPT)
        - counter.count(SummaryPrompt.userMessage(List.of(), cap, false)) - SummaryPrompt.answerRoom(cap);
    int minRoom = 2 * (cap + counter.count("99. "));
    if (room < minRoom) {
      throw new SummarizerException("context_window " + settings.contextWindow() + " is too small to summarise"
          + " into " + cap + " tokens for " + settings.chatCompletionsUrl() + ": the prompt and the answer"
          + " leave " + room + " tokens for the facts, at least " + minRoom + " are needed");
    }
    int total = 0;
    for (int i = 0; i < lines.size(); i++) {
      total += lineCost(i, lines.get(i), counter);
    }
    if (total <= room) {
      return ask(lines, cap, counter);
    }
    if (round >= MAX_ROUNDS) {
      throw new SummarizerException("could not fit the children into context_window " + settings.contextWindow()
          + " after " + MAX_ROUNDS + " rounds of chunking");
    }
    List<String> partials = new ArrayList<>();
    List<String> chunk = new ArrayList<>();
    int used = 0;
    for (String raw : lines) {
      String line = raw;
      if (lineCost(0, line, counter) > room) {
        line = TextCut.words(line, room - counter.count("99. "), counter);
      }
      int cost = lineCost(chunk.size(), line, counter);
      if (!chunk.isEmpty() && used + cost > room) {
        partials.add(ask(chunk, cap, counter));
        chunk = new ArrayList<>();
        used = 0;
        cost = lineCost(0, line, counter);
      }
      chunk.add(line);
      used += cost;
    }
    if (!chunk.isEmpty()) {
      partials.add(ask(chunk, cap, counter));
    }
    return partials.size() == 1 ? partials.get(0) : summarizeLines(partials, cap, counter, round + 1);
  }

  private static int lineCost(int index, String line, TokenCounter counter) {
    return counter.count((index + 1) + ". " + line);
  }

  /** One summary of lines that fit: asks, asks once more if too long, then cuts. */
  private String ask(List<String> lines, int cap, TokenCounter counter) {
    String answer = client.complete(SummaryPrompt.userMessage(lines, cap, false), cap);
    int tokens = counter.count(answer);
    if (tokens <= cap) {
      return answer;
    }
    int tighter = Math.max(1, (int) Math.floor((double) cap * cap / tokens));
    try {
      String second = client.complete(SummaryPrompt.userMessage(lines, tighter, true), tighter);
      if (counter.count(second) < tokens) {
        answer = second;
      }
    } catch (SummarizerException e) {
      // keep the first answer: it is usable once cut
    }
    String cut = TextCut.fitWithoutEllipsis(answer, cap, counter);
    if (cut.isBlank()) {
      throw new SummarizerException("the answer of " + settings.chatCompletionsUrl() + " is longer than " + cap
          + " tokens and no cut of it fits");
    }
    return cut;
  }

  /** Releases the connection pool and okhttp's threads. */
  @Override
  public void close() {
    client.close();
  }

  @Override
  public String toString() {
    return "TargetLlmSummarizer[" + settings + "]";
  }
}

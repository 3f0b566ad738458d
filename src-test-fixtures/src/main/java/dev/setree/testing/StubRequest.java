package dev.setree.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.List;

/**
 * One request a {@link StubLlmServer} received.
 *
 * @param method the HTTP method
 * @param path the URL path, for example {@code /v1/chat/completions}
 * @param authorization the {@code Authorization} header, or null
 * @param body the request body as text
 */
public record StubRequest(String method, String path, String authorization, String body) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Whether this is a {@code POST /v1/chat/completions}. */
  public boolean isChatCompletion() {
    return "POST".equals(method) && path.equals("/v1/chat/completions");
  }

  /** Whether this is a {@code GET /v1/models}. */
  public boolean isModels() {
    return "GET".equals(method) && path.equals("/v1/models");
  }

  /** The body as JSON (a missing node when it is not JSON). */
  public JsonNode json() {
    try {
      return body.isBlank() ? MissingNode.getInstance() : JSON.readTree(body);
    } catch (JsonProcessingException e) {
      return MissingNode.getInstance();
    }
  }

  /** The content of the first message with role {@code system} ("" when none). */
  public String systemPrompt() {
    return message("system");
  }

  /** The content of the last message with role {@code user} ("" when none). */
  public String userMessage() {
    return message("user");
  }

  /** The {@code model} asked for. */
  public String model() {
    return json().path("model").asText("");
  }

  /** Whether the request asks for a streamed answer ({@code "stream": true}). */
  public boolean streamed() {
    return json().path("stream").asBoolean(false);
  }

  /** The {@code max_tokens} asked for (-1 when absent). */
  public int maxTokens() {
    return json().path("max_tokens").asInt(-1);
  }

  /** The lines between {@code <facts>} and {@code </facts>} in the user message. */
  public List<String> factLines() {
    List<String> out = new ArrayList<>();
    boolean in = false;
    for (String line : userMessage().split("\n")) {
      if (line.strip().equals("<facts>")) {
        in = true;
      } else if (line.strip().equals("</facts>")) {
        in = false;
      } else if (in) {
        out.add(line);
      }
    }
    return out;
  }

  private String message(String role) {
    String found = "";
    for (JsonNode m : json().path("messages")) {
      if (role.equals(m.path("role").asText())) {
        found = m.path("content").asText("");
        if (role.equals("system")) {
          return found;
        }
      }
    }
    return found;
  }
}

package dev.setree.internal.maintain.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Lists the models an OpenAI-compatible server offers ({@code GET {baseUrl}/models}), so that a caller who
 * gave only the endpoint can use its only (llama-server) or first model.
 */
public final class LlmModels {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LlmModels() {}

  /**
   * The model ids the server lists, in its order.
   *
   * @param baseUrl the endpoint, for example {@code http://localhost:8080/v1}
   * @param apiKey sent as a bearer token when not null
   * @param timeout connect and read timeout
   * @return the ids, never empty
   * @throws LlmUnavailableException naming the URL when no connection could be made
   * @throws IllegalArgumentException naming the URL when the server has no model list (an HTTP error, an
   *     answer that is not an OpenAI model list) or lists no model
   */
  public static List<String> list(String baseUrl, String apiKey, Duration timeout) {
    String base = baseUrl.strip().replaceAll("/+$", "");
    String url = base + "/models";
    OkHttpClient http = new OkHttpClient.Builder().connectTimeout(timeout).readTimeout(timeout)
        .retryOnConnectionFailure(false).followRedirects(false).build();
    Request.Builder rb;
    try {
      rb = new Request.Builder().url(url).get();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the LLM base URL '" + baseUrl + "' is not an http(s) URL", e);
    }
    if (apiKey != null) {
      rb.header("Authorization", "Bearer " + apiKey);
    }
    String body;
    int code;
    try (Response resp = http.newCall(rb.build()).execute()) {
      code = resp.code();
      body = resp.body().string();
    } catch (IOException e) {
      throw new LlmUnavailableException("cannot reach the LLM at " + base + " to list its models (" + e
          + "): is the server running and the URL right?", e);
    } finally {
      http.dispatcher().executorService().shutdown();
      http.connectionPool().evictAll();
    }
    String noList = "; give the model's name with --llm-model (or llm.model in the config file)";
    if (code != 200) {
      throw new IllegalArgumentException("the LLM at " + base + " has no model list: GET " + url + " answered HTTP "
          + code + noList);
    }
    JsonNode data;
    try {
      data = JSON.readTree(body).path("data");
    } catch (IOException e) {
      throw new IllegalArgumentException("the LLM at " + base + " answered GET " + url + " with something that is"
          + " not JSON" + noList, e);
    }
    if (!data.isArray()) {
      throw new IllegalArgumentException("the LLM at " + base + " answered GET " + url + " without a \"data\""
          + " list of models" + noList);
    }
    List<String> ids = new ArrayList<>();
    for (JsonNode m : data) {
      String id = m.path("id").asText("").strip();
      if (!id.isEmpty()) {
        ids.add(id);
      }
    }
    if (ids.isEmpty()) {
      throw new IllegalArgumentException("the LLM at " + base + " lists no models (GET " + url + " gave an empty"
          + " list): load or pull a model on the server, or" + noList.substring(1));
    }
    return List.copyOf(ids);
  }
}

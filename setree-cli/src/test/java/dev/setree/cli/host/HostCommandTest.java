package dev.setree.cli.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.setree.BuildProgress;
import dev.setree.SETree;
import dev.setree.testing.Corpora;
import dev.setree.testing.StubLlmServer;
import dev.setree.testing.StubReply;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code setree host} for real, as a separate process with its default embedder (the real MiniLM model):
 * it prints the URL with the token, serves the page and the API on loopback, retrieves by meaning, relays a
 * chat to the LLM given by {@code --llm-base-url} alone (the model is discovered), and stops on SIGTERM.
 */
@Timeout(120)
class HostCommandTest {
  private static final Pattern URL = Pattern.compile("open (http://127\\.0\\.0\\.1:(\\d+)/#token=([\\w-]+))");
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void servesAKnowledgeBaseBuiltWithMiniLm(@TempDir Path dir) throws Exception {
    Path db = dir.resolve("kb.db");
    try (SETree kb = SETree.open(db)) { // the default embedder: MiniLM
      kb.build(Corpora.personal().subList(0, 60), BuildProgress.NONE);
    }
    try (StubLlmServer llm = StubLlmServer.start()) {
      llm.defaultReply(StubReply.summary("Blue Heron beans, ground fresh."));
      List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Dai.djl.offline=true", "-cp", System.getProperty("java.class.path"), "dev.setree.cli.Main", "host",
          "--db", db.toString(), "--port", "0", "--llm-base-url", llm.baseUrl());
      Process p = new ProcessBuilder(cmd).start();
      List<String> err = Collections.synchronizedList(new ArrayList<>());
      Thread errReader = new Thread(() -> new BufferedReader(new InputStreamReader(p.getErrorStream(),
          StandardCharsets.UTF_8)).lines().forEach(err::add));
      errReader.setDaemon(true);
      errReader.start();
      try {
        CompletableFuture<Matcher> printed = new CompletableFuture<>();
        Thread outReader = new Thread(() -> new BufferedReader(new InputStreamReader(p.getInputStream(),
            StandardCharsets.UTF_8)).lines().forEach(line -> {
              Matcher m = URL.matcher(line);
              if (m.find()) {
                printed.complete(m);
              }
            }));
        outReader.setDaemon(true);
        outReader.start();
        Matcher m;
        try {
          m = printed.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
          fail("setree host printed no URL within 60 s; stderr: " + err);
          return;
        }
        int port = Integer.parseInt(m.group(2));
        String token = m.group(3);
        HttpClient http = HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + port;

        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(base + "/")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("/app.js"));

        JsonNode info = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/api/info"))
            .header(HostGuard.TOKEN_HEADER, token).build(), HttpResponse.BodyHandlers.ofString()).body());
        assertEquals(60, info.path("leaves").asInt(), info.toString());
        assertTrue(info.path("embedder").asText().toLowerCase().contains("minilm"), info.toString());
        assertEquals(StubLlmServer.MODEL, info.path("llm").path("model").asText(), "the model was discovered");

        // By meaning: no word of the prompt but "coffee" is in the fact, and the budget holds a few items.
        JsonNode r = post(http, base + "/api/retrieve", token, "{\"prompt\":\"what does he drink in the morning,"
            + " coffee?\",\"budget\":80}");
        assertTrue(r.path("tokens_used").asInt() <= 80, r.toString());
        boolean found = false;
        for (JsonNode it : r.path("items")) {
          found |= it.path("id").asText().equals("cooking-37");
        }
        assertTrue(found, "the coffee fact is shown verbatim: " + r.path("text").asText());

        HttpResponse<String> chat = http.send(HttpRequest.newBuilder(URI.create(base + "/api/chat"))
            .header(HostGuard.TOKEN_HEADER, token).header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"message\":\"what coffee?\",\"budget\":80}")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertTrue(chat.body().contains("event: done"), chat.body());
        assertTrue(chat.body().contains("\"text\":\"Heron \""), "streamed word by word: " + chat.body());
        assertTrue(llm.chatRequests().get(0).streamed());
      } finally {
        p.destroy(); // SIGTERM: the shutdown hook stops the host and closes the knowledge base
        boolean exited = p.waitFor(30, TimeUnit.SECONDS);
        if (!exited) {
          p.destroyForcibly();
        }
        assertTrue(exited, "setree host stops on SIGTERM");
      }
    }
  }

  private static JsonNode post(HttpClient http, String url, String token, String body) throws Exception {
    HttpResponse<String> a = http.send(HttpRequest.newBuilder(URI.create(url)).header(HostGuard.TOKEN_HEADER, token)
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, a.statusCode(), a.body());
    return JSON.readTree(a.body());
  }
}

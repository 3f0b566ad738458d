package dev.setree.cli.host;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Headless Chromium driven over the DevTools protocol (the JDK's WebSocket client; no browser-automation
 * library): load a page, evaluate script in it, wait for a condition, take a screenshot. For the browser
 * tests of the web host and the inspector. Without Chromium, {@link #find()} fails the test, unless
 * {@code SETREE_SKIP_BROWSER_TESTS=1} is set.
 */
public final class HeadlessChromium implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
  private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

  private final Process process;
  private final Path profile;
  private final WebSocket socket;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<Integer, CompletableFuture<JsonNode>> calls = new ConcurrentHashMap<>();
  private final List<String> console = new ArrayList<>();

  private HeadlessChromium(Process process, Path profile, String pageSocket) {
    this.process = process;
    this.profile = profile;
    this.socket = HttpClient.newHttpClient().newWebSocketBuilder()
        .buildAsync(URI.create(pageSocket), new Listener()).join();
  }

  /** Starts Chromium on a blank page in a fresh profile under {@code work}. */
  public static HeadlessChromium launch(Path work) throws IOException, InterruptedException {
    Path profile = Files.createTempDirectory(work, "chromium-profile-");
    List<String> cmd = new ArrayList<>(List.of(find(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--disable-dev-shm-usage", "--remote-debugging-port=0", "--remote-allow-origins=*",
        "--window-size=1280,900", "--user-data-dir=" + profile, "about:blank"));
    Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String browserSocket = awaitListening(p);
    int port = URI.create(browserSocket).getPort();
    HttpClient http = HttpClient.newHttpClient();
    String pageSocket = null;
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (pageSocket == null && System.nanoTime() < end) {
      String list = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list")).build(),
          HttpResponse.BodyHandlers.ofString()).body();
      for (JsonNode t : JSON.readTree(list)) {
        if ("page".equals(t.path("type").asText())) {
          pageSocket = t.path("webSocketDebuggerUrl").asText();
        }
      }
      if (pageSocket == null) {
        Thread.sleep(50); // the first tab is still opening
      }
    }
    if (pageSocket == null) {
      p.destroyForcibly();
      fail("Chromium opened no page target within 30 s");
    }
    HeadlessChromium c = new HeadlessChromium(p, profile, pageSocket);
    c.call("Page.enable", JSON.createObjectNode());
    c.call("Runtime.enable", JSON.createObjectNode());
    return c;
  }

  /** Reads Chromium's standard error until it says where DevTools listens. */
  private static String awaitListening(Process p) throws InterruptedException {
    CompletableFuture<String> url = new CompletableFuture<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          Matcher m = LISTENING.matcher(line);
          if (m.find()) {
            url.complete(m.group(1));
          }
        }
      } catch (IOException e) {
        // the process ended
      }
      url.completeExceptionally(new IllegalStateException("Chromium exited without a DevTools address"));
    }, "chromium-stderr");
    reader.setDaemon(true);
    reader.start();
    try {
      return url.get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      p.destroyForcibly();
      fail("Chromium did not start its DevTools server: " + e);
      return null;
    }
  }

  /** Sends one DevTools command and returns its result. */
  public JsonNode call(String method, ObjectNode params) {
    int id = ids.incrementAndGet();
    CompletableFuture<JsonNode> f = new CompletableFuture<>();
    calls.put(id, f);
    ObjectNode msg = JSON.createObjectNode().put("id", id).put("method", method);
    msg.set("params", params);
    socket.sendText(msg.toString(), true).join();
    JsonNode answer;
    try {
      answer = f.get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("DevTools " + method + " did not answer: " + e, e);
    } finally {
      calls.remove(id);
    }
    if (answer.has("error")) {
      throw new AssertionError("DevTools " + method + " failed: " + answer.get("error"));
    }
    return answer.path("result");
  }

  /** Loads {@code url} afresh (even when only its fragment differs) and waits until its document has loaded. */
  public void open(String url) {
    call("Page.navigate", JSON.createObjectNode().put("url", "about:blank"));
    waitFor("location.href === 'about:blank' && document.readyState === 'complete'", Duration.ofSeconds(20));
    call("Page.navigate", JSON.createObjectNode().put("url", url));
    waitFor("document.readyState === 'complete' && location.href === " + JSON.valueToTree(url), Duration.ofSeconds(20));
  }

  /** Evaluates script in the page (promises awaited) and returns its value as JSON. */
  public JsonNode eval(String script) {
    JsonNode r = call("Runtime.evaluate", JSON.createObjectNode().put("expression", script)
        .put("awaitPromise", true).put("returnByValue", true));
    if (r.has("exceptionDetails")) {
      throw new AssertionError("script failed: " + script + "\n" + r.get("exceptionDetails"));
    }
    return r.path("result").path("value");
  }

  /** Evaluates script and returns its value as text. */
  public String text(String script) {
    return eval(script).asText();
  }

  /**
   * Waits until {@code condition} (a script) is true, checking every 50 ms; fails after {@code timeout} with the
   * page's text.
   */
  public void waitFor(String condition, Duration timeout) {
    long end = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < end) {
      if (eval("Boolean(" + condition + ")").asBoolean()) {
        return;
      }
      try {
        Thread.sleep(50); // polling a condition, not a guess at how long something takes
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    String body = text("document.body ? document.body.innerText.slice(0, 1500) : ''");
    fail("the page did not reach: " + condition + " within " + timeout.toSeconds() + " s; it shows:\n" + body
        + "\nconsole: " + console);
  }

  /** A PNG of the viewport, written to {@code file}. */
  public void screenshot(Path file) throws IOException {
    JsonNode r = call("Page.captureScreenshot", JSON.createObjectNode().put("format", "png"));
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, Base64.getDecoder().decode(r.path("data").asText()));
  }

  /** Messages the page logged with {@code console} and exceptions it threw. */
  public synchronized List<String> console() {
    return List.copyOf(console);
  }

  private synchronized void note(String s) {
    console.add(s);
  }

  private final class Listener implements WebSocket.Listener {
    private final StringBuilder partial = new StringBuilder();

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        String whole = partial.toString();
        partial.setLength(0);
        try {
          JsonNode m = JSON.readTree(whole);
          if (m.has("id")) {
            CompletableFuture<JsonNode> f = calls.get(m.get("id").asInt());
            if (f != null) {
              f.complete(m);
            }
          } else if ("Runtime.consoleAPICalled".equals(m.path("method").asText())) {
            note(m.path("params").path("args").toString());
          } else if ("Runtime.exceptionThrown".equals(m.path("method").asText())) {
            note("exception: " + m.path("params").path("exceptionDetails").toString());
          }
        } catch (IOException e) {
          note("unreadable DevTools message: " + e);
        }
      }
      ws.request(1);
      return null;
    }
  }

  /** The Chromium executable: {@code $SETREE_CHROMIUM}, else the first of the usual names on the PATH. */
  public static String find() {
    String given = System.getenv("SETREE_CHROMIUM");
    if (given != null && !given.isBlank()) {
      if (!Files.isExecutable(Path.of(given))) {
        fail("SETREE_CHROMIUM=" + given + " is not an executable file");
      }
      return given;
    }
    String path = System.getenv().getOrDefault("PATH", "");
    for (String name : List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")) {
      for (String d : path.split(File.pathSeparator)) {
        Path p = Path.of(d.isEmpty() ? "." : d, name);
        if (Files.isExecutable(p)) {
          return p.toString();
        }
      }
    }
    String why = "headless Chromium is needed for the browser tests and none was found on the PATH"
        + " (chromium, chromium-browser, google-chrome) or in $SETREE_CHROMIUM: run scripts/install_chromium.sh"
        + " (Debian: apt-get install chromium), or set SETREE_SKIP_BROWSER_TESTS=1 to skip these tests";
    if ("1".equals(System.getenv("SETREE_SKIP_BROWSER_TESTS"))) {
      Assumptions.abort("SETREE_SKIP_BROWSER_TESTS=1: " + why);
    }
    fail(why);
    return null;
  }

  /** Ends Chromium (and its helper processes) and removes its profile. */
  @Override
  public void close() throws InterruptedException {
    socket.abort();
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
    try (Stream<Path> walk = Files.walk(profile)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: the test's temporary directory removes the rest
    }
  }
}

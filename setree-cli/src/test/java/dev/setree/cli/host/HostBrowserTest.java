package dev.setree.cli.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.setree.Context;
import dev.setree.TreeView;
import dev.setree.testing.StubLlmServer;
import dev.setree.testing.StubReply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web host's page in headless Chromium (driven over the DevTools protocol by {@link HeadlessChromium})
 * against the stub LLM: it loads and browses the tree, draws a retrieve's cover, streams a chat answer with
 * its context, inserts a fact that the search then finds, and shows a fact holding markup as text. The
 * screenshots go to {@code target/host-*.png}.
 */
@Timeout(120)
class HostBrowserTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir static Path dir;
  static HostFixture f;
  static HeadlessChromium browser;

  @BeforeAll
  static void start() throws Exception {
    f = new HostFixture(dir, 60, HostFixture.STUB);
    browser = HeadlessChromium.launch(dir);
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.close();
    }
    if (f != null) {
      f.close();
    }
  }

  @BeforeEach
  void load() {
    browser.open(f.host.url());
    browser.waitFor("document.body.dataset.ready === '1'", WAIT);
  }

  private static String js(String s) {
    return HostFixture.JSON.valueToTree(s).toString();
  }

  private void submit(String formId) {
    browser.eval("document.getElementById(" + js(formId) + ").requestSubmit()");
  }

  private void type(String inputId, String value) {
    browser.eval("document.getElementById(" + js(inputId) + ").value = " + js(value));
  }

  @Test
  void loadsAndBrowsesTheTree() throws IOException {
    TreeView tree = f.kb.tree();
    assertEquals(f.kb.path().toString(), browser.text("document.getElementById('kb-name').textContent"));
    assertTrue(browser.text("document.getElementById('kb-stats').textContent").startsWith(tree.leafCount() + " leaves"));
    String rootId = tree.id(tree.root());
    assertEquals(rootId, browser.text("document.querySelector('#outline .node').dataset.id"));

    // Opening the root shows its children and the root whole in the details.
    browser.eval("document.querySelector('#outline .node').click()");
    browser.waitFor("document.querySelectorAll('#outline ul .node').length === " + tree.childCount(tree.root()), WAIT);
    assertEquals(rootId, browser.text("document.getElementById('details').dataset.id"));
    assertEquals(tree.text(tree.root()), browser.text("document.querySelector('#details .whole').textContent"));
    int first = tree.child(tree.root(), 0);
    browser.eval("document.querySelector('#outline ul .node').click()");
    browser.waitFor("document.querySelectorAll('#outline ul ul .node').length === " + tree.childCount(first), WAIT);
    browser.screenshot(Path.of("target", "host-tree.png"));

    // A level lists its nodes.
    browser.eval("document.querySelector('#levels button[data-level=\"1\"]').click()");
    int level1 = 0;
    for (int v = 0; v < tree.size(); v++) {
      level1 += tree.level(v) == 1 ? 1 : 0;
    }
    browser.waitFor("document.querySelectorAll('#list li.hit').length === " + level1, WAIT);

    // The search finds the leaves holding a word.
    int coffee = 0;
    for (int v = 0; v < tree.size(); v++) {
      coffee += tree.isLeaf(v) && tree.text(v).toLowerCase(Locale.ROOT).contains("coffee") ? 1 : 0;
    }
    assertTrue(coffee > 0);
    type("search-q", "coffee");
    submit("search-form");
    browser.waitFor("document.body.dataset.searchTotal === '" + coffee + "'", WAIT);
    assertEquals(coffee, browser.eval("document.querySelectorAll('#list li.hit').length").asInt());
    browser.screenshot(Path.of("target", "host-search.png"));
  }

  @Test
  void retrieveDrawsTheCover() throws IOException {
    browser.eval("document.querySelector('.tab[data-tab=retrieve]').click()");
    type("retrieve-prompt", "what coffee does the user drink?");
    type("retrieve-budget", "80");
    submit("retrieve-form");
    browser.waitFor("document.getElementById('retrieve-result').dataset.state === 'done'", WAIT);
    Context ctx = f.kb.retrieve("what coffee does the user drink?", 80);
    assertEquals(ctx.text(), browser.text("document.getElementById('retrieve-text').textContent"),
        "the context as the LLM sees it");
    String figures = browser.text("document.getElementById('retrieve-figures').textContent");
    assertTrue(figures.startsWith(ctx.tokensUsed() + "/80 tokens, " + (ctx.complete() ? "complete" : "partial")),
        figures);
    assertTrue(figures.matches(".* ms — .*"), "latency shown: " + figures);
    assertEquals(ctx.items().size(), browser.eval("document.querySelectorAll('#cover li.visible').length").asInt());
    for (Context.Item it : ctx.items()) {
      assertEquals("visible", browser.text("document.querySelector('#cover li[data-id=" + js(it.nodeId())
          + "]').dataset.status"), it.nodeId());
    }
    assertTrue(browser.eval("document.querySelectorAll('#cover li.carried').length").asInt() > 0, "the walk opened nodes");
    assertTrue(browser.eval("document.querySelectorAll('#cover li.not-shown').length").asInt() > 0);
    browser.screenshot(Path.of("target", "host-retrieve.png"));
  }

  @Test
  void chatStreamsAnAnswerAndShowsItsContext() throws IOException {
    String answer = "The user grinds Blue Heron coffee beans every morning for a pour-over.";
    // About 200 bytes an event, 400 bytes every 100 ms: the answer takes about half a second to arrive.
    f.llm.whenUserMessageContains("coffee", StubReply.summary(answer)
        .throttled(400, Duration.ofMillis(100)));
    browser.eval("document.querySelector('.tab[data-tab=chat]').click()");
    type("chat-message", "what coffee does the user drink?");
    type("chat-budget", "120");
    submit("chat-form");
    // Streamed: the page shows part of the answer before all of it.
    browser.waitFor("document.querySelector('.turn.assistant')?.dataset.state === 'streaming'", WAIT);
    String part = browser.text("document.querySelector('.turn.assistant .answer').textContent");
    assertTrue(!part.isEmpty() && part.length() < answer.length() && answer.startsWith(part),
        "a first part of the answer: '" + part + "'");
    browser.waitFor("document.querySelector('.turn.assistant') && document.querySelector('.turn.assistant')"
        + ".dataset.state === 'done'", WAIT);
    assertEquals(answer, browser.text("document.querySelector('.turn.assistant .answer').textContent"));
    String context = browser.text("document.querySelector('.turn.assistant .context-text').textContent");
    assertTrue(f.llm.chatRequests().get(f.llm.chatRequests().size() - 1).userMessage().contains(context),
        "the context shown is the one the LLM got");
    assertTrue(context.toLowerCase(Locale.ROOT).contains("coffee"), context);
    browser.eval("document.querySelector('.turn.assistant details').open = true");
    browser.screenshot(Path.of("target", "host-chat.png"));

    // The second turn sends the first as history.
    f.llm.defaultReply(StubReply.summary("Stub answer."));
    type("chat-message", "and in the evening?");
    submit("chat-form");
    browser.waitFor("document.querySelectorAll('.turn.assistant')[1]?.dataset.state === 'done'", WAIT);
    JsonNode messages = f.llm.chatRequests().get(f.llm.chatRequests().size() - 1).json().path("messages");
    assertEquals(4, messages.size(), messages.toString());
    assertEquals("assistant", messages.get(2).path("role").asText());
  }

  @Test
  void aSlowLlmEndsTheTurnWithAMessage() {
    // The fixture's LLM read timeout is 2 s; this answer would come after 10 s.
    f.llm.enqueue(StubReply.summary("too late").delayed(Duration.ofSeconds(10)));
    browser.eval("document.querySelector('.tab[data-tab=chat]').click()");
    type("chat-message", "anything slow?");
    submit("chat-form");
    browser.waitFor("document.querySelector('.turn.assistant')?.dataset.state === 'asking'", WAIT);
    assertTrue(browser.text("document.querySelector('.turn.assistant .stat').textContent").startsWith("waiting for the LLM"));
    browser.waitFor("document.querySelector('.turn.assistant')?.dataset.state === 'error'", WAIT);
    String shown = browser.text("document.querySelector('.turn.assistant .error').textContent");
    assertTrue(shown.contains("did not answer in time") && shown.contains("read timeout of 2000 ms")
        && shown.contains(f.llm.baseUrl()), shown);
  }

  @Test
  void insertsAFactFindsItAndDeletesIt() throws IOException {
    browser.eval("document.querySelector('.tab[data-tab=edit]').click()");
    type("insert-text", "The user keeps a sourdough starter named Clint.");
    submit("insert-form");
    browser.waitFor("document.querySelector('#acks li')?.dataset.state === 'visible'", WAIT);
    String ack = browser.text("document.querySelector('#acks li').textContent");
    assertTrue(ack.startsWith("insert queued: ins-"), ack);
    assertTrue(ack.contains("visible at ") && ack.contains("ms after it was accepted"), ack);
    browser.screenshot(Path.of("target", "host-edit.png"));
    browser.eval("document.querySelector('.tab[data-tab=tree]').click()");
    type("search-q", "sourdough starter named clint");
    submit("search-form");
    browser.waitFor("document.body.dataset.searchTotal === '1'", WAIT);
    assertEquals("The user keeps a sourdough starter named Clint.",
        browser.text("document.querySelector('#list li.hit .text').textContent"));

    // Delete it from its details: the Edit tab gets its id, the acknowledgement, then its visibility.
    browser.eval("document.querySelector('#list li.hit .node').click()");
    browser.waitFor("document.querySelector('#details button')", WAIT);
    browser.eval("document.querySelector('#details button').click()");
    browser.waitFor("document.body.dataset.tab === 'edit' && document.getElementById('delete-id').value"
        + ".startsWith('ins-')", WAIT);
    submit("delete-form");
    browser.waitFor("document.querySelector('#acks li')?.dataset.state === 'visible'"
        + " && document.querySelector('#acks li').textContent.startsWith('delete queued')", WAIT);
    assertEquals(0, f.call("GET", "/api/search?q=sourdough%20starter%20named%20clint", null).json()
        .path("total").asInt(), "the leaf is gone");
  }

  @Test
  void aFactHoldingMarkupStaysText() throws Exception {
    String evil = "Note <script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\"> <b>bold</b>";
    HostFixture.Answer a = f.call("POST", "/api/insert", HostFixture.JSON.createObjectNode().put("text", evil)
        .toString());
    assertTrue(f.call("GET", "/api/visible?seq=" + a.json().path("seq").asLong(), null).json()
        .path("visible").asBoolean());
    browser.open(f.host.url());
    browser.waitFor("document.body.dataset.ready === '1'", WAIT);
    type("search-q", "window.__pwned");
    submit("search-form");
    browser.waitFor("document.body.dataset.searchTotal === '1'", WAIT);
    browser.eval("document.querySelector('#list li.hit .node').click()");
    browser.waitFor("document.querySelector('#details .whole')", WAIT);
    assertEquals(evil, browser.text("document.querySelector('#details .whole').textContent"));
    assertEquals(0, browser.eval("document.querySelectorAll('main img, main b, main script').length").asInt(),
        "no element came from the fact");
    assertTrue(browser.eval("window.__pwned === undefined").asBoolean(), "no script of the fact ran");
    // And in a retrieve's cover and context.
    browser.eval("document.querySelector('.tab[data-tab=retrieve]').click()");
    type("retrieve-prompt", "window pwned note script");
    submit("retrieve-form");
    browser.waitFor("document.getElementById('retrieve-result').dataset.state === 'done'", WAIT);
    assertEquals(0, browser.eval("document.querySelectorAll('main img, main b, main script').length").asInt());
    assertTrue(browser.eval("window.__pwned === undefined").asBoolean());
    assertFalse(browser.console().stream().anyMatch(c -> c.contains("Content Security Policy")),
        "no CSP violation: " + browser.console());
    assertTrue(Files.exists(Path.of("target")));
  }

  @Test
  void withoutTheTokenThePageSaysWhichUrlToOpen() {
    browser.open("http://127.0.0.1:" + f.host.port() + "/");
    browser.waitFor("!document.getElementById('problem').hidden", WAIT);
    assertTrue(browser.text("document.getElementById('problem').textContent").contains("#token="));
  }
}

package dev.setree.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.embedding.onnx.allminilml6v2.AllMiniLmL6V2EmbeddingModel;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.query.Query;
import dev.langchain4j.service.AiServices;
import dev.setree.Context;
import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.spi.Fact;
import dev.setree.internal.core.Vectors;
import dev.setree.internal.embed.MiniLmEmbedder;
import dev.setree.internal.embed.WordPieceTokenizer;
import dev.setree.BuildProgress;
import dev.setree.testing.Corpora;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module inside LangChain4j's own RAG pipeline: a knowledge base built with LangChain4j's MiniLM
 * {@code EmbeddingModel} (through {@link LangChain4jEmbedder}) and summaries from a scripted {@code ChatModel}
 * (through {@link LangChain4jSummarizer}); {@link SETreeContentRetriever} behind {@code AiServices} and
 * {@code DefaultRetrievalAugmentor}, with a scripted chat model that records the prompt it receives.
 */
class SETreeLangChain4jTest {
  /** A chat model that answers from a script and records every request. */
  static final class ScriptedChatModel implements ChatModel {
    final List<ChatRequest> requests = Collections.synchronizedList(new ArrayList<>());
    final Function<ChatRequest, String> script;

    ScriptedChatModel(Function<ChatRequest, String> script) {
      this.script = script;
    }

    @Override
    public ChatResponse doChat(ChatRequest request) {
      requests.add(request);
      return ChatResponse.builder().aiMessage(AiMessage.from(script.apply(request))).build();
    }

    String lastUserText() {
      List<ChatMessage> m = requests.get(requests.size() - 1).messages();
      return ((UserMessage) m.get(m.size() - 1)).singleText();
    }
  }

  interface Assistant {
    String chat(String message);
  }

  @TempDir static Path dir;
  static AllMiniLmL6V2EmbeddingModel lc4jModel;
  static WordPieceTokenizer tokenizer;
  static ScriptedChatModel summaries;
  static SETree kb;
  static final List<Fact> FACTS = Corpora.personal().subList(0, 60);

  @BeforeAll
  static void build() {
    lc4jModel = new AllMiniLmL6V2EmbeddingModel();
    tokenizer = WordPieceTokenizer.load();
    // Summaries: the first fact of the node, marked, so the test can tell who wrote them.
    summaries = new ScriptedChatModel(r -> {
      String user = ((UserMessage) r.messages().get(1)).singleText();
      String first = user.lines().filter(l -> l.startsWith("1. ")).findFirst().orElseThrow().substring(3);
      return "In short: " + first;
    });
    SETreeConfig config = SETreeConfig.builder()
        .embedder(new LangChain4jEmbedder(lc4jModel, "langchain4j:all-minilm-l6-v2", 384))
        .tokenCounter(tokenizer)
        .summarizer(new LangChain4jSummarizer(summaries))
        .build();
    kb = SETree.open(dir.resolve("kb.db"), config);
    kb.build(FACTS, BuildProgress.NONE);
  }

  @AfterAll
  static void close() {
    kb.close();
    tokenizer.close();
  }

  @Test
  void summariesComeFromTheChatModelWithFactsAsDelimitedData() {
    assertFalse(summaries.requests.isEmpty(), "the chat model wrote summaries");
    String user = ((UserMessage) summaries.requests.get(0).messages().get(1)).singleText();
    assertTrue(user.contains("<facts>\n1. ") && user.contains("</facts>"), user);
    Context ctx = kb.retrieve("everything about the user", 48);
    assertTrue(ctx.items().stream().anyMatch(i -> !i.isLeaf() && i.text().startsWith("In short: ")), ctx.text());
    assertEquals("langchain4j:all-minilm-l6-v2", kb.stats().modelId());
  }

  @Test
  void theEmbedderAdapterGivesUnitVectorsCloseToSetreesOwnMiniLm() {
    LangChain4jEmbedder e = new LangChain4jEmbedder(lc4jModel, "m", 384);
    String text = "the user adopted a three-legged cat";
    float[] ours = e.embed(text);
    assertEquals(1.0, Math.sqrt(Vectors.dot(ours, ours)), 1e-4);
    try (MiniLmEmbedder mini = MiniLmEmbedder.load()) {
      assertTrue(Vectors.dot(ours, mini.embed(text)) > 0.99, "the same model behind both");
    }
    IllegalArgumentException blank = assertThrows(IllegalArgumentException.class, () -> e.embed(List.of("a", " ")));
    assertTrue(blank.getMessage().contains("text 2 of 2 is blank"), blank.getMessage());
    assertThrows(IllegalArgumentException.class, () -> new LangChain4jEmbedder(lc4jModel, " ", 384));
  }

  @Test
  void contentsAreTheTreeCoverInTreeOrderWithMetadata() {
    String prompt = FACTS.get(17).text();
    List<Content> contents = SETreeContentRetriever.builder(kb).budget(96).build().retrieve(Query.from(prompt));
    Context ctx = kb.retrieve(prompt, 96);
    assertEquals(ctx.items().stream().map(Context.Item::nodeId).toList(),
        contents.stream().map(c -> c.textSegment().metadata().getString(SETreeContentRetriever.NODE_ID)).toList(),
        "one content per visible node, in tree order");
    int tokens = 0;
    boolean sawLeaf = false;
    boolean sawSummary = false;
    for (Content c : contents) {
      var md = c.textSegment().metadata();
      String kind = md.getString(SETreeContentRetriever.KIND);
      int level = md.getInteger(SETreeContentRetriever.LEVEL);
      int covered = md.getInteger(SETreeContentRetriever.COVERED_LEAVES);
      tokens += md.getInteger(SETreeContentRetriever.TOKENS);
      if ("leaf".equals(kind)) {
        sawLeaf = true;
        assertEquals(0, level);
        assertEquals(1, covered);
      } else {
        sawSummary = true;
        assertEquals("summary", kind);
        assertTrue(level >= 1 && covered >= 2, md.toString());
      }
    }
    assertTrue(sawLeaf && sawSummary, "a tree cover mixes facts and summaries at this budget");
    assertTrue(tokens <= 96, "within the budget: " + tokens);
    assertTrue(contents.stream().anyMatch(c -> c.textSegment().text().equals(prompt)), "the fact asked about");
  }

  @Test
  void theBudgetCanBeSetPerQuery() {
    SETreeContentRetriever perQuery = SETreeContentRetriever.builder(kb)
        .budget(q -> q.text().startsWith("short:") ? 32 : 400).build();
    int small = tokens(perQuery.retrieve(Query.from("short: what does the user cook?")));
    int large = tokens(perQuery.retrieve(Query.from("long: what does the user cook?")));
    assertTrue(small <= 32 && large <= 400 && large > small, small + " vs " + large);
    assertThrows(IllegalArgumentException.class, () -> SETreeContentRetriever.builder(kb).budget(-1));
    IllegalArgumentException neg = assertThrows(IllegalArgumentException.class,
        () -> SETreeContentRetriever.builder(kb).budget(q -> -5).build().retrieve(Query.from("x")));
    assertTrue(neg.getMessage().contains("is -5"), neg.getMessage());
  }

  static int tokens(List<Content> contents) {
    return contents.stream().mapToInt(c -> c.textSegment().metadata().getInteger(SETreeContentRetriever.TOKENS)).sum();
  }

  @Test
  void aiServicesGetsTheTreeCoverInItsPrompt() {
    ScriptedChatModel chat = new ScriptedChatModel(r -> "The user has a cat.");
    SETreeContentRetriever retriever = SETreeContentRetriever.builder(kb).budget(128).build();
    Assistant assistant = AiServices.builder(Assistant.class)
        .chatModel(chat)
        .retrievalAugmentor(DefaultRetrievalAugmentor.builder().contentRetriever(retriever).build())
        .build();
    String question = FACTS.get(5).text() + "?";
    assertEquals("The user has a cat.", assistant.chat(question));
    String prompt = chat.lastUserText();
    assertTrue(prompt.startsWith(question), prompt);
    List<Content> expected = retriever.retrieve(Query.from(question));
    int at = -1;
    for (Content c : expected) {
      int next = prompt.indexOf(c.textSegment().text(), at + 1);
      assertTrue(next > at, "content in tree order in the prompt: '" + c.textSegment().text() + "'\n" + prompt);
      at = next;
    }
    assertTrue(prompt.contains(FACTS.get(5).text()), "the fact asked about reaches the model");
  }

  @Test
  void aFailingChatModelFallsBackToExtractiveSummaries(@TempDir Path other) {
    ChatModel broken = new ChatModel() {
      @Override
      public ChatResponse doChat(ChatRequest request) {
        throw new IllegalStateException("model offline");
      }
    };
    SETreeConfig config = SETreeConfig.builder()
        .embedder(new LangChain4jEmbedder(lc4jModel, "langchain4j:all-minilm-l6-v2", 384))
        .tokenCounter(tokenizer)
        .summarizer(new LangChain4jSummarizer(broken))
        .build();
    try (SETree k = SETree.open(other.resolve("kb.db"), config)) {
      k.build(FACTS.subList(0, 20), BuildProgress.NONE);
      assertEquals(20, k.stats().leaves());
      assertTrue(k.retrieve("anything", 32).items().stream().noneMatch(i -> i.text().startsWith("In short")));
    }
  }
}

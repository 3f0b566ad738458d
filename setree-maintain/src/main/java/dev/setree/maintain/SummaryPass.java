package dev.setree.maintain;

import dev.setree.core.Embedder;
import dev.setree.core.Fact;
import dev.setree.core.Passage;
import dev.setree.core.Summarizer;
import dev.setree.core.SummarizerException;
import dev.setree.core.TokenCounter;
import dev.setree.core.Tree;
import dev.setree.core.Vectors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Deferred summarisation: once the hierarchy exists, one bottom-up pass writes every internal node's
 * summary, children before parents, with at most {@code max_concurrency} summariser calls in flight, then
 * embeds the summaries and derives fidelity, loss and faithfulness.
 *
 * <p><b>Budget-monotone, enforced:</b> each node's cap is {@code min(level cap, tokens of its children)}
 * and whatever the summariser returns is cut to it ({@link TextCut}). A summariser failure (exception or
 * blank text) falls back to the {@link ExtractiveSummarizer} and is counted.
 */
final class SummaryPass {
  private final Embedder embedder;
  private final TokenCounter counter;
  private final Summarizer summarizer;
  private final BuildOptions options;
  private final ExtractiveSummarizer fallback = new ExtractiveSummarizer();

  SummaryPass(Embedder embedder, TokenCounter counter, Summarizer summarizer, BuildOptions options) {
    this.embedder = embedder;
    this.counter = counter;
    this.summarizer = summarizer;
    this.options = options;
  }

  /** Per node outputs, in the arrays the {@link Tree} constructor takes. */
  record Output(String[] texts, String[] kinds, int[] tokens, float[] embeddings, float[] centroids,
      int[] faithfulness, int[][] sources, int fallbacks) {}

  Output run(List<Fact> facts, List<String> ids, float[] leafEmb, List<Integer> parentList, List<Integer> levelList,
      List<float[]> sums, BuildProgress progress) {
    int n = parentList.size();
    int leaves = facts.size();
    int dim = embedder.dimension();
    int[] parent = parentList.stream().mapToInt(Integer::intValue).toArray();
    int[] level = levelList.stream().mapToInt(Integer::intValue).toArray();
    // Children lists and depth from the root.
    List<List<Integer>> children = new ArrayList<>(n);
    for (int v = 0; v < n; v++) {
      children.add(new ArrayList<>());
    }
    for (int v = 0; v < n; v++) {
      if (parent[v] >= 0) {
        children.get(parent[v]).add(v);
      }
    }
    int[] depth = new int[n];
    for (int v = n - 2; v >= 0; v--) {
      depth[v] = depth[parent[v]] + 1;
    }
    String[] texts = new String[n];
    String[] kinds = new String[n];
    int[] tokens = new int[n];
    float[] embeddings = new float[n * dim];
    float[] centroids = new float[(n - leaves) * dim];
    int[] faithfulness = new int[n];
    int[][] sources = new int[n][];
    System.arraycopy(leafEmb, 0, embeddings, 0, leaves * dim);
    for (int i = 0; i < leaves; i++) {
      texts[i] = facts.get(i).text();
      tokens[i] = counter.count(texts[i]);
      faithfulness[i] = 100;
    }
    for (int v = leaves; v < n; v++) {
      float[] c = Vectors.normalize(sums.get(v).clone());
      System.arraycopy(c, 0, centroids, (v - leaves) * dim, dim);
    }
    // Leaves under each node, by an ascending pass (children have smaller indexes).
    List<List<Integer>> leavesUnder = new ArrayList<>(n);
    for (int v = 0; v < n; v++) {
      leavesUnder.add(v < leaves ? List.of(v) : new ArrayList<>());
    }
    for (int v = 0; v < n - 1; v++) {
      leavesUnder.get(parent[v]).addAll(leavesUnder.get(v));
    }
    // Group internal nodes into waves: a node's wave is 1 + the highest wave among its internal children.
    int[] wave = new int[n];
    int maxWave = 0;
    for (int v = leaves; v < n; v++) {
      for (int c : children.get(v)) {
        wave[v] = Math.max(wave[v], c >= leaves ? wave[c] + 1 : 1);
      }
      maxWave = Math.max(maxWave, wave[v]);
    }
    List<List<Integer>> quotedUnder = new ArrayList<>(n);
    for (int v = 0; v < n; v++) {
      quotedUnder.add(List.of());
    }
    AtomicInteger fallbacks = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    int internal = n - leaves;
    ExecutorService pool = Executors.newFixedThreadPool(options.threads(), r -> {
      Thread t = new Thread(r, "setree-summary");
      t.setDaemon(true);
      return t;
    });
    try {
      for (int w = 1; w <= maxWave; w++) {
        List<Integer> nodes = new ArrayList<>();
        for (int v = leaves; v < n; v++) {
          if (wave[v] == w) {
            nodes.add(v);
          }
        }
        List<Future<Summarizer.Summary>> futures = new ArrayList<>(nodes.size());
        for (int v : nodes) {
          List<Passage> childPassages = new ArrayList<>();
          int childTokens = 0;
          for (int c : children.get(v)) {
            childPassages.add(new Passage(ids.get(c), texts[c], Vectors.row(embeddings, c, dim)));
            childTokens += tokens[c];
          }
          // Leaves already quoted by a summary below are not offered again: each level says something new.
          Set<Integer> quotedBelow = new HashSet<>();
          for (int c : children.get(v)) {
            for (int l : quotedUnder.get(c)) {
              quotedBelow.add(l);
            }
          }
          List<Passage> leafPassages = new ArrayList<>();
          for (int l : leavesUnder.get(v)) {
            if (!quotedBelow.contains(l)) {
              leafPassages.add(new Passage(facts.get(l).id(), texts[l], Vectors.row(leafEmb, l, dim)));
            }
          }
          if (leafPassages.isEmpty()) {
            for (int l : leavesUnder.get(v)) {
              leafPassages.add(new Passage(facts.get(l).id(), texts[l], Vectors.row(leafEmb, l, dim)));
            }
          }
          int levelCap = depth[v] <= 1 ? options.topSummaryTokens() : options.summaryTokens();
          int cap = Math.min(levelCap, childTokens);
          Summarizer.Request req = new Summarizer.Request(level[v], depth[v], childPassages, leafPassages,
              Vectors.row(centroids, v - leaves, dim), cap, counter);
          int node = v;
          futures.add(pool.submit(() -> {
            Summarizer.Summary s = summarizeSafely(req, node, fallbacks, kinds);
            progress.update("summaries", done.incrementAndGet(), internal);
            return s;
          }));
        }
        List<String> toEmbed = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
          int v = nodes.get(i);
          Summarizer.Summary s = await(futures.get(i));
          int cap = Math.min(depth[v] <= 1 ? options.topSummaryTokens() : options.summaryTokens(),
              sumTokens(children.get(v), tokens));
          String text = TextCut.fit(s.text().strip().replaceAll("\\s+", " "), cap, counter);
          if (text.isBlank()) {
            text = shortestChild(children.get(v), texts, tokens);
          }
          texts[v] = text;
          tokens[v] = counter.count(text);
          List<Integer> src = new ArrayList<>();
          for (String id : s.sourceLeafIds()) {
            for (int l : leavesUnder.get(v)) {
              if (facts.get(l).id().equals(id) && text.contains(texts[l].strip().replaceAll("\\s+", " "))) {
                src.add(l);
                break;
              }
            }
          }
          sources[v] = src.stream().mapToInt(Integer::intValue).toArray();
          List<Integer> quoted = new ArrayList<>(src);
          for (int c : children.get(v)) {
            quoted.addAll(quotedUnder.get(c));
          }
          quotedUnder.set(v, quoted);
          toEmbed.add(text);
        }
        float[][] vecs = embedder.embed(toEmbed);
        for (int i = 0; i < nodes.size(); i++) {
          int v = nodes.get(i);
          System.arraycopy(vecs[i], 0, embeddings, v * dim, dim);
          float cos = Vectors.dot(vecs[i], 0, centroids, (v - leaves) * dim, dim);
          faithfulness[v] = Math.round(100f * Math.max(-1f, Math.min(1f, cos)));
        }
      }
    } finally {
      pool.shutdownNow();
    }
    return new Output(texts, kinds, tokens, embeddings, centroids, faithfulness, sources, fallbacks.get());
  }

  private Summarizer.Summary summarizeSafely(Summarizer.Request req, int node, AtomicInteger fallbacks,
      String[] kinds) {
    if (summarizer != fallback) {
      try {
        Summarizer.Summary s = summarizer.summarize(req);
        if (s != null && s.text() != null && !s.text().isBlank()) {
          kinds[node] = summarizer.kind();
          return s;
        }
      } catch (SummarizerException | IllegalStateException e) {
        // fall through to the extractive summary; counted below
      }
      if (!(summarizer instanceof ExtractiveSummarizer)) {
        fallbacks.incrementAndGet();
      }
    }
    kinds[node] = fallback.kind();
    return fallback.summarize(req);
  }

  private static <T> T await(Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while summarising", e);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(c);
    }
  }

  private static int sumTokens(List<Integer> nodes, int[] tokens) {
    int s = 0;
    for (int c : nodes) {
      s += tokens[c];
    }
    return s;
  }

  private static String shortestChild(List<Integer> nodes, String[] texts, int[] tokens) {
    int best = nodes.get(0);
    for (int c : nodes) {
      if (tokens[c] < tokens[best]) {
        best = c;
      }
    }
    return texts[best];
  }
}

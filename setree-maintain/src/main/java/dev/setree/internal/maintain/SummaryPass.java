package dev.setree.internal.maintain;

import dev.setree.spi.Embedder;
import dev.setree.spi.Passage;
import dev.setree.spi.Summarizer;
import dev.setree.spi.SummarizerException;
import dev.setree.spi.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Deferred summarisation and the faithfulness pass: one bottom-up pass over a draft's internal nodes,
 * children before parents, with at most {@code max_concurrency} summariser calls in flight.
 *
 * <p>A node is (re)summarised when its children changed, when it has no summary, when its summary breaks
 * its cap, or when its leaf-centroid changed and its faithfulness fell: it is now below the threshold and
 * lower than before the run (or unknown) ({@link SummaryRules}). Other nodes whose centroid changed keep their
 * summary and get their faithfulness recomputed, so a slow drift re-summarises a node once it has fallen by a whole
 * point.
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

  /**
   * In a pass over the changed nodes only (a maintenance run's), an extractive summary of a node with fewer leaves
   * is written on the pass's own thread: it takes well under a millisecond, less than handing it to a pool thread
   * took (1.3 ms on average for nodes of under 100 leaves at 50,000 leaves, most of it starting the pool's
   * thread). Larger nodes' summaries run on the pool, several at once, as do all of a pass over every node (a
   * build: thousands of summaries) and a summariser whose calls cost (an LLM), {@code max_concurrency} at once.
   */
  static final int INLINE_BELOW = 2048;

  private final int inlineBelow;

  SummaryPass(Embedder embedder, TokenCounter counter, Summarizer summarizer, BuildOptions options) {
    this(embedder, counter, summarizer, options, INLINE_BELOW);
  }

  /** A pass that writes inline the summaries of nodes of fewer than {@code inlineBelow} leaves (tests). */
  SummaryPass(Embedder embedder, TokenCounter counter, Summarizer summarizer, BuildOptions options, int inlineBelow) {
    this.embedder = embedder;
    this.counter = counter;
    this.summarizer = summarizer;
    this.options = options;
    this.inlineBelow = inlineBelow;
  }

  /**
   * Counts of one pass.
   *
   * @param summarized summaries written
   * @param fallbacks of them, written by the extractive summariser because the configured one failed
   * @param textsKept of them, whose text came out as the node's summary already was: its embedding was kept
   * @param embeddingsReused of them, whose new text is a child's or a quoted leaf's text ({@link #embeddingOf}), or
   *     one the model was asked for before, in an earlier wave or pass through the draft ({@link RecentEmbeddings}):
   *     the model was not asked again for its embedding
   * @param examined the internal nodes the pass looked at: all of them, or the changed ones and their ancestors
   */
  record Result(int summarized, int fallbacks, int textsKept, int embeddingsReused, int examined) {}

  /**
   * Writes the summaries the draft needs.
   *
   * @param faithfulnessThreshold nodes on a changed path whose faithfulness fell, to below it, are re-summarised;
   *     {@code Integer.MIN_VALUE} turns the faithfulness pass off
   */
  Result run(DraftTree draft, int faithfulnessThreshold, BuildProgress progress) {
    DraftNode root = draft.root();
    if (root == null) {
      return new Result(0, 0, 0, 0, 0);
    }
    SummaryRules rules = SummaryRules.of(options, faithfulnessThreshold);
    boolean dirtyOnly = rules.equals(draft.summaryRules);
    draft.summaryRules = null; // claimed again only once this pass is through
    if (!draft.summaryShallow.isEmpty()) {
      RelevanceMemo.handOver(draft.summaryShallow.get(0), root); // the last pass's root
    }
    if (dirtyOnly && !draft.touched.all()) {
      for (DraftNode v : draft.touchedInternal()) {
        LeavesUnder.changed(v); // something under it and above it may have changed since the parts were kept
      }
    } else {
      LeavesUnder.forgetAll(draft);
    }
    List<List<DraftNode>> waves = dirtyOnly ? SummaryWaves.changed(draft, root) : SummaryWaves.all(draft, root);
    ExtractiveSummarizer extractive = forCorpus(summarizer instanceof ExtractiveSummarizer e ? e : fallback, root);
    AtomicInteger fallbacks = new AtomicInteger();
    AtomicInteger summarized = new AtomicInteger();
    AtomicInteger textsKept = new AtomicInteger();
    int reused = 0;
    int todo = 0;
    int examined = 0;
    for (List<DraftNode> wave : waves) {
      examined += wave.size();
      for (DraftNode v : wave) {
        if (v.structural || v.text == null) {
          todo++;
        }
      }
    }
    int total = Math.max(1, todo);
    boolean inlineSmall = dirtyOnly && summarizer instanceof ExtractiveSummarizer;
    // A maintenance pass whose summaries do not read their children's embeddings gives the nodes their new texts'
    // embeddings after the last wave (a text is embedded alike alone or in any batch, bit for bit). It asks the model
    // for those waiting while the summaries of a wave are written on the pool, and for the rest at the end.
    RecentEmbeddings recent = draft.recentEmbeddings;
    recent.model(embedder.modelId());
    DeferredEmbeddings deferred = inlineSmall && !((ExtractiveSummarizer) summarizer).readsChildEmbeddings()
        ? new DeferredEmbeddings(recent) : null;
    ExecutorService pool = null; // made for the first summary that is not written inline
    try {
      for (List<DraftNode> wave : waves) {
        if (deferred != null) {
          deferred.nextWave();
        }
        List<DraftNode> nodes = new ArrayList<>();
        for (DraftNode v : wave) {
          v.touch(); // its summary, embedding or faithfulness may change
          if (rules.needsSummary(v, v.depth)) {
            nodes.add(v);
          } else if (v.centroidChanged) {
            v.faithfulness = SummaryRules.faithfulness(v);
            v.centroidChanged = false;
          }
        }
        List<Future<Summarizer.Summary>> futures = new ArrayList<>(nodes.size());
        boolean onPool = false;
        List<LeavesUnder> leavesOf = new ArrayList<>(nodes.size()); // gathered once: the root has every leaf
        for (DraftNode v : nodes) {
          LeavesUnder under = LeavesUnder.of(v, draft.partsKeptFrom);
          leavesOf.add(under);
          Summarizer.Request req = request(v, v.depth, under, rules,
              under.size() >= draft.relevanceFrom ? draft.leafNormBound() : Float.NaN, draft.relevanceCandidates);
          Callable<Summarizer.Summary> task = () -> {
            Summarizer.Summary s = summarizeSafely(req, v, fallbacks, extractive);
            progress.update("summaries", summarized.incrementAndGet(), Math.max(total, summarized.get()));
            return s;
          };
          if (inlineSmall && under.size() < inlineBelow) {
            FutureTask<Summarizer.Summary> now = new FutureTask<>(task); // a failure shows at await, as a pool's
            now.run();
            futures.add(now);
          } else {
            if (pool == null) {
              pool = Executors.newFixedThreadPool(options.threads(), r -> {
                Thread t = new Thread(r, "setree-summary");
                t.setDaemon(true);
                return t;
              });
            }
            futures.add(pool.submit(task));
            onPool = true;
          }
        }
        if (onPool && deferred != null) {
          deferred.embedWaiting(embedder); // this thread would only wait: the model runs meanwhile
        }
        List<String> toEmbed = new ArrayList<>(nodes.size());
        List<DraftNode> embedding = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
          DraftNode v = nodes.get(i);
          String before = v.text;
          Summarizer.Summary s = await(futures.get(i));
          int cap = rules.cap(v, v.depth);
          String text = TextCut.fit(s.text().strip().replaceAll("\\s+", " "), cap, counter);
          if (text.isBlank()) {
            text = shortestChild(v).text;
          }
          v.text = text;
          v.tokens = counter.count(text);
          LeavesUnder under = leavesOf.get(i);
          List<DraftNode> src = under.sources(draft, s.sourceLeafIds(), text);
          v.sources = src;
          under.keep(v);
          float[] known;
          if (text.equals(before) && v.embedding != null) {
            // The summary came out as it was (a new leaf below that it does not quote, say): its embedding is
            // the model's of this very text already, so the model is not asked again.
            textsKept.incrementAndGet();
            summarized(v);
          } else if (deferred != null && deferred.join(text, v, src)) {
            // a text waiting for its embedding (a child's new summary, say): v gets the same vector after the pass
          } else if ((known = embeddingOf(text, v, src)) != null || (known = recent.get(text)) != null) {
            v.embedding = known;
            reused++;
            summarized(v);
          } else if (deferred != null) {
            deferred.add(text, v);
          } else {
            toEmbed.add(text);
            embedding.add(v);
          }
        }
        if (!toEmbed.isEmpty()) {
          float[][] vecs = embedder.embed(toEmbed);
          for (int i = 0; i < embedding.size(); i++) {
            DraftNode v = embedding.get(i);
            v.embedding = vecs[i];
            recent.put(toEmbed.get(i), vecs[i]);
            summarized(v);
          }
        }
      }
      if (deferred != null) {
        reused += deferred.embed(embedder);
      }
    } finally {
      if (pool != null) {
        pool.shutdownNow();
      }
    }
    draft.summaryShallow = SummaryWaves.shallow(root);
    draft.summaryRules = rules;
    return new Result(summarized.get(), fallbacks.get(), textsKept.get(), reused, examined);
  }

  /** Marks {@code v} as summarised, its faithfulness that of its (new or kept) summary embedding. */
  static void summarized(DraftNode v) {
    v.faithfulness = SummaryRules.faithfulness(v);
    v.structural = false;
    v.centroidChanged = false;
  }

  /**
   * The model's embedding of {@code text} when a child of {@code v} or one of the leaves its summary quotes has that
   * very text (a copy), else null. An extractive summary is often a child's summary or a short leaf's text whole
   * (about a third of the internal nodes of a 50,000-leaf SOTU tree), and a node's embedding is always the model's
   * embedding of its own text, so asking the model again would give the same vector. A child is in an earlier wave:
   * its embedding is final.
   */
  private static float[] embeddingOf(String text, DraftNode v, List<DraftNode> quoted) {
    for (DraftNode c : v.children) {
      if (text.equals(c.text)) {
        float[] e = c.embeddingCopy();
        if (e != null) {
          return e;
        }
      }
    }
    for (DraftNode l : quoted) {
      if (text.equals(l.text)) {
        return l.embeddingCopy();
      }
    }
    return null;
  }

  /** The extractive summariser with the term statistics of the leaves under {@code root}, if it uses them. */
  private static ExtractiveSummarizer forCorpus(ExtractiveSummarizer extractive, DraftNode root) {
    if (!extractive.usesCorpus()) {
      return extractive;
    }
    List<String> corpus = new ArrayList<>();
    for (DraftNode l : leavesUnder(root, new ArrayList<>())) {
      corpus.add(l.text);
    }
    return extractive.forCorpus(corpus);
  }

  /**
   * What the summariser is asked for {@code v}, whose leaves are {@code under}, capped by {@code rules}; unless
   * {@code normBound} (at least every leaf's norm) is NaN, {@code v} keeps what its relevance scan found for the next
   * ({@link RelevanceMemo}); the {@code candidates} leaves closest to its centroid compete.
   */
  private Summarizer.Request request(DraftNode v, int depth, LeavesUnder under, SummaryRules rules,
      float normBound, int candidates) {
    List<Passage> children = new ArrayList<>();
    for (DraftNode c : v.children) {
      children.add(new Passage(c.id, c.text, c.embeddingToRead()));
    }
    LeafPassages offered = under.offered(Float.isNaN(normBound) ? null : v, normBound, candidates);
    return new Summarizer.Request(v.level, depth, children, offered, v.centroid(), rules.cap(v, depth), counter);
  }

  static List<DraftNode> leavesUnder(DraftNode v, List<DraftNode> out) {
    if (v.leaf) {
      out.add(v);
    } else {
      for (DraftNode c : v.children) {
        leavesUnder(c, out);
      }
    }
    return out;
  }

  private Summarizer.Summary summarizeSafely(Summarizer.Request req, DraftNode node, AtomicInteger fallbacks,
      ExtractiveSummarizer extractive) {
    if (!(summarizer instanceof ExtractiveSummarizer)) {
      try {
        Summarizer.Summary s = summarizer.summarize(req);
        if (s != null && s.text() != null && !s.text().isBlank()) {
          node.kind = summarizer.kind();
          return s;
        }
      } catch (SummarizerException | IllegalStateException e) {
        // fall through to the extractive summary, counted
      }
      fallbacks.incrementAndGet();
    }
    node.kind = extractive.kind();
    return extractive.summarize(req);
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

  private static DraftNode shortestChild(DraftNode v) {
    DraftNode best = v.children.get(0);
    for (DraftNode c : v.children) {
      if (c.tokens < best.tokens) {
        best = c;
      }
    }
    return best;
  }
}

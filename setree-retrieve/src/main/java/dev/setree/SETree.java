package dev.setree;

import dev.setree.core.CapabilityScore;
import dev.setree.core.ContextFormat;
import dev.setree.core.Cover;
import dev.setree.core.Embedder;
import dev.setree.core.Fact;
import dev.setree.core.Summarizer;
import dev.setree.core.TokenCounter;
import dev.setree.core.Tree;
import dev.setree.core.TreeCoverWalk;
import dev.setree.core.Vectors;
import dev.setree.embed.MiniLmEmbedder;
import dev.setree.maintain.BuildOptions;
import dev.setree.maintain.BuildProgress;
import dev.setree.maintain.BuildResult;
import dev.setree.maintain.ExtractiveSummarizer;
import dev.setree.maintain.TreeBuilder;
import dev.setree.store.SqliteTreeStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * An open knowledge base: the entry point of the library. It builds a hierarchy of summaries over leaf
 * facts and, per prompt, returns a {@link Context}: a tree cover that fits a token budget, with summaries
 * where the prompt does not care and the exact facts where it does.
 *
 * <pre>{@code
 * try (SETree kb = SETree.open(Path.of("kb.db"))) {
 *   kb.build(List.of("the user works on SETree", "the user writes Java 17"));
 *   Context ctx = kb.retrieve("what does the user work on?", 512);
 *   String text = ctx.text();
 * }
 * }</pre>
 *
 * <p><b>Threads.</b> {@code retrieve} is lock-free and may be called from any number of threads; it reads
 * an immutable snapshot that {@code build} replaces atomically, so a reader never sees a half-built tree.
 * Writers ({@code build}) are serialised. {@code retrieve} never calls a summariser or an LLM.
 */
public final class SETree implements AutoCloseable {
  private final Path path;
  private final SETreeConfig config;
  private final Embedder embedder;
  private final boolean ownsEmbedder;
  private final TokenCounter counter;
  private final Summarizer summarizer;
  private final SqliteTreeStore store;
  private final ContextFormat format;
  private final TreeCoverWalk walk;
  private final Object writeLock = new Object();
  private volatile Snapshot snapshot;
  private volatile boolean closed;

  private SETree(Path path, SETreeConfig config, Embedder embedder, boolean ownsEmbedder,
      TokenCounter counter, SqliteTreeStore store) {
    this.path = path;
    this.config = config;
    this.embedder = embedder;
    this.ownsEmbedder = ownsEmbedder;
    this.counter = counter;
    this.summarizer = config.summarizer() != null ? config.summarizer() : new ExtractiveSummarizer();
    this.store = store;
    this.format = new ContextFormat(counter);
    this.walk = new TreeCoverWalk(new CapabilityScore((float) config.beta(), (float) config.epsilon()),
        (float) config.overviewShare(), format);
    this.snapshot = Snapshot.of(store.loadTree());
  }

  /** Opens (or creates) the knowledge base at {@code path} with the embedded defaults. */
  public static SETree open(Path path) {
    return open(path, SETreeConfig.defaults());
  }

  /**
   * Opens (or creates) the knowledge base at {@code path}.
   *
   * @throws dev.setree.store.StoreException if the file is not a SETree database, is corrupt, is of a
   *     newer format, or was built with another embedder; the file is then left untouched
   */
  public static SETree open(Path path, SETreeConfig config) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(config, "config");
    Embedder embedder = config.embedder();
    boolean owns = false;
    TokenCounter counter = config.tokenCounter();
    if (embedder == null) {
      MiniLmEmbedder mini = MiniLmEmbedder.load();
      embedder = mini;
      owns = true;
      if (counter == null) {
        counter = mini.tokenizer();
      }
    }
    if (counter == null) {
      throw new IllegalArgumentException("a custom embedder needs a token counter too (tokenCounter)");
    }
    SqliteTreeStore store = null;
    try {
      store = SqliteTreeStore.open(path, embedder.modelId(), embedder.dimension());
      return new SETree(path, config, embedder, owns, counter, store);
    } catch (RuntimeException e) {
      if (store != null) {
        store.close();
      }
      if (owns) {
        embedder.close();
      }
      throw e;
    }
  }

  /** Builds the tree from plain texts (ids {@code f0, f1, ...}); see {@link #build(Collection, BuildProgress)}. */
  public void build(List<String> texts) {
    List<Fact> facts = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      facts.add(Fact.of("f" + i, texts.get(i)));
    }
    build(facts, BuildProgress.NONE);
  }

  /**
   * Builds the tree from {@code facts}, replacing any tree the knowledge base held, atomically: the file
   * and readers keep the old tree until the new one is saved. Blocks until done.
   *
   * @throws IllegalArgumentException with fewer than two facts, a blank text, or duplicate ids
   */
  public BuildResult.Stats build(Collection<Fact> facts, BuildProgress progress) {
    ensureOpen();
    synchronized (writeLock) {
      TreeBuilder builder = new TreeBuilder(embedder, counter, summarizer, buildOptions());
      BuildResult result = builder.build(List.copyOf(facts), progress);
      store.saveTreeWithHierarchy(result.tree(), result.hierarchy(), 0);
      snapshot = Snapshot.of(result.tree());
      return result.stats();
    }
  }

  private BuildOptions buildOptions() {
    return new BuildOptions(config.knnK(), config.targetArity(), 42L, config.maxConcurrency(),
        config.topSummaryTokens(), config.summaryTokens());
  }

  /** Retrieves with the configured {@link SETreeConfig#defaultBudget() default budget}. */
  public Context retrieve(String prompt) {
    return retrieve(prompt, config.defaultBudget());
  }

  /**
   * Selects the tree cover for {@code prompt} within {@code budget} tokens. Never calls an LLM; never
   * throws for a small budget (see {@link Context#complete()}). An empty knowledge base gives an empty
   * context.
   *
   * @throws IllegalArgumentException for a blank prompt or a negative budget
   */
  public Context retrieve(String prompt, int budget) {
    return retrieve(prompt, budget, Strategy.TREE_COVER);
  }

  /** Retrieves with the given strategy: the tree cover or one of the flat baselines. */
  public Context retrieve(String prompt, int budget, Strategy strategy) {
    ensureOpen();
    if (prompt == null || prompt.isBlank()) {
      throw new IllegalArgumentException("the prompt must not be empty");
    }
    if (budget < 0) {
      throw new IllegalArgumentException("budget must be >= 0, got " + budget);
    }
    long t0 = System.nanoTime();
    Snapshot s = snapshot;
    Tree tree = s.tree();
    if (tree.isEmpty()) {
      return new Context("", List.of(), 0, budget, true, new Context.Stats(0, 0, System.nanoTime() - t0));
    }
    float[] q = embedder.embed(prompt);
    int leaves = tree.leafCount();
    float[] cos = new float[leaves];
    float[] emb = tree.embeddings();
    int dim = tree.dimension();
    for (int v = 0; v < leaves; v++) {
      cos[v] = Vectors.dot(emb, v * dim, q, 0, dim);
    }
    float[] relevance;
    if (strategy == Strategy.FLAT) {
      relevance = cos;
    } else {
      float[] bm25 = new float[leaves];
      float max = s.lexical().scores(prompt, bm25);
      if (strategy == Strategy.BM25) {
        relevance = bm25;
      } else {
        relevance = cos;
        if (max > 0f && config.tau() > 0) {
          float w = (float) (config.tau() / max);
          for (int v = 0; v < leaves; v++) {
            relevance[v] += w * bm25[v];
          }
        }
      }
    }
    if (strategy != Strategy.TREE_COVER) {
      return packFlat(tree, relevance, budget, t0, strategy == Strategy.BM25);
    }
    Cover cover = walk.walk(tree, relevance, q, budget);
    List<Context.Item> items = new ArrayList<>(cover.items().size());
    for (Cover.Item it : cover.items()) {
      items.add(new Context.Item(tree, it.node(), it.depth(), it.cost()));
    }
    String text = format.render(tree, cover.items());
    return new Context(text, items, cover.tokensUsed(), budget, cover.complete(),
        new Context.Stats(cover.pops(), cover.nodesScored(), System.nanoTime() - t0));
  }

  private Context packFlat(Tree tree, float[] score, int budget, long t0, boolean positiveOnly) {
    int leaves = tree.leafCount();
    Integer[] order = new Integer[leaves];
    for (int i = 0; i < leaves; i++) {
      order[i] = i;
    }
    Arrays.sort(order, (a, b) -> score[a] != score[b] ? Float.compare(score[b], score[a]) : Integer.compare(a, b));
    List<Cover.Item> chosen = new ArrayList<>();
    int used = 0;
    for (int v : order) {
      if (positiveOnly && score[v] <= 0f) {
        break;
      }
      int c = format.cost(tree, v);
      if (used + c <= budget) {
        chosen.add(new Cover.Item(v, 0, c));
        used += c;
      }
      if (budget - used < 2) {
        break;
      }
    }
    List<Context.Item> items = new ArrayList<>(chosen.size());
    for (Cover.Item it : chosen) {
      items.add(new Context.Item(tree, it.node(), 0, it.cost()));
    }
    return new Context(format.render(tree, chosen), items, used, budget, false,
        new Context.Stats(0, leaves, System.nanoTime() - t0));
  }

  /** The current snapshot of the tree (immutable). */
  public Tree tree() {
    return snapshot.tree();
  }

  /** The token counter every budget of this knowledge base is measured in. */
  public TokenCounter tokenCounter() {
    return counter;
  }

  /** The configuration this knowledge base was opened with. */
  public SETreeConfig config() {
    return config;
  }

  /** The database file. */
  public Path path() {
    return path;
  }

  /** Summary figures of the current tree. */
  public Stats stats() {
    Tree t = snapshot.tree();
    int internal = t.size() - t.leafCount();
    double arity = internal == 0 ? 0 : (t.size() - 1) / (double) internal;
    return new Stats(t.leafCount(), t.size(), t.depth(), internal, arity,
        t.isEmpty() ? 0 : t.childCount(t.root()), embedder.modelId());
  }

  /**
   * Summary figures of a tree.
   *
   * @param leaves leaf facts
   * @param nodes all nodes
   * @param depth root's subtree depth
   * @param internalNodes summary nodes
   * @param meanArity mean children per internal node
   * @param rootArity the root's children
   * @param modelId the embedder's model id
   */
  public record Stats(int leaves, int nodes, int depth, int internalNodes, double meanArity, int rootArity,
      String modelId) {}

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("this SETree is closed");
    }
  }

  /** Closes the database and, if SETree loaded it, the embedder. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      store.close();
    } finally {
      if (ownsEmbedder) {
        embedder.close();
      }
    }
  }
}

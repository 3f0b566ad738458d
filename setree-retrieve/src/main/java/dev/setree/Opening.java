package dev.setree;

import dev.setree.internal.embed.MiniLmEmbedder;
import dev.setree.spi.Embedder;
import dev.setree.spi.TokenCounter;
import dev.setree.internal.store.SqliteTreeStore;
import dev.setree.internal.store.StoreException;
import dev.setree.internal.store.StoreFormatException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Opens knowledge bases for {@link SETree}: loads the bundled MiniLM the config names when it carries no
 * embedder (closed with the knowledge base), opens the store read-write or read-only (checking that the file
 * was built with this embedder), and closes what it opened when opening fails. Also {@link SETree#inspect}
 * and {@link SETree#deleteFiles}; a store's failure reaches the caller as a {@link KnowledgeBaseException}.
 */
final class Opening {
  private Opening() {}

  /** See {@link SETree#withEmbedder(SETreeConfig)}. */
  static SETreeConfig withEmbedder(SETreeConfig config) {
    if (config.embedder() != null) {
      return config;
    }
    MiniLmEmbedder mini = loadMiniLm(config);
    return config.toBuilder().embedder(mini)
        .tokenCounter(config.tokenCounter() != null ? config.tokenCounter() : mini.tokenizer()).build();
  }

  /** The MiniLM build {@link SETreeConfig#embedderName()} names (fp32, or int8 for {@code minilm-int8}). */
  private static MiniLmEmbedder loadMiniLm(SETreeConfig config) {
    return config.embedderName().equals("minilm-int8") ? MiniLmEmbedder.loadInt8() : MiniLmEmbedder.load();
  }

  /** See {@link SETree#inspect(Path)}. */
  static Inspection inspect(Path path) {
    try (SqliteTreeStore store = SqliteTreeStore.openReadOnly(path)) {
      return new Inspection(new TreeView(store.loadTree()), store.modelId(), store.dimension(),
          store.pendingMutations().size());
    } catch (StoreException e) {
      throw KnowledgeBaseException.of(e);
    }
  }

  /** See {@link SETree#deleteFiles(Path)}. */
  static void deleteFiles(Path path) {
    try {
      SqliteTreeStore.deleteFiles(path);
    } catch (StoreException e) {
      throw KnowledgeBaseException.of(e);
    }
  }

  /** See {@link SETree#open(Path, SETreeConfig)} and {@link SETree#openReadOnly}. */
  static SETree open(Path path, SETreeConfig config, boolean readOnly) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(config, "config");
    Embedder embedder = config.embedder();
    boolean owns = false;
    TokenCounter counter = config.tokenCounter();
    if (embedder == null) {
      MiniLmEmbedder mini = loadMiniLm(config);
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
      if (readOnly) {
        store = SqliteTreeStore.openReadOnly(path);
        if (!store.modelId().equals(embedder.modelId()) || store.dimension() != embedder.dimension()) {
          throw new StoreFormatException(store.path() + " was built with embedder model '"
              + store.modelId() + "' (dimension " + store.dimension() + "), not with '" + embedder.modelId()
              + "' (dimension " + embedder.dimension() + ")");
        }
      } else {
        store = SqliteTreeStore.open(path, embedder.modelId(), embedder.dimension());
      }
      return new SETree(path, config, embedder, owns, counter, store, readOnly);
    } catch (RuntimeException e) {
      if (store != null) {
        store.close();
      }
      if (owns) {
        embedder.close();
      }
      throw e instanceof StoreException se ? KnowledgeBaseException.of(se) : e;
    }
  }
}

package dev.setree.cli;

import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.internal.eval.Research;
import dev.setree.spi.Embedder;
import dev.setree.spi.TokenCounter;
import picocli.CommandLine.Option;

/**
 * The benchmarks' embedder choice ({@code --embedder minilm|minilm-int8|hash}, {@code --hash-dimension}), a
 * picocli mixin: the hash embedder ({@link Research#hashEmbedder}) measures everything but embedding at sizes
 * a neural model would take hours to embed; its token counts stay WordPiece's.
 */
final class BenchEmbedderOptions {
  @Option(names = "--embedder", defaultValue = "minilm",
      description = "minilm (default), minilm-int8, or hash (feature hashing: no model; for scale runs).")
  String name;

  @Option(names = "--hash-dimension", defaultValue = "64", description = "Dimension of --embedder hash.")
  int hashDimension;

  /** An opened embedder and its token counter; closing it closes the model, if any. */
  record Opened(Embedder embedder, TokenCounter counter) implements AutoCloseable {
    @Override
    public void close() {
      embedder.close();
    }
  }

  /**
   * {@code builder}'s configuration with the chosen embedder loaded (and, for a model, its token counter), as a
   * knowledge base opened with it uses them; an unknown name is refused.
   */
  SETreeConfig configure(SETreeConfig.Builder builder) {
    switch (name) {
      case "hash":
        return builder.embedder(Research.hashEmbedder(hashDimension)).tokenCounter(SETree.defaultTokenCounter())
            .build();
      case "minilm-int8":
      case "minilm":
        return SETree.withEmbedder(builder.embedderName(name).build());
      default:
        throw new IllegalArgumentException("--embedder must be minilm, minilm-int8 or hash, got " + name);
    }
  }

  /** Loads the chosen embedder and its token counter; an unknown name is refused. */
  Opened open() {
    SETreeConfig loaded = configure(SETreeConfig.builder());
    return new Opened(loaded.embedder(), loaded.tokenCounter());
  }
}

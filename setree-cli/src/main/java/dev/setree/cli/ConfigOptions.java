package dev.setree.cli;

import dev.setree.ConfigFile;
import dev.setree.LlmConfig;
import dev.setree.SETreeConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The options every command that opens a knowledge base shares: {@code --config PATH}, {@code --embedder},
 * {@code --llm-base-url} and {@code --llm-model}. Precedence: a flag beats the config file ({@code --config}, else
 * {@code $SETREE_CONFIG}), which beats the defaults. Used as a picocli mixin.
 */
final class ConfigOptions {
  @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(names = "--config", paramLabel = "PATH",
      description = "JSON config file (default: $SETREE_CONFIG if set); see docs/config.md.")
  String config;

  @Option(names = "--llm-base-url", paramLabel = "URL",
      description = "OpenAI-compatible endpoint for LLM summaries, e.g. http://localhost:8080/v1 (llama-server)"
          + " or http://localhost:11434/v1 (Ollama); overrides llm.base_url.")
  String llmBaseUrl;

  @Option(names = "--llm-model", paramLabel = "NAME", description = "Model name for LLM summaries; overrides"
      + " llm.model. Without it (and without llm.model), the server's only or first model from GET {base}/models.")
  String llmModel;

  @Option(names = "--embedder", paramLabel = "NAME", description = "Bundled embedder: minilm (default, float32) or"
      + " minilm-int8 (int8-quantised, faster); overrides embedder. A knowledge base is opened with the embedder"
      + " it was built with.")
  String embedder;

  /** The environment the config file is looked up in (a field so tests can replace it). */
  static Map<String, String> env = System.getenv();

  /**
   * The config builder: the file's values (if any) over the defaults, then the LLM flags.
   *
   * @throws CommandLine.ParameterException for {@code --config ""} (a usage error, exit code 2)
   * @throws IllegalArgumentException for a bad file or value (exit code 1)
   */
  SETreeConfig.Builder builder() {
    Optional<Path> file;
    try {
      file = ConfigFile.resolve(config, env);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(mixee.commandLine(), e.getMessage(), e);
    }
    SETreeConfig.Builder b = file.map(p -> ConfigFile.load(p, env)).orElseGet(SETreeConfig::builder);
    if (embedder != null) {
      b.embedderName(embedder);
    }
    if (llmBaseUrl == null && llmModel == null) {
      return b;
    }
    SETreeConfig fromFile = b.build();
    LlmConfig llm = fromFile.llm();
    if (llm == null && llmBaseUrl == null) {
      throw new IllegalArgumentException("--llm-model needs --llm-base-url (or llm.base_url in the config file)");
    }
    if (llm == null && llmModel == null) {
      llmModel = discoverModel(llmBaseUrl);
    }
    LlmConfig.Builder lb = llm != null ? llm.toBuilder() : LlmConfig.builder(); // the config sets the window
    if (llmBaseUrl != null) {
      lb.baseUrl(llmBaseUrl);
    }
    if (llmModel != null) {
      lb.model(llmModel);
    }
    return b.llm(lb.build());
  }

  /**
   * The model to use when only the endpoint was given: the only or first one the server lists, said on
   * standard error.
   */
  private static String discoverModel(String baseUrl) {
    List<String> models = LlmConfig.serverModels(baseUrl, Duration.ofSeconds(10));
    String chosen = models.get(0);
    System.err.println("setree: no --llm-model given; using '" + chosen + "', "
        + (models.size() == 1 ? "the only model" : "the first of " + models.size() + " models "
            + models.subList(0, Math.min(models.size(), 5)) + (models.size() > 5 ? "..." : ""))
        + " at " + baseUrl + " (GET /models)");
    return chosen;
  }
}

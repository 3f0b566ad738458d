package dev.setree.cli;

import dev.setree.LlmConfig;
import dev.setree.SETree;
import dev.setree.SETreeConfig;
import dev.setree.cli.host.WebHost;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code setree host}: serves one knowledge base to a browser on 127.0.0.1 (tree, retrieve, chat, edit) until
 * the process is stopped; see {@link WebHost} and ADR 0016. It prints the page's URL, which carries the
 * run's access token.
 */
@Command(name = "host", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Serve a knowledge base to a browser on 127.0.0.1: browse the tree, retrieve, chat with the"
        + " Target LLM over the retrieved context, insert and delete facts.",
        "Prints the URL to open (it carries a per-run access token); stop with Ctrl-C."})
final class HostCommand implements Callable<Integer> {
  @Option(names = "--db", required = true, paramLabel = "FILE",
      description = "Knowledge-base file (created empty if missing).")
  Path db;

  @Option(names = "--port", paramLabel = "N", description = "Loopback port (default 0: any free port).")
  int port;

  @Option(names = "--llm-timeout", paramLabel = "SECONDS",
      description = "How long the chat waits for each piece of the LLM's answer, the first included"
          + " (default 60).")
  int llmTimeoutSeconds = 60;

  @Mixin
  ConfigOptions options = new ConfigOptions();

  @Override
  public Integer call() throws Exception {
    if (llmTimeoutSeconds < 1) {
      throw new IllegalArgumentException("--llm-timeout must be >= 1 second, got " + llmTimeoutSeconds);
    }
    SETreeConfig config = options.builder().build(); // no embedder given: SETree loads MiniLM (--embedder)
    LlmConfig llm = config.llm() == null ? null : config.llm().toBuilder()
        .readTimeout(Duration.ofSeconds(llmTimeoutSeconds)).build();
    try (SETree kb = SETree.open(db, config);
        WebHost host = WebHost.start(kb, WebHost.Options.withLlm(port, llm, db.toString()))) {
      CountDownLatch stopped = new CountDownLatch(1);
      Thread hook = new Thread(() -> {
        host.close();
        kb.close();
        stopped.countDown();
      }, "setree-host-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      System.out.println("setree host: serving " + db + " (" + kb.stats().leaves() + " leaves"
          + (llm == null ? ", no LLM for the chat" : ", chat with " + llm.model() + " at " + llm.baseUrl())
          + ")");
      System.out.println("open " + host.url());
      System.out.println("(the URL carries this run's access token; stop with Ctrl-C)");
      System.out.flush();
      stopped.await();
    }
    return 0;
  }
}

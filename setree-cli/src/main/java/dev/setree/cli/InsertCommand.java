package dev.setree.cli;

import dev.setree.Ack;
import dev.setree.SETree;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code setree insert}: queues facts; with {@code --wait}, applies them before returning. */
@Command(name = "insert", mixinStandardHelpOptions = true,
    description = "Queue facts for insertion (durable at once; applied by a maintenance run).")
final class InsertCommand implements Callable<Integer> {
  @Mixin ConfigOptions options = new ConfigOptions();

  @Option(names = "--db", required = true, description = "Knowledge-base file (created if missing).")
  Path db;

  @Option(names = "--wait", description = "Run maintenance now and wait until the facts are visible.")
  boolean await;

  @Parameters(arity = "1..*", paramLabel = "TEXT", description = "One fact per argument.")
  String[] texts;

  @Override
  public Integer call() throws Exception {
    try (SETree kb = SETree.open(db, options.builder().build())) {
      for (String t : texts) {
        Ack a = kb.insert(t);
        System.out.println(a.leafId() + "\t" + a.message());
      }
      MaintainCommand.finish(kb, await);
    }
    return 0;
  }
}

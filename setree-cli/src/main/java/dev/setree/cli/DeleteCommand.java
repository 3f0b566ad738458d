package dev.setree.cli;

import dev.setree.Ack;
import dev.setree.SETree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code setree delete}: queues leaf deletions; with {@code --wait}, applies them before returning. */
@Command(name = "delete", mixinStandardHelpOptions = true,
    description = "Queue leaves for deletion by id (durable at once; applied by a maintenance run).")
final class DeleteCommand implements Callable<Integer> {
  @Mixin ConfigOptions options = new ConfigOptions();

  @Option(names = "--db", required = true, description = "Knowledge-base file.")
  Path db;

  @Option(names = "--wait", description = "Run maintenance now and wait until the deletions are visible.")
  boolean await;

  @Parameters(arity = "1..*", paramLabel = "ID", description = "Leaf ids.")
  String[] ids;

  @Override
  public Integer call() throws Exception {
    if (!Files.exists(db)) {
      throw new IllegalArgumentException(db + " does not exist");
    }
    try (SETree kb = SETree.open(db, options.builder().build())) {
      for (String id : ids) {
        Ack a = kb.delete(id);
        System.out.println(a.leafId() + "\t" + a.message());
      }
      MaintainCommand.finish(kb, await);
    }
    return 0;
  }
}

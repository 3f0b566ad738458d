package dev.setree.cli;

import dev.setree.MaintenanceReport;
import dev.setree.SETree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code setree maintain}: applies every pending mutation now. */
@Command(name = "maintain", mixinStandardHelpOptions = true,
    description = "Apply every pending mutation now (one maintenance run) and report it.")
final class MaintainCommand implements Callable<Integer> {
  @Mixin ConfigOptions options = new ConfigOptions();

  @Option(names = "--db", required = true, description = "Knowledge-base file.")
  Path db;

  @Override
  public Integer call() throws Exception {
    if (!Files.exists(db)) {
      throw new IllegalArgumentException(db + " does not exist");
    }
    try (SETree kb = SETree.open(db, options.builder().build())) {
      finish(kb, true);
    }
    return 0;
  }

  /** With {@code await}, runs maintenance now and waits; otherwise says what stays pending. */
  static void finish(SETree kb, boolean await) throws Exception {
    if (!await) {
      if (kb.pendingMutations() > 0) {
        System.err.println(kb.pendingMutations() + " mutation(s) pending: applied by the next maintenance run"
            + " (setree maintain, --wait, or a long-running process such as setree mcp)");
      }
      return;
    }
    if (kb.pendingMutations() == 0) {
      System.err.println("nothing pending");
      return;
    }
    kb.triggerMaintain();
    var future = kb.awaitMaintenance();
    while (true) {
      try {
        future.get(1, TimeUnit.SECONDS);
        break;
      } catch (java.util.concurrent.TimeoutException e) {
        if (kb.lastMaintenanceError() != null) {
          throw new IllegalStateException("maintenance failed (the mutations stay pending): "
              + kb.lastMaintenanceError().getMessage(), kb.lastMaintenanceError());
        }
      }
    }
    MaintenanceReport r = kb.lastMaintenanceRun();
    System.err.printf("maintenance: %s, %d mutation(s), %d summaries written, %.0f ms; %d leaves now%n", r.path(),
        r.mutations(), r.summarized(), r.totalNanos() / 1e6, kb.stats().leaves());
  }
}

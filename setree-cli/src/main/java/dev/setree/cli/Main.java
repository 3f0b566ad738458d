package dev.setree.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code setree} command line: build, query and evaluate knowledge bases. */
@Command(
    name = "setree",
    mixinStandardHelpOptions = true,
    version = "setree 0.1.0",
    description = "Selective Expansion Tree: token-budgeted context for LLM prompts.",
    subcommands = {
      DemoCommand.class,
      BuildCommand.class,
      RetrieveCommand.class,
      StatsCommand.class,
      EvalCommand.class,
      InsertCommand.class,
      DeleteCommand.class,
      MaintainCommand.class,
      McpCommand.class,
      InspectCommand.class,
      HostCommand.class,
      BenchCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code (for tests). */
  public static int run(String... args) {
    CliLogging.install();
    CommandLine cl = new CommandLine(new Main());
    cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
      commandLine.getErr().println("setree: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
      if (System.getenv("SETREE_DEBUG") != null) {
        ex.printStackTrace(commandLine.getErr());
      }
      return 1;
    });
    return cl.execute(args);
  }
}

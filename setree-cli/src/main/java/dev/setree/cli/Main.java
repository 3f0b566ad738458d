package dev.setree.cli;

import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
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
      commandLine.getErr().println("setree: " + describe(ex));
      if (System.getenv("SETREE_DEBUG") != null) {
        ex.printStackTrace(commandLine.getErr());
      }
      return 1;
    });
    return cl.execute(args);
  }

  /**
   * What went wrong, in one line: the message, or for a file system error (whose message is often only a path)
   * what is wrong with which path.
   */
  static String describe(Throwable ex) {
    if (ex instanceof FileSystemException f) {
      String file = f.getFile();
      String what;
      if (ex instanceof NoSuchFileException) {
        what = file + " does not exist";
      } else if (ex instanceof AccessDeniedException) {
        what = file + ": permission denied";
      } else if (ex instanceof FileAlreadyExistsException) {
        what = file + " already exists";
      } else if (ex instanceof NotDirectoryException) {
        what = file + " is not a directory";
      } else if (ex instanceof DirectoryNotEmptyException) {
        what = file + " is a directory that is not empty";
      } else {
        what = "cannot use " + file;
      }
      String other = f.getOtherFile() == null ? "" : " (with " + f.getOtherFile() + ")";
      return what + other + (f.getReason() == null ? "" : ": " + f.getReason());
    }
    return ex.getMessage() == null ? ex.toString() : ex.getMessage();
  }
}

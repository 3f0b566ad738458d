package dev.setree.cli;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Routes the libraries' {@link System.Logger} output (loggers under {@code dev.setree}) to standard error as
 * one {@code setree: message} line each ({@code setree mcp: } for the MCP server), the command line's own
 * format; {@code SETREE_DEBUG=1} adds stack traces. Only the command line does this: a host application
 * embedding the libraries configures logging itself.
 */
final class CliLogging {
  /** Strong references: java.util.logging holds loggers weakly, and a collected logger loses its handler. */
  private static final Logger ROOT = Logger.getLogger("dev.setree");
  private static final Logger MCP = Logger.getLogger("dev.setree.mcp");

  private CliLogging() {}

  /** Installs the handlers once per process. */
  static synchronized void install() {
    if (ROOT.getHandlers().length > 0) {
      return;
    }
    boolean debug = System.getenv("SETREE_DEBUG") != null;
    ROOT.setUseParentHandlers(false);
    ROOT.setLevel(debug ? Level.FINE : Level.INFO);
    ROOT.addHandler(new StderrHandler("setree: ", debug));
    MCP.setUseParentHandlers(false);
    MCP.addHandler(new StderrHandler("setree mcp: ", debug));
  }

  private static final class StderrHandler extends Handler {
    private final String prefix;
    private final boolean debug;

    StderrHandler(String prefix, boolean debug) {
      this.prefix = prefix;
      this.debug = debug;
    }

    @Override
    public void publish(LogRecord r) {
      if (!isLoggable(r)) {
        return;
      }
      String msg = r.getMessage();
      if (r.getParameters() != null && r.getParameters().length > 0) {
        msg = java.text.MessageFormat.format(msg, r.getParameters());
      }
      synchronized (System.err) {
        System.err.println(prefix + msg);
        if (debug && r.getThrown() != null) {
          r.getThrown().printStackTrace(System.err);
        }
      }
    }

    @Override
    public void flush() {
      System.err.flush();
    }

    @Override
    public void close() {
      flush();
    }
  }
}

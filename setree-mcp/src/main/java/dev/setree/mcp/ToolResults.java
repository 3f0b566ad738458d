package dev.setree.mcp;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/** The plain tool results (a text, success or error), the message of an exception, and the tools' log. */
final class ToolResults {
  private static final System.Logger LOG = System.getLogger("dev.setree.mcp");

  private ToolResults() {}

  static CallToolResult ok(String text) {
    return CallToolResult.builder().addTextContent(text).isError(false).build();
  }

  static CallToolResult error(String text) {
    return CallToolResult.builder().addTextContent(text).isError(true).build();
  }

  /** The exception's message, or its class's simple name when it has none. */
  static String message(Throwable e) {
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
  }

  static void log(String line) {
    LOG.log(System.Logger.Level.INFO, line);
  }

  static void warn(String line, Throwable e) {
    LOG.log(System.Logger.Level.WARNING, line, e);
  }
}

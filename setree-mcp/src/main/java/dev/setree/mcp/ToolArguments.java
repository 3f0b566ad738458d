package dev.setree.mcp;

import dev.setree.spi.Fact;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a tool call's JSON arguments: unknown keys, strings, integers and fact lengths, each refused with a
 * {@link BadArgument} whose message says what to send instead.
 */
final class ToolArguments {
  private ToolArguments() {}

  /** A caller's mistake: reported as the tool result's message. */
  static final class BadArgument extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadArgument(String message) {
      super(message, null, false, false);
    }
  }

  static void checkKeys(String tool, Map<String, Object> args, String... allowed) {
    Set<String> unknown = new TreeSet<>(args.keySet());
    unknown.removeAll(List.of(allowed));
    if (!unknown.isEmpty()) {
      throw new BadArgument(tool + " got unknown argument(s) " + unknown + "; it takes "
          + (allowed.length == 0 ? "no arguments" : String.join(", ", allowed)));
    }
  }

  static String text(Map<String, Object> args, String key, String usage) {
    Object v = args.get(key);
    if (v == null) {
      throw new BadArgument(usage);
    }
    if (!(v instanceof String s)) {
      throw new BadArgument("'" + key + "' must be a string, got " + describe(v) + ". " + usage);
    }
    if (s.isBlank()) {
      throw new BadArgument("'" + key + "' is empty. " + usage);
    }
    return s;
  }

  static void checkLength(String s, String what) {
    if (s.length() > Fact.MAX_CHARS) {
      throw new BadArgument(what + " has " + s.length() + " characters; a fact is a short assertion of at most "
          + Fact.MAX_CHARS + " characters: split it into several facts");
    }
  }

  static Integer integer(Map<String, Object> args, String key) {
    Object v = args.get(key);
    if (v == null) {
      return null;
    }
    if (v instanceof String s) {
      throw new BadArgument("'" + key + "' must be a JSON number, got " + describe(v) + "; send it without"
          + " quotes, e.g. {\"" + key + "\": " + (s.strip().matches("[+-]?\\d{1,10}") ? s.strip() : "512") + "}");
    }
    if (v instanceof Number n) {
      double d = n.doubleValue();
      if (d == Math.rint(d) && !Double.isInfinite(d)) {
        if (d > Integer.MAX_VALUE) {
          throw new BadArgument("'" + key + "' is too large: " + n + " (at most " + Integer.MAX_VALUE + ")");
        }
        if (d < Integer.MIN_VALUE) {
          return Integer.MIN_VALUE;
        }
        return (int) d;
      }
    }
    throw new BadArgument("'" + key + "' must be an integer, got " + describe(v));
  }

  static String describe(Object v) {
    if (v instanceof String s) {
      return "the string \"" + (s.length() > 40 ? s.substring(0, 40) + "..." : s) + "\"";
    }
    if (v instanceof List<?> l) {
      return "an array of " + l.size();
    }
    if (v instanceof Map<?, ?>) {
      return "an object";
    }
    return v == null ? "null" : v.toString();
  }
}

package dev.setree.mcp;

import static dev.setree.mcp.ToolArguments.checkKeys;
import static dev.setree.mcp.ToolArguments.text;
import static dev.setree.mcp.ToolResults.error;
import static dev.setree.mcp.ToolResults.log;
import static dev.setree.mcp.ToolResults.message;
import static dev.setree.mcp.ToolResults.ok;

import dev.setree.KnowledgeBaseException;
import dev.setree.SETree;
import dev.setree.mcp.ToolArguments.BadArgument;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/**
 * The admin tools, offered only when the tools own their database file: {@code reset} (delete the file and
 * its side files, create it again empty) and {@code setr_switch} (serve another file). Both replace the
 * served knowledge base under its write lock and are refused while a build runs.
 */
final class AdminTools {
  private final ServedKnowledgeBase served;

  AdminTools(ServedKnowledgeBase served) {
    this.served = served;
  }

  /** The {@code reset} tool; refused while {@code lastBuild} (or null) is running. */
  CallToolResult reset(Map<String, Object> args, BuildJob lastBuild) {
    checkKeys("reset", args);
    return served.withAdminLock("reset", lastBuild, () -> {
      Path db = served.dbPath;
      if (served.kb == null) {
        return error("reset empties the open knowledge base, but none is open: " + db + " could not be"
            + " opened (" + served.openError + "), so it is not deleted. Call setr_switch with the path of a"
            + " SETree database (a new path creates an empty one).");
      }
      int leaves = served.kb.stats().leaves();
      int pending = served.kb.pendingMutations();
      served.generation++;
      served.kb.close();
      served.kb = null;
      try {
        SETree.deleteFiles(db);
      } catch (KnowledgeBaseException e) {
        served.openError = "reset could not delete it: " + message(e);
        return error("reset could not delete " + db + ": " + message(e) + ". No knowledge base is"
            + " open now; fix the file's permissions and call reset again, or call setr_switch.");
      }
      try {
        served.kb = SETree.open(db, served.config);
        served.openError = null;
      } catch (RuntimeException e) {
        served.openError = message(e);
        return error("reset deleted " + db + " but could not create it again: " + served.openError
            + ". Call setr_switch with another path.");
      }
      log("reset " + db + ": dropped " + leaves + " leaves and " + pending + " pending mutation(s)");
      return ok("knowledge base emptied: " + db + " was deleted and created again, empty (dropped "
          + leaves + " leaves and " + pending + " pending mutation(s)). Add facts with build or insert.");
    });
  }

  /** The {@code setr_switch} tool; refused while {@code lastBuild} (or null) is running. */
  CallToolResult switchDb(Map<String, Object> args, BuildJob lastBuild) {
    checkKeys("setr_switch", args, "db");
    String raw = text(args, "db", "setr_switch needs 'db': the path of a SETree database file, e.g."
        + " {\"db\": \"/home/me/notes.db\"} (a new path creates an empty knowledge base)");
    Path target;
    try {
      target = Path.of(raw.strip()).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw new BadArgument("'db' is not a valid path: " + e.getMessage());
    }
    if (Files.isDirectory(target)) {
      throw new BadArgument(target + " is a directory; give the path of a database file inside it, e.g. "
          + target.resolve("kb.db"));
    }
    return served.withAdminLock("setr_switch", lastBuild, () -> {
      if (target.equals(served.dbPath) && served.kb != null) {
        return ok("already serving " + target + " (" + served.kb.stats().leaves() + " leaves)");
      }
      boolean existed = Files.exists(target);
      SETree next;
      try {
        next = SETree.open(target, served.config);
      } catch (RuntimeException e) {
        String still = served.kb != null ? "Still serving " + served.dbPath + "." : "No knowledge base is open.";
        return error("cannot open " + target + ": " + message(e) + ". The file was left untouched. " + still
            + " Pass the path of a SETree knowledge base, or a new path to create an empty one.");
      }
      served.generation++;
      Path old = served.dbPath;
      if (served.kb != null) {
        served.kb.close();
      }
      served.kb = next;
      served.dbPath = target;
      served.openError = null;
      int leaves = next.stats().leaves();
      log("switched from " + old + " to " + target);
      return ok("switched to " + target + (existed ? " (" + leaves + " leaves, " + next.pendingMutations()
          + " pending mutation(s))" : " (a new, empty knowledge base: add facts with build or insert)")
          + "; closed " + old);
    });
  }
}

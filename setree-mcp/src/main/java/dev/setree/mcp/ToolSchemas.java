package dev.setree.mcp;

import dev.setree.SETreeConfig;
import dev.setree.spi.Fact;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The definitions of the MCP tools as {@code tools/list} shows them: name, title, description, JSON input
 * and output schemas, hints. The names and shapes are a contract with the clients.
 */
final class ToolSchemas {
  private ToolSchemas() {}

  /** The definition of one tool; descriptions quote the default budget and quiet window of {@code config}. */
  static Tool tool(String name, SETreeConfig config) {
    int budget = config.defaultBudget();
    long quiet = config.quietWindowMillis();
    return switch (name) {
      case "retrieve" -> Tool.builder(name, schema(props(
              "prompt", Map.of("type", "string", "minLength", 1, "maxLength", KnowledgeBaseTools.MAX_PROMPT_CHARS,
                  "description", "The question or task to find context for, in natural language."),
              "budget", Map.of("type", "integer", "minimum", 0,
                  "description", "Most tokens of context to return (default " + budget + ").")),
              List.of("prompt")))
          .title("Retrieve context")
          .description("Get the context for a prompt from the user's knowledge base: a selection of the stored"
              + " facts and summaries that fits a token budget, with the exact facts where the prompt cares and"
              + " short summaries for everything else, so every fact is still represented. Call it with the"
              + " user's request before answering anything that may depend on what the user told you earlier."
              + " Fast and synchronous; never calls an LLM. Returns the context text, then a line with"
              + " tokens_used, budget and complete (true when every fact is covered). An empty knowledge base"
              + " gives an empty context: add facts with build or insert.")
          .outputSchema(schema(props(
              "context", Map.of("type", "string", "description", "The rendered context."),
              "tokens_used", Map.of("type", "integer"),
              "budget", Map.of("type", "integer"),
              "complete", Map.of("type", "boolean",
                  "description", "True when every fact is covered by itself or a summary."),
              "items", Map.of("type", "integer", "description", "Facts and summaries in the context."),
              "leaves", Map.of("type", "integer", "description", "Facts in the knowledge base."),
              "pending_mutations", Map.of("type", "integer",
                  "description", "Inserts not yet visible (applied by the next maintenance run).")),
              List.of("context", "tokens_used", "budget", "complete")))
          .annotations(hints(true, false, true))
          .build();
      case "insert" -> Tool.builder(name, schema(props("assertion", Map.of("type", "string", "minLength", 1,
              "maxLength", Fact.MAX_CHARS, "description", "The fact, as one sentence.")), List.of("assertion")))
          .title("Insert a fact")
          .description("Add one fact to the knowledge base: a short, self-contained assertion such as"
              + " 'the user's daughter is called Mia' (not a whole document). Returns 'insert queued' once the"
              + " fact is stored durably; retrieve sees it after the next maintenance run, which starts by"
              + " itself about " + quiet + " ms after the last change (or call trigger_maintain). A text that"
              + " is already stored is not added twice.")
          .annotations(hints(false, false, false))
          .build();
      case "build" -> Tool.builder(name, schema(props("assertions", Map.of("type", "array", "minItems", 2,
              "items", Map.of("type", "string", "minLength", 1, "maxLength", Fact.MAX_CHARS),
              "description", "The facts, one short self-contained assertion each.")), List.of("assertions")))
          .title("Build the knowledge base")
          .description("Replace the whole knowledge base with a tree built from these facts (at least 2)."
              + " Every fact of the current tree, inserted ones included, is dropped (inserts still pending are"
              + " applied on top of the new tree afterwards). Returns 'build queued' as"
              + " soon as the build has started; it runs in the background (seconds for hundreds of facts,"
              + " longer with an LLM summariser). Call stats until build.state is 'done' (or 'failed', with"
              + " the error); until then retrieve answers from the previous tree. To add facts to the"
              + " existing tree, use insert instead.")
          .annotations(hints(false, true, false))
          .build();
      case "trigger_maintain" -> Tool.builder(name, schema(Map.of(), List.of()))
          .title("Apply pending inserts now")
          .description("Apply the pending inserts now instead of after the quiet window. Returns 'maintenance"
              + " requested' at once; call stats until pending_mutations is 0 (last_maintenance_error says why"
              + " a run failed; failed runs are retried and the inserts stay stored).")
          .annotations(hints(false, false, true))
          .build();
      case "stats" -> Tool.builder(name, schema(Map.of(), List.of()))
          .title("Knowledge-base status")
          .description("Shape and status of the open knowledge base: its file, leaves (facts), nodes, depth,"
              + " pending_mutations (inserts not yet visible to retrieve), last_maintenance_error, and the last"
              + " build (state queued, running, done, failed or cancelled, with its error).")
          .outputSchema(statsOutputSchema())
          .annotations(hints(true, false, true))
          .build();
      case "reset" -> Tool.builder(name, schema(Map.of(), List.of()))
          .title("Admin: empty the knowledge base")
          .description("Admin tool. Empty the open knowledge base: its database file (and its -wal, -shm,"
              + " -journal and -writer files) is deleted and a new empty one is created at the same path. All facts,"
              + " summaries and pending inserts are lost; a build that has not started yet is cancelled."
              + " Refused while a build is running. Use only when the user asks to forget everything.")
          .annotations(hints(false, true, true))
          .build();
      case "setr_switch" -> Tool.builder(name, schema(props("db", Map.of("type", "string", "minLength", 1,
              "description", "Path of the SETree database file, e.g. /home/me/notes.db.")), List.of("db")))
          .title("Admin: switch the knowledge-base file")
          .description("Admin tool. Serve another knowledge-base file: it is opened (created empty if it does"
              + " not exist) and the current one is closed; the current one's pending inserts stay stored in"
              + " it and are applied when it is opened again. A file that is not a SETree knowledge base is"
              + " refused and left untouched, and the current one stays open. Refused while a build is"
              + " running. Give an absolute path.")
          .annotations(hints(false, true, true))
          .build();
      default -> throw new IllegalArgumentException("unknown tool " + name);
    };
  }

  private static Map<String, Object> statsOutputSchema() {
    Map<String, Object> nullableString = Map.of("type", List.of("string", "null"));
    return schema(props(
        "db", Map.of("type", "string"),
        "open", Map.of("type", "boolean"),
        "open_error", nullableString,
        "leaves", Map.of("type", "integer"),
        "nodes", Map.of("type", "integer"),
        "depth", Map.of("type", "integer"),
        "root_arity", Map.of("type", "integer"),
        "pending_mutations", Map.of("type", "integer"),
        "model_id", nullableString,
        "last_maintenance_error", nullableString,
        "last_build_error", nullableString,
        "build", Map.of("type", List.of("object", "null"))),
        List.of("db", "open"));
  }

  private static Map<String, Object> props(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static Map<String, Object> schema(Map<String, Object> properties, List<String> required) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("type", "object");
    s.put("properties", properties);
    if (!required.isEmpty()) {
      s.put("required", required);
    }
    s.put("additionalProperties", false);
    return s;
  }

  private static ToolAnnotations hints(boolean readOnly, boolean destructive, boolean idempotent) {
    return ToolAnnotations.builder().readOnlyHint(readOnly).destructiveHint(destructive)
        .idempotentHint(idempotent).openWorldHint(false).build();
  }
}

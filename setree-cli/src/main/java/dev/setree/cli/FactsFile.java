package dev.setree.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.setree.spi.Fact;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads facts from a file, in one of two formats:
 * <ul>
 *   <li>{@code jsonl}: JSON Lines, one object per line with string {@code id} and {@code text} (and optional
 *       {@code time}), as in the evaluation data;
 *   <li>{@code lines}: plain text, one fact per line (ids {@code line-N}, N the line number).
 * </ul>
 * {@code auto} (the default) picks {@code jsonl} when the file name ends with {@code .jsonl} or
 * {@code .ndjson} or its first non-blank line starts with <code>{</code>, and refuses a file whose first
 * non-blank line starts with {@code [} (a JSON array, which is neither format); otherwise {@code lines}.
 * A UTF-8 byte-order mark is skipped; blank lines are skipped. Bad UTF-8, a line that does not fit the
 * format, a missing field or a fact SETree refuses fails naming the file and line.
 */
final class FactsFile {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The formats of a facts file. */
  enum Format {
    AUTO,
    JSONL,
    LINES;

    static Format parse(String s) {
      try {
        return valueOf(s.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("unknown facts format '" + s + "': use auto, jsonl or lines");
      }
    }
  }

  private FactsFile() {}

  static List<Fact> read(Path file) throws IOException {
    return read(file, Format.AUTO);
  }

  static List<Fact> read(Path file, Format format) throws IOException {
    List<String> lines = readLines(file);
    Format f = format == Format.AUTO ? detect(file, lines) : format;
    List<Fact> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      String at = file + ":" + (i + 1) + ": ";
      if (f == Format.JSONL) {
        JsonNode n;
        try {
          n = JSON.readTree(line);
        } catch (IOException e) {
          throw new IllegalArgumentException(at + "not valid JSON: "
              + e.getMessage().lines().findFirst().orElse(""));
        }
        if (n == null || !n.isObject()) {
          throw new IllegalArgumentException(at + "a JSON Lines facts file holds one object per line, not "
              + (n == null ? "nothing" : n.getNodeType().toString().toLowerCase(Locale.ROOT)));
        }
        JsonNode id = n.get("id");
        JsonNode text = n.get("text");
        if (id == null || text == null || !text.isTextual() || !(id.isTextual() || id.isNumber())) {
          throw new IllegalArgumentException(at + "a fact needs a string \"id\" and a string \"text\"");
        }
        JsonNode time = n.get("time");
        try {
          out.add(new Fact(id.asText(), text.asText(), time == null || time.isNull() ? null : time.asText()));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(at + e.getMessage());
        }
      } else {
        try {
          out.add(Fact.of("line-" + (i + 1), line.strip()));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(at + e.getMessage());
        }
      }
    }
    return out;
  }

  private static Format detect(Path file, List<String> lines) {
    String name = String.valueOf(file.getFileName()).toLowerCase(Locale.ROOT);
    if (name.endsWith(".jsonl") || name.endsWith(".ndjson")) {
      return Format.JSONL;
    }
    for (int i = 0; i < lines.size(); i++) {
      String first = lines.get(i).strip();
      if (first.isEmpty()) {
        continue;
      }
      if (first.startsWith("[")) {
        throw new IllegalArgumentException(file + ":" + (i + 1) + ": this looks like a JSON array; a facts file"
            + " is JSON Lines (one {\"id\": ..., \"text\": ...} object per line) or plain text (one fact per"
            + " line): convert it, or pass --format lines to read every line as a fact");
      }
      return first.startsWith("{") ? Format.JSONL : Format.LINES;
    }
    return Format.LINES;
  }

  /** Reads a file as strict UTF-8 (skipping a byte-order mark), refusing malformed bytes with the file name. */
  static List<String> readLines(Path file) throws IOException {
    byte[] bytes;
    try {
      if (Files.isDirectory(file)) {
        throw new IllegalArgumentException(file + " is a directory, not a facts file");
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(file.toAbsolutePath() + " does not exist");
    } catch (AccessDeniedException e) {
      throw new IllegalArgumentException("cannot read " + file.toAbsolutePath() + ": permission denied");
    }
    try {
      String s = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
      if (s.startsWith("\uFEFF")) {
        s = s.substring(1);
      }
      return s.lines().toList();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(file + " is not valid UTF-8");
    }
  }
}

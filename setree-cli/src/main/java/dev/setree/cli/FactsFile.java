package dev.setree.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.setree.core.Fact;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads facts from a file: JSON Lines with {@code id} and {@code text} (and optional {@code time}), as in
 * the evaluation data, or plain text with one fact per line (ids {@code line-N}). Bad UTF-8, a line that is
 * not JSON, or a missing field fails naming the file and line.
 */
final class FactsFile {
  private static final ObjectMapper JSON = new ObjectMapper();

  private FactsFile() {}

  static List<Fact> read(Path file) throws IOException {
    List<String> lines = readLines(file);
    boolean jsonl = lines.stream().filter(l -> !l.isBlank()).findFirst().map(l -> l.strip().startsWith("{"))
        .orElse(false);
    List<Fact> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isBlank()) {
        continue;
      }
      if (jsonl) {
        JsonNode n;
        try {
          n = JSON.readTree(line);
        } catch (IOException e) {
          throw new IllegalArgumentException(file + ":" + (i + 1) + ": not valid JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
        JsonNode id = n.get("id");
        JsonNode text = n.get("text");
        if (id == null || text == null || !text.isTextual()) {
          throw new IllegalArgumentException(file + ":" + (i + 1) + ": a fact needs \"id\" and \"text\"");
        }
        JsonNode time = n.get("time");
        try {
          out.add(new Fact(id.asText(), text.asText(), time == null || time.isNull() ? null : time.asText()));
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException(file + ":" + (i + 1) + ": " + e.getMessage());
        }
      } else {
        out.add(Fact.of("line-" + (i + 1), line.strip()));
      }
    }
    return out;
  }

  /** Reads a file as strict UTF-8, refusing malformed bytes with the file name. */
  static List<String> readLines(Path file) throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    try {
      String s = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
      return s.lines().toList();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(file + " is not valid UTF-8");
    }
  }
}

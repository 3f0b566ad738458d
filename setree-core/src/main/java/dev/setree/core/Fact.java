package dev.setree.core;

import java.util.Objects;

/**
 * A leaf fact: one short atomic assertion of the knowledge base.
 *
 * @param id a stable identifier, unique within the knowledge base
 * @param text the assertion, rendered verbatim when retrieved
 * @param time an optional ISO-8601 time stamp, or null
 */
public record Fact(String id, String text, String time) {

  /** Validates that id and text are present and the text is not blank. */
  public Fact {
    Objects.requireNonNull(id, "fact id");
    Objects.requireNonNull(text, "fact text");
    if (id.isBlank()) {
      throw new IllegalArgumentException("a fact id must not be blank");
    }
    if (text.isBlank()) {
      throw new IllegalArgumentException("fact '" + id + "' has empty text");
    }
  }

  /** A fact without a time stamp. */
  public static Fact of(String id, String text) {
    return new Fact(id, text, null);
  }
}

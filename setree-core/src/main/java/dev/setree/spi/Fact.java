package dev.setree.spi;

import java.util.Objects;

/**
 * A leaf fact: one short atomic assertion of the knowledge base.
 *
 * @param id a stable identifier, unique within the knowledge base
 * @param text the assertion, rendered verbatim when retrieved
 * @param time an optional ISO-8601 time stamp, or null
 */
public record Fact(String id, String text, String time) {

  /** The longest fact text accepted, in characters: a fact is a short assertion, not a document. */
  public static final int MAX_CHARS = 20_000;

  /**
   * Validates that id and text are present, the text is not blank and at most {@link #MAX_CHARS} long;
   * unpaired UTF-16 surrogates (text that is not valid Unicode) are replaced by U+FFFD so that the stored
   * text is exactly what is rendered.
   */
  public Fact {
    Objects.requireNonNull(id, "fact id");
    Objects.requireNonNull(text, "fact text");
    if (id.isBlank()) {
      throw new IllegalArgumentException("a fact id must not be blank");
    }
    if (text.isBlank()) {
      throw new IllegalArgumentException("fact '" + id + "' has empty text");
    }
    if (text.length() > MAX_CHARS) {
      throw new IllegalArgumentException("fact '" + id + "' has " + text.length() + " characters; at most "
          + MAX_CHARS + " are accepted");
    }
    text = sanitize(text);
    id = sanitize(id);
  }

  /** Replaces unpaired UTF-16 surrogates by U+FFFD. */
  static String sanitize(String s) {
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean bad = Character.isHighSurrogate(c)
          ? i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))
          : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(s.charAt(i - 1)));
      if (bad && sb == null) {
        sb = new StringBuilder(s);
      }
      if (bad) {
        sb.setCharAt(i, '\uFFFD');
      }
    }
    return sb == null ? s : sb.toString();
  }

  /** A fact without a time stamp. */
  public static Fact of(String id, String text) {
    return new Fact(id, text, null);
  }
}

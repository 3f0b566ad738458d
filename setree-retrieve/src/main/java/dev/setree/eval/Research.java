package dev.setree.eval;

import dev.setree.spi.Summarizer;
import dev.setree.maintain.ExtractiveSummarizer;

/**
 * The evaluation's door into SETree: the research knobs that are not part of the user API (ADR 0021), for
 * {@code setree eval} and {@code setree demo}'s hidden experiment flags. Not an exported package: no
 * compatibility promise.
 */
public final class Research {
  /** The extractive summary designs compared in ADR 0011 ({@code --summary-design}). */
  public enum SummaryDesign {
    /** Whole central leaves (MMR); the default. */
    SENTENCE,
    /** Class-based TF-IDF topic terms. */
    TERMS,
    /** Central leaves compressed to their key clauses. */
    CLAUSES,
    /** Topic terms for the overview's nodes (the root and its children), whole central leaves below. */
    TOPICS
  }

  private Research() {}

  /** The extractive summariser of one design. */
  public static Summarizer extractive(SummaryDesign design) {
    return new ExtractiveSummarizer(ExtractiveSummarizer.Design.valueOf(design.name()));
  }
}

package dev.setree;

/**
 * The acknowledgement of an accepted mutation: it is durable (written to the pending-mutations table) when
 * this is returned, and becomes visible to {@link SETree#retrieve} after the next maintenance run.
 *
 * @param seq the mutation's sequence number (0 for a duplicate insert, which adds nothing)
 * @param leafId the leaf inserted or deleted (for a duplicate insert: the leaf that already holds the text)
 * @param message {@code "insert queued"}, {@code "delete queued"}, or {@code "duplicate: already stored"}
 */
public record Ack(long seq, String leafId, String message) {

  /** True when the insert was a duplicate text and nothing was queued. */
  public boolean duplicate() {
    return seq == 0;
  }
}

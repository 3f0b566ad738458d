package dev.setree.mcp;

import java.util.Locale;

/** Where a background {@code build} stands; {@link #wireName()} is what {@code stats} reports. */
enum BuildState {
  /** Accepted, waiting for the build thread. */
  QUEUED,
  /** Building on the build thread. */
  RUNNING,
  /** Built and saved. */
  DONE,
  /** Failed; the knowledge base keeps its previous tree. */
  FAILED,
  /** Dropped before it started, because the knowledge base was reset or switched. */
  CANCELLED;

  /** The state's name in tool results: lower case, as in {@code "done"}. */
  String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @Override
  public String toString() {
    return wireName();
  }
}

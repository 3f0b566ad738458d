package dev.setree.internal.maintain;

/** Receives progress of a long build: the stage's name and how far it is. Called from the build thread. */
@FunctionalInterface
public interface BuildProgress {
  /** Ignores progress. */
  BuildProgress NONE = (stage, done, total) -> { };

  /**
   * Reports progress.
   *
   * @param stage one of {@code embed}, {@code knn}, {@code cluster}, {@code summaries}
   * @param done units done
   * @param total units in the stage
   */
  void update(String stage, long done, long total);
}

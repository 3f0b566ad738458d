package dev.setree;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What one maintenance run did: which path it took, how much it changed and how long it took.
 *
 * @param path {@code unchanged}, {@code clean-skip}, {@code incremental}, {@code full}, {@code single} or
 *     {@code empty} (see {@code dev.setree.internal.maintain.Maintainer})
 * @param mutations pending mutations the run applied
 * @param inserted leaves added
 * @param deleted leaves removed
 * @param skipped mutations skipped (a duplicate insert or a delete of an unknown leaf)
 * @param dirtyLevels clustering levels the incremental rebuild found dirty
 * @param reclusteredMembers members Leiden ran on again
 * @param summarized summaries written
 * @param rebuildNanos time of the rebuild and summaries
 * @param totalNanos time of the whole run: reading the committed state, rebuild, saving the changes,
 *     swapping the snapshot (not the wait for the writer lock). A run whose rebuild was computed ahead, while
 *     the quiet window ran (docs/adr/0032), counts that time too: both figures are the run's work, not the
 *     wait after the window
 * @param saveNanos time of the save alone (with its comparison of the two states, also when that was worked out
 *     ahead in the quiet window)
 * @param bytesWritten bytes of text and blobs the save wrote (rows of changed nodes and oracle members)
 * @param visibleAt the moment the run's snapshot was installed: from then on {@link SETree#retrieve} (in this
 *     process) sees the mutations it applied
 * @param stepNanos the time of each step of the run, in nanoseconds, in the order the steps ran: {@code load}
 *     (the committed generation and the pending mutations read, and a state another process saved loaded; a run
 *     computed ahead made its rebuild's steps before this, in the quiet window), those of the rebuild ({@code embed}, {@code draft}, {@code check}, per level {@code i} {@code level i match},
 *     {@code level i kNN}, {@code level i clusters} and {@code level i parents}, then {@code rebuild}; or
 *     {@code clustering}; then {@code sums}, {@code summaries}, {@code freeze}), then {@code plan} (the save
 *     worked out), {@code save} (the write) and {@code install} (the next snapshot; its walk tables and
 *     nearest-leaf index are derived beside the save, on another thread, and only waited for here) and {@code cache}
 *     (the BM25 index's cached copy checked, and now and then written); what {@code setree bench insert} reports
 *     step by step. The rest of {@code totalNanos} is the rebuild's work between its steps
 */
public record MaintenanceReport(String path, int mutations, int inserted, int deleted, int skipped,
    int dirtyLevels, int reclusteredMembers, int summarized, long rebuildNanos, long totalNanos,
    long saveNanos, long bytesWritten, Instant visibleAt, Map<String, Long> stepNanos) {

  /** Keeps a copy of the step times, unmodifiable, in their order. */
  public MaintenanceReport {
    stepNanos = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(stepNanos, "stepNanos")));
  }
}

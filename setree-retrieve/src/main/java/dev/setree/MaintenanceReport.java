package dev.setree;

/**
 * What one maintenance run did: which path it took, how much it changed and how long it took.
 *
 * @param path {@code unchanged}, {@code clean-skip}, {@code incremental}, {@code full}, {@code single} or
 *     {@code empty} (see {@code dev.setree.maintain.Maintainer})
 * @param mutations pending mutations the run applied
 * @param inserted leaves added
 * @param deleted leaves removed
 * @param skipped mutations skipped (a duplicate insert or a delete of an unknown leaf)
 * @param dirtyLevels clustering levels the incremental rebuild found dirty
 * @param reclusteredMembers members Leiden ran on again
 * @param summarized summaries written
 * @param rebuildNanos time of the rebuild and summaries
 * @param totalNanos time of the whole run: rebuild, saving tree and oracle, swapping the snapshot
 */
public record MaintenanceReport(String path, int mutations, int inserted, int deleted, int skipped,
    int dirtyLevels, int reclusteredMembers, int summarized, long rebuildNanos, long totalNanos) {}

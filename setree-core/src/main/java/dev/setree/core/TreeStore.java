package dev.setree.core;

import java.util.List;

/**
 * Service interface for durable storage of one knowledge base: the tree, its hierarchy oracle and the
 * pending mutations. Implementations must make {@link #saveTreeWithHierarchy} atomic: after a crash the
 * previous state or the new one is found, never a mix.
 */
public interface TreeStore extends AutoCloseable {

  /** Loads the current tree; an empty tree when nothing was built yet. */
  Tree loadTree();

  /** Loads the hierarchy oracle saved with the current tree; empty when there is none. */
  HierarchyState loadHierarchy();

  /**
   * Replaces tree and oracle in one transaction, and in the same transaction drops the pending mutations
   * with sequence numbers up to {@code appliedThroughSeq} (pass 0 when none were applied).
   */
  void saveTreeWithHierarchy(Tree tree, HierarchyState hierarchy, long appliedThroughSeq);

  /** Durably records a mutation and returns its sequence number. */
  long appendMutation(Mutation mutation);

  /** The pending mutations, in sequence order. */
  List<Mutation> pendingMutations();

  /** Closes the store; further calls fail. */
  @Override
  void close();

  /**
   * A mutation waiting for maintenance.
   *
   * @param seq sequence number (0 before it is appended)
   * @param kind insert or delete
   * @param leafId the leaf id inserted or deleted
   * @param text the text to insert (null for a delete)
   * @param time optional time stamp of an insert
   */
  record Mutation(long seq, Kind kind, String leafId, String text, String time) {

    /** Validates that an insert has text and every mutation names a leaf. */
    public Mutation {
      java.util.Objects.requireNonNull(kind, "mutation kind");
      java.util.Objects.requireNonNull(leafId, "mutation leaf id");
      if (kind == Kind.INSERT && (text == null || text.isBlank())) {
        throw new IllegalArgumentException("an insert of '" + leafId + "' needs non-empty text");
      }
    }

    /** What a mutation does. */
    public enum Kind {
      /** Adds a leaf. */
      INSERT,
      /** Removes a leaf. */
      DELETE
    }
  }
}

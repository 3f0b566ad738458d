package dev.setree.internal.core;

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
   * Replaces tree and oracle whole in one transaction (a build), increases the generation, and in the same
   * transaction drops the pending mutations with sequence numbers up to {@code appliedThroughSeq} (pass 0
   * when none were applied).
   */
  void saveTreeWithHierarchy(Tree tree, HierarchyState hierarchy, long appliedThroughSeq);

  /**
   * Loads everything a writer or a reader needs in one read transaction: the generation, the tree, its
   * oracle and the pending mutations, all of the same committed state.
   */
  State load();

  /**
   * Like {@link #load()}, but when the committed generation is still {@code knownGeneration} the tree and
   * oracle are not read: the returned state then has null {@code tree} and {@code hierarchy}, and its
   * pending mutations and last sequence number as now committed.
   */
  State loadIfChanged(long knownGeneration);

  /** The generation of the committed tree: a number that every save of the tree increases. */
  long generation();

  /**
   * Saves the result of a maintenance run by writing only what differs between {@code before} (the state
   * persisted at {@code expectedGeneration}) and {@code after}, in one transaction that also removes the
   * applied mutations and increases the generation.
   *
   * @param appliedSeqs the sequence numbers of the pending mutations the run applied
   * @return the new generation
   * @throws StaleStateException when the persisted generation is no longer {@code expectedGeneration}
   *     (another writer saved in between); nothing is written then
   */
  long saveChanges(Tree before, HierarchyState beforeHierarchy, Tree after, HierarchyState afterHierarchy,
      long expectedGeneration, long[] appliedSeqs);

  /** Durably records a mutation and returns its sequence number. */
  long appendMutation(Mutation mutation);

  /** The pending mutations, in sequence order. */
  List<Mutation> pendingMutations();

  /** Closes the store; further calls fail. */
  @Override
  void close();

  /**
   * One committed state of a knowledge base, read in one transaction.
   *
   * @param generation the generation of the tree (0 for a knowledge base never built)
   * @param tree the tree (null from {@link #loadIfChanged} when the generation is the known one)
   * @param hierarchy its oracle (null when {@code tree} is)
   * @param pending the pending mutations, in sequence order
   * @param lastSeq the highest sequence number ever given to a mutation (0 if none): every mutation with
   *     a number up to it that is not in {@code pending} has been applied to {@code tree}
   */
  record State(long generation, Tree tree, HierarchyState hierarchy, List<Mutation> pending, long lastSeq) {

    /** The highest sequence number such that every mutation up to it is applied to this state's tree. */
    public long appliedThrough() {
      return pending.isEmpty() ? lastSeq : pending.get(0).seq() - 1;
    }
  }

  /** Thrown by {@link #saveChanges} when another writer saved since the state the changes were made from. */
  final class StaleStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message which generations disagree */
    public StaleStateException(String message) {
      super(message);
    }
  }

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

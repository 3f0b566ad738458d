package dev.setree;

import dev.setree.internal.core.TreeStore.Mutation;
import dev.setree.internal.maintain.TreeBuilder;
import dev.setree.spi.Fact;
import dev.setree.internal.store.SqliteTreeStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Accepts inserts and deletes: checks each against the committed snapshot and the pending mutations of
 * every process (after catching up with what another process committed), appends it to the store's pending
 * mutations (durable when this returns) and asks the scheduler for a maintenance run. One mutation at a
 * time per process.
 */
final class MutationIntake {
  private final SqliteTreeStore store;
  private final StateFollower state;
  private final MaintenanceScheduler scheduler;
  /** Serialises this process's mutation checks and appends. */
  private final Object mutationLock = new Object();

  MutationIntake(SqliteTreeStore store, StateFollower state, MaintenanceScheduler scheduler) {
    this.store = store;
    this.state = state;
    this.scheduler = scheduler;
  }

  /** See {@link SETree#insert(Fact)}. */
  Ack insert(Fact fact) {
    if (fact.id().startsWith(TreeBuilder.INTERNAL_ID_PREFIX)) {
      throw new IllegalArgumentException("fact id '" + fact.id() + "' uses the reserved prefix "
          + TreeBuilder.INTERNAL_ID_PREFIX);
    }
    synchronized (mutationLock) {
      List<Mutation> pending = catchUp();
      Map<String, Boolean> pendingState = pendingState(pending);
      Snapshot s = state.snapshot();
      String existing = s.idByText().get(fact.text());
      if (existing != null && !Boolean.FALSE.equals(pendingState.get(existing))) {
        return new Ack(0, existing, "duplicate: already stored");
      }
      for (Mutation m : pending) {
        if (m.kind() == Mutation.Kind.INSERT && m.text().equals(fact.text())
            && Boolean.TRUE.equals(pendingState.get(m.leafId()))) {
          return new Ack(0, m.leafId(), "duplicate: already stored");
        }
      }
      if (exists(fact.id(), s, pendingState)) {
        throw new IllegalArgumentException("leaf id '" + fact.id() + "' already exists");
      }
      return accept(new Mutation(0, Mutation.Kind.INSERT, fact.id(), fact.text(), fact.time()), "insert queued");
    }
  }

  /** See {@link SETree#delete(String)}. */
  Ack delete(String leafId) {
    synchronized (mutationLock) {
      List<Mutation> pending = catchUp();
      if (!exists(leafId, state.snapshot(), pendingState(pending))) {
        throw new IllegalArgumentException("unknown leaf id '" + leafId + "'");
      }
      return accept(new Mutation(0, Mutation.Kind.DELETE, leafId, null, null), "delete queued");
    }
  }

  private Ack accept(Mutation m, String message) {
    long seq = store.appendMutation(m);
    state.accepted(seq);
    scheduler.ownMutationAccepted();
    return new Ack(seq, m.leafId(), message);
  }

  /**
   * Makes the snapshot current with what is committed (loading a tree another process saved) and returns
   * the pending mutations of every process, so that a mutation is checked against the latest state.
   */
  private List<Mutation> catchUp() {
    return state.reloadIfNewer().pending();
  }

  /** Per leaf id touched by a pending mutation: true if its last pending mutation inserts, false if it deletes. */
  private static Map<String, Boolean> pendingState(List<Mutation> pending) {
    Map<String, Boolean> state = new HashMap<>();
    for (Mutation m : pending) {
      state.put(m.leafId(), m.kind() == Mutation.Kind.INSERT);
    }
    return state;
  }

  private static boolean exists(String id, Snapshot s, Map<String, Boolean> state) {
    Boolean p = state.get(id);
    if (p != null) {
      return p;
    }
    int v = s.tree().indexOf(id);
    return v >= 0 && s.tree().isLeaf(v);
  }
}

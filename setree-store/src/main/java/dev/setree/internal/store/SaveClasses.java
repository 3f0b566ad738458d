package dev.setree.internal.store;

import dev.setree.internal.core.ClassesAhead;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The classes of a maintenance run's save plan and save, loaded ahead of a process's first run
 * (docs/adr/0044-run-classes-loaded-on-open.md). {@code RunClassesAheadTest} (setree-retrieve) checks in a
 * separate JVM that a run loads none of this module's classes that are not listed here.
 */
public final class SaveClasses {
  /** This module's classes (by simple name) that a one-fact run's plan and save load. */
  static final String[] NAMES = {
    "ChangedMembers", "LevelTable", "LoggedNodeDiff", "NodeRows", "NodeRows$Diff", "OracleRows", "OracleRows$Diff",
    "OracleRows$LevelDiff", "OracleRows$MemberMatch", "SavePlan", "TreeSaves$Saved", "WriterLock", "WriterLock$Held",
  };

  private static final AtomicBoolean LOADED = new AtomicBoolean();

  private SaveClasses() {}

  /**
   * Loads, links and initialises the classes of {@link #NAMES}, once per class loader.
   *
   * @throws IllegalStateException when a listed class is not there
   */
  public static void load() {
    if (!LOADED.getAndSet(true)) {
      ClassesAhead.load(SaveClasses.class, NAMES);
    }
  }
}

package dev.setree.internal.embed;

import java.util.function.Supplier;

/**
 * Keeps DJL from probing a cloud metadata address (its telemetry: a 1 s time-out, several times, on a machine
 * without network) while the bundled tokenizer loads, without leaving a JVM-wide setting behind.
 *
 * <p>DJL checks {@code ai.djl.offline} (or {@code DJL_OFFLINE}) only inside
 * {@code HuggingFaceTokenizer.newInstance}. {@link #during} sets the property for that call only, when the
 * host has not set it, and removes it again afterwards; a host's own value (either way) is left alone. Loads
 * are serialised so that two of ours never restore each other's setting.
 */
final class DjlOffline {
  private static final String PROPERTY = "ai.djl.offline";
  private static final Object LOCK = new Object();

  private DjlOffline() {}

  /** Runs {@code load} with DJL in offline mode, restoring the system property afterwards. */
  static <T> T during(Supplier<T> load) {
    synchronized (LOCK) {
      boolean set = System.getProperty(PROPERTY) == null && System.getenv("DJL_OFFLINE") == null;
      if (set) {
        System.setProperty(PROPERTY, "true");
      }
      try {
        return load.get();
      } finally {
        if (set) {
          System.clearProperty(PROPERTY);
        }
      }
    }
  }
}

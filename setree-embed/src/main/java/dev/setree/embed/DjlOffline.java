package dev.setree.embed;

/**
 * Sets {@code ai.djl.offline=true} before any DJL class loads, unless the host set it: otherwise DJL probes
 * a cloud metadata address at tokenizer start-up (1 s time-out, four times) on a machine without network.
 */
final class DjlOffline {
  private DjlOffline() {}

  static void ensure() {
    if (System.getProperty("ai.djl.offline") == null) {
      System.setProperty("ai.djl.offline", "true");
    }
  }
}

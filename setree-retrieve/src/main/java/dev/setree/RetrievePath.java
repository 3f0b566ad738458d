package dev.setree;

/**
 * Which leaf scoring a tree-cover retrieve uses: every leaf exactly, or only candidates (the approximate
 * nearest leaves and the best BM25 hits of the prompt) with a bound for the rest. Config key
 * {@code retrieve_path}; see {@link SETreeConfig#retrievePath()}.
 */
public enum RetrievePath {
  /** Exact below {@link SETreeConfig#approximateFromLeaves()} leaves, candidates from there on (default). */
  AUTO,
  /** Every leaf scored: cost grows with the knowledge base. */
  EXACT,
  /** Candidates only, whatever the size (to compare quality against the exact path). */
  APPROXIMATE;

  /** The name used in configuration files and on the command line. */
  public String key() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Parses a configuration value ({@code auto}, {@code exact}, {@code approximate}). */
  public static RetrievePath parse(String key, String value) {
    for (RetrievePath p : values()) {
      if (p.key().equals(value)) {
        return p;
      }
    }
    throw new IllegalArgumentException(key + " must be one of auto, exact, approximate, got '" + value + "'");
  }
}

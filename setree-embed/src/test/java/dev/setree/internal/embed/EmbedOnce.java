package dev.setree.internal.embed;

import java.util.List;

/** A child process for {@link OrtNativesTest}: loads the bundled model, embeds one text, prints its dimension. */
public final class EmbedOnce {
  private EmbedOnce() {}

  public static void main(String[] args) {
    try (MiniLmEmbedder e = MiniLmEmbedder.load()) {
      System.out.println(e.embed(List.of("a fact about harbours"))[0].length);
    }
  }
}

package dev.setree.cli;

import dev.setree.TreeView;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A SHA-256 digest of everything a tree's nodes hold, in node order: so that two benchmark runs (two jars, two JVMs,
 * with and without vector lanes) can be shown to have made the same knowledge base, not only the same counts.
 * Every NaN is hashed as one value; zeros of both signs are not.
 */
final class TreeDigest {
  private TreeDigest() {}

  /** The digest of {@code tree}, in hexadecimal. */
  static String of(TreeView tree) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
    ByteBuffer numbers = ByteBuffer.allocate(6 * Integer.BYTES);
    for (int v = 0; v < tree.size(); v++) {
      text(sha, tree.id(v));
      text(sha, tree.text(v));
      text(sha, tree.time(v));
      text(sha, tree.summarizerKind(v));
      numbers.clear();
      numbers.putInt(tree.tokens(v)).putInt(tree.level(v)).putInt(tree.parent(v)).putInt(tree.faithfulness(v))
          .putInt(Float.floatToIntBits(tree.loss(v))).putInt(tree.childCount(v));
      sha.update(numbers.array());
      float[] e = tree.embedding(v);
      ByteBuffer row = ByteBuffer.allocate(e.length * Float.BYTES);
      for (float x : e) {
        row.putInt(Float.floatToIntBits(x));
      }
      sha.update(row.array());
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  /** A string, or null, so that no two sequences of fields hash alike. */
  private static void text(MessageDigest sha, String s) {
    if (s == null) {
      sha.update((byte) 0);
      return;
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    sha.update((byte) 1);
    sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(b.length).array());
    sha.update(b);
  }
}

package dev.setree.internal.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The BLOB encodings of the store format: little-endian float32 and int32 arrays, and lists of strings
 * each prefixed by its UTF-8 byte length. Decoders throw {@link IllegalArgumentException} on malformed
 * input; callers turn it into a {@link StoreFormatException} that names the row.
 */
final class Blobs {
  /** Length prefix of a null string in a string list. */
  static final int NULL_STRING = -1;

  private Blobs() {}

  /** Encodes {@code len} floats from {@code off}, bit for bit (NaN payloads and -0 are kept). */
  static byte[] floats(float[] a, int off, int len) {
    ByteBuffer b = ByteBuffer.allocate(len * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(a, off, len);
    return b.array();
  }

  /** Encodes a whole float array. */
  static byte[] floats(float[] a) {
    return floats(a, 0, a.length);
  }

  /** Decodes a float array. */
  static float[] toFloats(byte[] bytes) {
    requireMultipleOf4(bytes);
    float[] a = new float[bytes.length / Float.BYTES];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(a);
    return a;
  }

  /** Decodes exactly {@code len} floats into {@code dst} at {@code off}. */
  static void toFloats(byte[] bytes, float[] dst, int off, int len) {
    if (bytes.length != len * Float.BYTES) {
      throw new IllegalArgumentException("has " + bytes.length + " bytes, expected " + len * Float.BYTES);
    }
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(dst, off, len);
  }

  /** Encodes an int array. */
  static byte[] ints(int[] a) {
    ByteBuffer b = ByteBuffer.allocate(a.length * Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.asIntBuffer().put(a);
    return b.array();
  }

  /** Decodes an int array. */
  static int[] toInts(byte[] bytes) {
    requireMultipleOf4(bytes);
    int[] a = new int[bytes.length / Integer.BYTES];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(a);
    return a;
  }

  /**
   * Encodes strings: for each, its UTF-8 byte length as int32 LE ({@link #NULL_STRING} for null), then
   * the bytes. Any string survives, newlines and NULs included; unpaired surrogates become '?'.
   */
  static byte[] strings(String[] a) {
    byte[][] utf8 = new byte[a.length][];
    int size = a.length * Integer.BYTES;
    for (int i = 0; i < a.length; i++) {
      if (a[i] != null) {
        utf8[i] = a[i].getBytes(StandardCharsets.UTF_8);
        size += utf8[i].length;
      }
    }
    // Written byte by byte, not through a ByteBuffer: a level's 6,244 ids, in a process's first save, made two
    // buffer calls each before they were compiled.
    byte[] out = new byte[size];
    int at = 0;
    for (byte[] s : utf8) {
      int len = s == null ? NULL_STRING : s.length;
      out[at] = (byte) len;
      out[at + 1] = (byte) (len >> 8);
      out[at + 2] = (byte) (len >> 16);
      out[at + 3] = (byte) (len >> 24);
      at += Integer.BYTES;
      if (s != null) {
        System.arraycopy(s, 0, out, at, s.length);
        at += s.length;
      }
    }
    return out;
  }

  /** Decodes a string list that must hold exactly {@code count} entries. */
  static String[] toStrings(byte[] bytes, int count) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    var decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    String[] out = new String[count];
    for (int i = 0; i < count; i++) {
      if (b.remaining() < Integer.BYTES) {
        throw new IllegalArgumentException("ends after " + i + " of " + count + " strings");
      }
      int len = b.getInt();
      if (len == NULL_STRING) {
        continue;
      }
      if (len < 0 || len > b.remaining()) {
        throw new IllegalArgumentException("string " + i + " has invalid length " + len);
      }
      ByteBuffer slice = b.slice().limit(len);
      try {
        CharBuffer chars = decoder.decode(slice);
        out[i] = chars.toString();
      } catch (CharacterCodingException e) {
        throw new IllegalArgumentException("string " + i + " is not valid UTF-8", e);
      }
      b.position(b.position() + len);
    }
    if (b.hasRemaining()) {
      throw new IllegalArgumentException("has " + b.remaining() + " bytes after its " + count + " strings");
    }
    return out;
  }

  /** Decodes a string list of any length (the whole blob). */
  static String[] toStrings(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int count = 0;
    while (b.remaining() >= Integer.BYTES) {
      int len = b.getInt();
      if (len == NULL_STRING) {
        count++;
        continue;
      }
      if (len < 0 || len > b.remaining()) {
        throw new IllegalArgumentException("string " + count + " has invalid length " + len);
      }
      b.position(b.position() + len);
      count++;
    }
    return toStrings(bytes, count);
  }

  private static void requireMultipleOf4(byte[] bytes) {
    if (bytes.length % 4 != 0) {
      throw new IllegalArgumentException("has " + bytes.length + " bytes, not a multiple of 4");
    }
  }
}

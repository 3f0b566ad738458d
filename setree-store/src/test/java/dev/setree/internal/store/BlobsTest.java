package dev.setree.internal.store;

import dev.setree.testing.TreeAssert;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BlobsTest {

  @Test
  void floatsAreLittleEndianAndBitExact() {
    float[] a = {1f, -0.0f, Float.intBitsToFloat(0x7fc00001), Float.MIN_VALUE, Float.NEGATIVE_INFINITY};
    byte[] b = Blobs.floats(a);
    assertArrayEquals(new byte[] {0, 0, (byte) 0x80, 0x3f}, java.util.Arrays.copyOf(b, 4));
    assertArrayEquals(TreeAssert.bits(a), TreeAssert.bits(Blobs.toFloats(b)));
  }

  @Test
  void intsAreLittleEndian() {
    byte[] b = Blobs.ints(new int[] {1, -1});
    assertArrayEquals(new byte[] {1, 0, 0, 0, -1, -1, -1, -1}, b);
    assertArrayEquals(new int[] {1, -1}, Blobs.toInts(b));
  }

  @Test
  void stringsAreLengthPrefixedUtf8() {
    String[] s = {"ab", null, "", "é\n\0"};
    byte[] b = Blobs.strings(s);
    byte[] expectedStart = {2, 0, 0, 0, 'a', 'b', -1, -1, -1, -1, 0, 0, 0, 0, 4, 0, 0, 0};
    assertArrayEquals(expectedStart, java.util.Arrays.copyOf(b, expectedStart.length));
    assertArrayEquals("é\n\0".getBytes(StandardCharsets.UTF_8),
        java.util.Arrays.copyOfRange(b, expectedStart.length, b.length));
    assertArrayEquals(s, Blobs.toStrings(b, 4));
    String[] long1 = {"x".repeat(70_000)}; // a length in three bytes
    assertArrayEquals(new byte[] {0x70, 0x11, 0x01, 0}, java.util.Arrays.copyOf(Blobs.strings(long1), 4));
    assertArrayEquals(long1, Blobs.toStrings(Blobs.strings(long1), 1));
  }

  @Test
  void malformedBlobsAreRejected() {
    assertThrows(IllegalArgumentException.class, () -> Blobs.toFloats(new byte[5]));
    assertThrows(IllegalArgumentException.class, () -> Blobs.toInts(new byte[3]));
    byte[] two = Blobs.strings(new String[] {"a", "b"});
    assertThrows(IllegalArgumentException.class, () -> Blobs.toStrings(two, 3));
    assertThrows(IllegalArgumentException.class, () -> Blobs.toStrings(two, 1));
    assertThrows(IllegalArgumentException.class, () -> Blobs.toStrings(new byte[] {9, 0, 0, 0, 'a'}, 1));
    assertThrows(IllegalArgumentException.class, () -> Blobs.toStrings(new byte[] {1, 0, 0, 0, (byte) 0xff}, 1));
  }
}

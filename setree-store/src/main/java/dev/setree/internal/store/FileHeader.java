package dev.setree.internal.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;

/**
 * What a file's first 100 bytes say, read with plain file I/O before SQLite touches the file, so that a
 * file that is not a SETree knowledge base is refused without a single byte written.
 *
 * <p>Offsets are those of the SQLite file format (all big-endian): page size at 16, file change counter at
 * 24, database size in pages at 28, user_version at 60, application_id at 68, version-valid-for at 92.
 */
final class FileHeader {
  static final int SIZE = 100;
  private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

  /** What was found at the path. */
  enum Kind {
    /** No file: a new knowledge base. */
    MISSING,
    /** A 0-byte file: a new knowledge base. */
    EMPTY,
    /** A SQLite database. */
    SQLITE
  }

  final Kind kind;
  final long fileSize;
  final int pageSize;
  final int applicationId;
  final int userVersion;
  /** Size the header declares for the database, or -1 when the header's size field is not valid. */
  final long declaredSize;

  private FileHeader(Kind kind, long fileSize, int pageSize, int applicationId, int userVersion, long declaredSize) {
    this.kind = kind;
    this.fileSize = fileSize;
    this.pageSize = pageSize;
    this.applicationId = applicationId;
    this.userVersion = userVersion;
    this.declaredSize = declaredSize;
  }

  /**
   * Reads the header of {@code file}.
   *
   * @throws StoreFormatException when the file exists but is not a SQLite database
   * @throws StoreException when the file cannot be read or is not a regular file
   */
  static FileHeader read(Path file) {
    BasicFileAttributes attrs;
    try {
      attrs = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return new FileHeader(Kind.MISSING, 0, 0, 0, 0, -1);
    } catch (IOException e) {
      throw new StoreException("cannot read " + file + ": " + e, e);
    }
    if (!attrs.isRegularFile()) {
      throw new StoreException(file + " is not a regular file");
    }
    if (attrs.size() == 0) {
      return new FileHeader(Kind.EMPTY, 0, 0, 0, 0, -1);
    }
    byte[] h = new byte[SIZE];
    int n;
    try (InputStream in = Files.newInputStream(file)) {
      n = in.readNBytes(h, 0, SIZE);
    } catch (IOException e) {
      throw new StoreException("cannot read " + file + ": " + e, e);
    }
    if (n < SIZE || !Arrays.equals(h, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new StoreFormatException(file + " is not a SQLite database");
    }
    ByteBuffer b = ByteBuffer.wrap(h);
    int rawPageSize = b.getShort(16) & 0xffff;
    int pageSize = rawPageSize == 1 ? 65536 : rawPageSize;
    if (pageSize < 512 || Integer.bitCount(pageSize) != 1) {
      throw new StoreFormatException(
          file + " is corrupt: its header declares an invalid page size of " + rawPageSize + " bytes");
    }
    long pages = b.getInt(28) & 0xffffffffL;
    boolean sizeValid = pages != 0 && b.getInt(24) == b.getInt(92);
    return new FileHeader(Kind.SQLITE, attrs.size(), pageSize, b.getInt(68), b.getInt(60),
        sizeValid ? pages * pageSize : -1);
  }

  /** True for a missing or 0-byte file. */
  boolean isFresh() {
    return kind != Kind.SQLITE;
  }

  /**
   * Refuses a SQLite database that the header alone shows cannot be opened: a foreign application id, a
   * format version this code does not know, or a file shorter than its header declares.
   *
   * @param recoveryLog whether a non-empty {@code -wal} or {@code -journal} file lies next to the file;
   *     until SQLite has recovered it, the main file may legitimately disagree with its header
   */
  void check(Path file, boolean recoveryLog) {
    if (applicationId != Schema.APPLICATION_ID) {
      if (applicationId != 0) {
        throw new StoreFormatException(file + " is not a SETree knowledge base (its application_id is 0x"
            + Integer.toHexString(applicationId) + ", SETree uses 0x" + Integer.toHexString(Schema.APPLICATION_ID)
            + ")");
      }
      return; // application_id 0: a blank database, or another application's; the caller looks at its tables.
    }
    checkVersion(file, userVersion);
    if (declaredSize > fileSize && !recoveryLog) {
      throw new StoreFormatException(file + " is truncated or corrupt: its header declares "
          + declaredSize / pageSize + " pages of " + pageSize + " bytes (" + declaredSize
          + " bytes), but the file holds only " + fileSize + " bytes");
    }
  }

  /** Refuses a format version other than {@link Schema#FORMAT_VERSION}. */
  static void checkVersion(Path file, int version) {
    if (version > Schema.FORMAT_VERSION) {
      throw new StoreFormatException(file + " has store format version " + version
          + ", newer than version " + Schema.FORMAT_VERSION
          + ", the newest this SETree supports; open it with a newer SETree");
    }
    if (version < 1) {
      throw new StoreFormatException(file + " has store format version " + version
          + ", which does not exist; this SETree supports version " + Schema.FORMAT_VERSION);
    }
  }
}

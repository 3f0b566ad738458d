package dev.setree.internal.embed;

import ai.onnxruntime.OrtEnvironment;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Starts ONNX Runtime from a copy of its native libraries kept in this user's SETree folder under the temporary
 * folder, instead of the copy ONNX Runtime makes in a new temporary folder at every start. ONNX Runtime 1.22
 * only marks its copy for deletion at exit, and its folder before the files in it, so every process left an
 * empty {@code onnxruntime-java*} folder behind, and a killed one its 21 MB of libraries too. Its maintainers'
 * advice is to keep the libraries somewhere and name the folder in {@code onnxruntime.native.path}
 * (microsoft/onnxruntime#8003).
 *
 * <p>The copy sits in {@code <java.io.tmpdir>/setree-<user>/onnxruntime-<version>-<os>-<arch>/}, written once per
 * version (each file through a temporary file and an atomic move, so concurrent first starts are safe) and used
 * again when its files have the sizes of the jar's. It is used only where it is safe to load code from: the
 * SETree folder must be a directory (not a link) owned by this user that no one else can write to; elsewhere
 * (another owner, a group-writable folder, a file system without POSIX permissions) ONNX Runtime loads as it
 * does by default. {@code onnxruntime.native.path} is set for the start alone, and only when the host has set
 * neither it nor a path of its own for one of the libraries; a host that started ONNX Runtime already is left
 * alone.
 */
final class OrtNatives {
  static final String PATH_PROPERTY = "onnxruntime.native.path";
  /** The libraries ONNX Runtime loads at start, in order. */
  private static final List<String> LIBRARIES = List.of("onnxruntime", "onnxruntime4j_jni");
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
  private static final Object LOCK = new Object();
  /** Whether this class started ONNX Runtime already (it starts once per JVM). */
  private static boolean started;

  private OrtNatives() {}

  /** ONNX Runtime's environment, started from the kept copy of its libraries when that is possible. */
  static OrtEnvironment environment() {
    synchronized (LOCK) {
      if (started) {
        return OrtEnvironment.getEnvironment();
      }
      started = true;
      Path dir = hostChoosesLibraries() ? null : keptCopy(setreeFolder());
      if (dir != null) {
        System.setProperty(PATH_PROPERTY, dir.toString());
      }
      try {
        return OrtEnvironment.getEnvironment();
      } finally {
        if (dir != null) {
          System.clearProperty(PATH_PROPERTY);
        }
      }
    }
  }

  /** This user's SETree folder under the temporary folder (the bundled model is copied there too). */
  static Path setreeFolder() {
    return Path.of(System.getProperty("java.io.tmpdir"), "setree-" + System.getProperty("user.name", "user"));
  }

  /** {@link #setreeFolder()}, made readable and writable by this user alone when it does not exist yet. */
  static Path createdSetreeFolder() throws IOException {
    Path folder = setreeFolder();
    if (posix()) {
      Files.createDirectories(folder.getParent());
      return createOwnerOnly(folder);
    }
    return Files.createDirectories(folder);
  }

  private static boolean hostChoosesLibraries() {
    if (System.getProperty(PATH_PROPERTY) != null) {
      return true;
    }
    for (String lib : LIBRARIES) {
      if (System.getProperty("onnxruntime.native." + lib + ".path") != null
          || System.getProperty("onnxruntime.native." + lib + ".skip") != null) {
        return true;
      }
    }
    return false;
  }

  /**
   * The folder holding this ONNX Runtime's libraries under {@code folder}, copied there if they are not yet; null
   * when they cannot be kept there safely (then ONNX Runtime loads them as it does by default).
   */
  static Path keptCopy(Path folder) {
    String osArch = osArch();
    String version = OrtEnvironment.class.getPackage().getImplementationVersion();
    if (osArch == null || version == null || !posix()) {
      return null;
    }
    try {
      if (!ownedPrivately(createOwnerOnly(folder))) {
        return null;
      }
      Path dir = createOwnerOnly(folder.resolve("onnxruntime-" + version + "-" + osArch));
      if (!ownedPrivately(dir)) {
        return null;
      }
      for (String lib : LIBRARIES) {
        String file = System.mapLibraryName(lib).replace("jnilib", "dylib");
        URL resource = OrtEnvironment.class.getResource("/ai/onnxruntime/native/" + osArch + "/" + file);
        if (resource == null) {
          return null;
        }
        long size = resource.openConnection().getContentLengthLong();
        Path target = dir.resolve(file);
        if (size > 0 && Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS) && Files.size(target) == size) {
          continue;
        }
        Path part = Files.createTempFile(dir, file, ".part");
        try (InputStream in = resource.openStream()) {
          Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
          Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
          Files.deleteIfExists(part); // left only when the copy or the move failed
        }
      }
      return dir;
    } catch (IOException | RuntimeException e) {
      return null; // ONNX Runtime's own loading still works
    }
  }

  /** Whether the default file system has POSIX owners and permissions (Windows' has not). */
  private static boolean posix() {
    return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }

  /** Creates {@code dir} readable and writable by its owner alone when it does not exist; returns it. */
  private static Path createOwnerOnly(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      try {
        Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
      } catch (java.nio.file.FileAlreadyExistsException raced) {
        // made meanwhile by a concurrent start: checked below like any other
      }
    }
    return dir;
  }

  /** Whether {@code dir} is a directory, not a link, owned by this user, that neither group nor others can write. */
  static boolean ownedPrivately(Path dir) throws IOException {
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    String me = System.getProperty("user.name");
    if (me == null || !me.equals(Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName())) {
      return false;
    }
    Set<PosixFilePermission> p = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
    return !p.contains(PosixFilePermission.GROUP_WRITE) && !p.contains(PosixFilePermission.OTHERS_WRITE);
  }

  /** ONNX Runtime's name of this platform's library folder ({@code linux-x64}, ...), or null when it has none. */
  static String osArch() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
    String o = os.contains("mac") || os.contains("darwin") ? "osx" : os.contains("nux") ? "linux" : null;
    String a = arch.equals("amd64") || arch.equals("x86_64") ? "x64"
        : arch.equals("aarch64") || arch.equals("arm64") ? "aarch64" : null;
    return o == null || a == null ? null : o + "-" + a;
  }
}

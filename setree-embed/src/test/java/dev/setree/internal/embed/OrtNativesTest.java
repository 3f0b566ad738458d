package dev.setree.internal.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ONNX Runtime starts from the copy of its libraries kept in the SETree folder: a process leaves nothing in the
 * temporary folder but that folder (ONNX Runtime's own copy left an {@code onnxruntime-java*} folder per process),
 * a second process uses the copy again, and a folder others could write to is not used.
 */
class OrtNativesTest {
  @TempDir Path tmp;

  @BeforeEach
  void posixOnly() {
    assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"), "POSIX permissions");
    assumeTrue(OrtNatives.osArch() != null, "a platform ONNX Runtime ships libraries for");
  }

  @Test
  void aProcessLeavesNothingButTheSetreeFolderBehind() throws Exception {
    embedInChild();
    assertEquals(List.of("setree-" + System.getProperty("user.name")), names(tmp), "left in the temporary folder");
    Path libs;
    try (Stream<Path> s = Files.list(tmp.resolve("setree-" + System.getProperty("user.name")))) {
      libs = s.filter(p -> p.getFileName().toString().startsWith("onnxruntime-")).findFirst().orElse(null);
    }
    assertNotNull(libs, "the kept copy of the libraries");
    Path lib = libs.resolve(System.mapLibraryName("onnxruntime").replace("jnilib", "dylib"));
    assertTrue(Files.isRegularFile(lib));
    FileTime written = Files.getLastModifiedTime(lib);
    Thread.sleep(1100); // file times may have a resolution of a second
    embedInChild();
    assertEquals(written, Files.getLastModifiedTime(lib), "the second process used the copy again");
    assertEquals(List.of("setree-" + System.getProperty("user.name")), names(tmp));
  }

  @Test
  void aFolderOthersCanWriteToIsNotUsed() throws IOException {
    Path open = Files.createDirectory(tmp.resolve("open"));
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    assertNull(OrtNatives.keptCopy(open));
    assertEquals(List.of(), names(open), "nothing written there");

    Path own = Files.createDirectory(tmp.resolve("own"));
    Files.setPosixFilePermissions(own, PosixFilePermissions.fromString("rwx------"));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), own);
    assertNull(OrtNatives.keptCopy(link), "a link is not followed");
    assertFalse(OrtNatives.ownedPrivately(link));

    Path kept = OrtNatives.keptCopy(own);
    assertNotNull(kept, "a folder of this user's alone is used");
    assertTrue(OrtNatives.ownedPrivately(kept));
    assertEquals(2, names(kept).size(), "both libraries, no part file left: " + names(kept));
  }

  private void embedInChild() throws Exception {
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Djava.io.tmpdir=" + tmp, "-Dai.djl.offline=true", "-cp", System.getProperty("java.class.path"),
        EmbedOnce.class.getName()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child process ended");
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.strip().endsWith("384"), out);
  }

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }
}

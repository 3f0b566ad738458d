package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.TempKnowledgeBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The classes of a maintenance run are loaded on open, before the first run (docs/adr/0044): in a separate JVM that
 * logs every class it loads, a writer opens and finishes the work of open; then its runs insert and delete facts
 * and load no class of the maintain or store modules, or of the Leiden library, that open did not load.
 */
@ExtendWith(TempKnowledgeBase.class)
class RunClassesAheadTest {
  private static final Pattern LOADED = Pattern.compile("\\[class,load\\] (\\S+) ");
  /** The classes the lists of {@code RunClasses} and {@code SaveClasses} are meant to cover. */
  private static final Pattern RUN_CLASSES =
      Pattern.compile("(dev\\.setree\\.internal\\.(maintain|store)|nl\\.cwts)\\..*");

  @Test
  void runsLoadNoClassThatOpenDidNotLoad(@TempKnowledgeBase.File Path kb, @TempDir Path dir) throws Exception {
    try (SETree t = SETree.open(kb, LiveKnowledgeBaseTest.config(50))) {
      t.build(Corpora.synthetic(300, 17), BuildProgress.NONE);
    }
    Path log = dir.resolve("classes.log");
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xlog:class+load=info:file=" + log, "-cp", System.getProperty("java.class.path"),
        RunsAfterOpen.class.getName(), kb.toString())
        .redirectOutput(dir.resolve("out.txt").toFile())
        .redirectError(dir.resolve("err.txt").toFile())
        .start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child JVM did not finish");
    assertEquals(0, p.exitValue(), Files.readString(dir.resolve("err.txt")));
    assertEquals("leaves 302", Files.readString(dir.resolve("out.txt")).strip(), "300 leaves, 3 inserts, 1 delete");
    List<String> classes = Files.readAllLines(log).stream().map(LOADED::matcher).filter(Matcher::find)
        .map(m -> m.group(1)).collect(Collectors.toList());
    int marker = classes.indexOf(RunsAfterOpen.Marker.class.getName());
    assertTrue(marker > 0, "the log has the marker loaded between open and the runs");
    List<String> open = classes.subList(0, marker);
    assertTrue(open.contains("dev.setree.internal.maintain.ParentPreservation"), "open loaded a run's classes");
    assertTrue(open.contains("nl.cwts.networkanalysis.LeidenAlgorithm"), "open loaded the Leiden library");
    List<String> late = classes.subList(marker + 1, classes.size()).stream()
        .filter(c -> RUN_CLASSES.matcher(c).matches() && !c.contains("$$Lambda"))
        .collect(Collectors.toList());
    assertEquals(List.of(), late, "classes a run loaded that RunClasses or SaveClasses does not list");
  }

  /**
   * Opens a knowledge base for writing, waits for the work of open, loads {@link Marker}, then makes three
   * maintenance runs (three inserts, a delete); prints the number of leaves then.
   */
  public static final class RunsAfterOpen {
    public static void main(String[] args) throws Exception {
      try (SETree t = SETree.open(Path.of(args[0]), LiveKnowledgeBaseTest.config(60_000))) {
        t.writer().copiedAhead().get(60, TimeUnit.SECONDS);
        new Marker();
        for (int i = 0; i < 3; i++) {
          t.insert(new Fact("late-" + i, "Ilse restores clock number " + i + " in Ghent", null));
          if (i == 1) {
            t.delete("late-0");
          }
          t.triggerMaintain();
          t.awaitMaintenance().get(60, TimeUnit.SECONDS);
        }
        System.out.println("leaves " + t.tree().leafCount());
      }
    }

    /** Loaded between open and the runs: where the log is split. */
    static final class Marker {}
  }
}

package dev.setree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.setree.internal.core.Tree;
import dev.setree.spi.Fact;
import dev.setree.testing.Corpora;
import dev.setree.testing.TempKnowledgeBase;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Several processes writing one knowledge base, as an agent's MCP server and the command line do: every
 * acknowledged insert and delete is reflected once all have finished, whoever ran the maintenance, and
 * also when processes are killed (SIGKILL) at random points.
 */
@ExtendWith(TempKnowledgeBase.class)
class MultiProcessWritersTest {
  private static final int BASE = 60;

  /** Four writer processes of 25 inserts (and a few deletes) each, beside a long-lived writer. */
  @Test
  void concurrentWriterProcessesLoseNothing(@TempKnowledgeBase.File Path kb) throws Exception {
    build(kb);
    Set<String> acked = ConcurrentHashMap.newKeySet();
    Set<String> deleted = ConcurrentHashMap.newKeySet();
    List<Worker> workers = new ArrayList<>();
    workers.add(Worker.start(kb, "mcp", 40, "long", 20)); // the long-lived one: slow inserts, maintenance on
    for (int w = 0; w < 4; w++) {
      workers.add(Worker.start(kb, "w" + w, 25, "f" + (10 * w) + ",f" + (10 * w + 1), 20));
    }
    for (Worker w : workers) {
      w.drain(acked, deleted, Integer.MAX_VALUE);
      w.assertExitsNormally();
    }
    assertEquals(4 * 25 + 40, acked.size());
    assertEquals(8, deleted.size());
    check(kb, acked, deleted, 4 * 25 + 40 - 8 + BASE, true);
  }

  /**
   * The scenario that lost writes before format 2: a long-lived writer (this test's JVM, like an MCP
   * server) inserts; another process inserts and deletes with --wait; the long-lived one inserts again
   * and runs maintenance. Nothing the other process did may be undone.
   */
  @Test
  void longLivedWriterKeepsAnotherProcessesWrites(@TempKnowledgeBase.File Path kb) throws Exception {
    build(kb);
    try (SETree server = SETree.open(kb, LiveKnowledgeBaseTest.config(60_000))) {
      server.insert(new Fact("server-1", "the agent noted that Mara likes tea", null));
      Worker cli = Worker.start(kb, "cli", 1, "f5", 20);
      Set<String> acked = ConcurrentHashMap.newKeySet();
      Set<String> deleted = ConcurrentHashMap.newKeySet();
      cli.drain(acked, deleted, Integer.MAX_VALUE);
      cli.assertExitsNormally();
      server.insert(new Fact("server-2", "the agent noted that Mara owns a kayak", null));
      server.triggerMaintain();
      server.awaitMaintenance().get(60, TimeUnit.SECONDS);
      Tree t = server.tree().tree();
      assertTrue(t.indexOf("cli-0") >= 0, "the other process's insert is kept");
      assertEquals(-1, t.indexOf("f5"), "the other process's delete is kept");
      assertTrue(t.indexOf("server-1") >= 0 && t.indexOf("server-2") >= 0);
      assertEquals(0, server.pendingMutations());
      assertTrue(server.retrieve("Mara kayak", 64).text().contains("kayak"));
    }
    acked(kb);
  }

  /** 20 rounds: two writers, one of them killed at a random point; nothing acknowledged is lost. */
  @Test
  void killedWritersLoseNothingAcknowledged(@TempKnowledgeBase.File Path kb) throws Exception {
    build(kb);
    Set<String> acked = ConcurrentHashMap.newKeySet();
    Set<String> deleted = ConcurrentHashMap.newKeySet();
    Random random = new Random(12);
    int deletes = 0;
    for (int round = 0; round < 20; round++) {
      List<Worker> workers = new ArrayList<>();
      int victim = random.nextInt(2);
      int killAfter = 1 + random.nextInt(7);
      for (int w = 0; w < 2; w++) {
        String del = w == 0 && deletes < BASE - 10 ? "f" + deletes++ : "";
        workers.add(Worker.start(kb, "r" + round + "w" + w, 6, del, 5));
      }
      for (int w = 0; w < 2; w++) {
        Worker worker = workers.get(w);
        if (w == victim) {
          worker.drain(acked, deleted, killAfter);
          worker.process.destroyForcibly(); // SIGKILL
          worker.process.waitFor(30, TimeUnit.SECONDS);
        } else {
          worker.drain(acked, deleted, Integer.MAX_VALUE);
          worker.assertExitsNormally();
        }
      }
      integrityOk(kb);
    }
    check(kb, acked, deleted, -1, true);
  }

  private static void build(Path kb) {
    try (SETree t = SETree.open(kb, LiveKnowledgeBaseTest.config(60_000))) {
      t.build(Corpora.synthetic(BASE, 3), BuildProgress.NONE);
    }
  }

  private static void acked(Path kb) throws Exception {
    integrityOk(kb);
  }

  /** Opens the file, lets it apply what is pending, and checks every acknowledged mutation. */
  private static void check(Path kb, Set<String> acked, Set<String> deleted, int leaves, boolean maintain)
      throws Exception {
    try (SETree t = SETree.open(kb, LiveKnowledgeBaseTest.config(10))) {
      if (maintain) {
        t.triggerMaintain();
        t.awaitMaintenance().get(120, TimeUnit.SECONDS);
      }
      Tree tree = t.tree().tree();
      for (String id : acked) {
        assertTrue(tree.indexOf(id) >= 0, "acknowledged insert " + id + " was lost");
      }
      for (String id : deleted) {
        assertEquals(-1, tree.indexOf(id), "acknowledged delete of " + id + " was undone");
      }
      if (leaves >= 0) {
        assertEquals(leaves, tree.leafCount());
      }
      assertEquals(0, t.pendingMutations());
    }
    integrityOk(kb);
  }

  /**
   * PRAGMA integrity_check on a read-write connection: a process killed while it switched the journal mode
   * can leave a hot rollback journal, which SQLite rolls back on the next read-write open (as the next
   * writer's open does) and which a read-only connection cannot.
   */
  private static void integrityOk(Path kb) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + kb.toUri());
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("PRAGMA integrity_check")) {
      rs.next();
      assertEquals("ok", rs.getString(1));
    }
  }

  /** A child JVM running {@link WriterMain}. */
  private static final class Worker {
    final String name;
    final Process process;
    private final Path stderr;
    private final BufferedReader out;

    private Worker(String name, Process process, Path stderr) {
      this.name = name;
      this.process = process;
      this.stderr = stderr;
      this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    }

    static Worker start(Path kb, String name, int inserts, String deletes, int quietMillis) throws IOException {
      Path stderr = kb.resolveSibling(name + ".stderr.txt");
      Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-cp", System.getProperty("java.class.path"), WriterMain.class.getName(), kb.toString(), name,
          String.valueOf(inserts), deletes, String.valueOf(quietMillis))
          .redirectError(stderr.toFile()).start();
      return new Worker(name, p, stderr);
    }

    /** Waits for the process to end and asserts that it succeeded, showing its error output if not. */
    void assertExitsNormally() throws InterruptedException, IOException {
      int rc = process.waitFor();
      if (rc != 0) {
        // The first line that names an exception goes into the headline, which test reports show first.
        String err = Files.readString(stderr, StandardCharsets.UTF_8);
        String cause = err.lines().filter(l -> l.contains("Exception") || l.contains("Error")).findFirst().orElse("");
        fail(name + " exit code " + rc + " (" + cause + "); its error output:\n" + err);
      }
    }

    /** Reads acknowledgements until the process ends or {@code max} were read. */
    void drain(Set<String> acked, Set<String> deleted, int max) {
      int seen = 0;
      try {
        String line;
        while (seen < max && (line = out.readLine()) != null) {
          if (line.startsWith("ACK ")) {
            acked.add(line.substring(4));
            seen++;
          } else if (line.startsWith("DEL ")) {
            deleted.add(line.substring(4));
            seen++;
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /**
   * A writer process: inserts {@code n} facts (ids {@code name-i}) and deletes the given leaves, printing
   * each acknowledgement, with maintenance after a short quiet window (and triggered now and then); the
   * process named "long" inserts slowly. Waits for its mutations to be applied before it exits.
   */
  public static final class WriterMain {
    public static void main(String[] args) throws Exception {
      Path kb = Path.of(args[0]);
      String name = args[1];
      int n = Integer.parseInt(args[2]);
      String[] deletes = args[3].isEmpty() || args[3].equals("long") ? new String[0] : args[3].split(",");
      boolean slow = args[3].equals("long");
      try (SETree t = SETree.open(kb, LiveKnowledgeBaseTest.config(Long.parseLong(args[4])))) {
        List<Fact> texts = Corpora.synthetic(n, name.hashCode());
        int d = 0;
        for (int i = 0; i < n; i++) {
          Ack a = t.insert(new Fact(name + "-" + i, texts.get(i).text() + " (" + name + ")", null));
          System.out.println("ACK " + a.leafId());
          System.out.flush();
          if (d < deletes.length && i % 5 == 2) {
            t.delete(deletes[d]);
            System.out.println("DEL " + deletes[d++]);
            System.out.flush();
          }
          if (i % 6 == 5) {
            t.triggerMaintain();
          }
          Thread.sleep(slow ? 25 : 3);
        }
        while (d < deletes.length) {
          t.delete(deletes[d]);
          System.out.println("DEL " + deletes[d++]);
          System.out.flush();
        }
        t.awaitMaintenance().get(120, TimeUnit.SECONDS);
      }
    }
  }
}

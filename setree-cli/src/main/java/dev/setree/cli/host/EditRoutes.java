package dev.setree.cli.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.setree.Ack;
import dev.setree.MaintenanceReport;
import dev.setree.SETree;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The edit routes of the web host: {@code POST /api/insert} and {@code POST /api/delete} queue a mutation
 * through the facade (the knowledge base's one writer applies it) and answer its acknowledgement at once;
 * {@code GET /api/visible?seq=N} then waits, bounded, for the maintenance run that makes it visible and
 * answers the moment it did ({@link MaintenanceReport#visibleAt()}).
 */
final class EditRoutes {
  /** Longest wait of one {@code /api/visible} request; the page asks again after it. */
  static final Duration VISIBLE_WAIT = Duration.ofSeconds(20);
  private static final int REMEMBERED = 1000;

  private final SETree kb;
  /** Per accepted mutation: when it was accepted, and the future of the run that made it visible. */
  private final Map<Long, Pending> pending = new LinkedHashMap<>() {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Pending> e) {
      return size() > REMEMBERED;
    }
  };

  private record Pending(Instant accepted, CompletableFuture<MaintenanceReport> run) {}

  EditRoutes(SETree kb) {
    this.kb = kb;
  }

  void register(Map<String, WebHost.Route> routes) {
    routes.put("POST /api/insert", ex -> {
      JsonNode body = Exchanges.body(ex);
      Exchanges.json(ex, 200, accepted(kb.insert(Exchanges.text(body, "text"))));
    });
    routes.put("POST /api/delete", ex -> {
      JsonNode body = Exchanges.body(ex);
      Exchanges.json(ex, 200, accepted(kb.delete(Exchanges.text(body, "leaf_id"))));
    });
    routes.put("GET /api/visible", ex -> {
      String seq = Exchanges.query(ex).getOrDefault("seq", "");
      Pending p;
      synchronized (pending) {
        p = seq.matches("\\d{1,18}") ? pending.get(Long.parseLong(seq)) : null;
      }
      if (p == null) {
        throw new Exchanges.HttpError(404, "no mutation " + seq + " was accepted by this host");
      }
      Exchanges.json(ex, 200, visibility(Long.parseLong(seq), p));
    });
  }

  private ObjectNode accepted(Ack ack) {
    Instant now = Instant.now();
    ObjectNode o = Exchanges.JSON.createObjectNode();
    o.put("seq", ack.seq());
    o.put("leaf_id", ack.leafId());
    o.put("message", ack.message());
    o.put("duplicate", ack.duplicate());
    o.put("accepted_at", now.toString());
    if (!ack.duplicate()) {
      CompletableFuture<MaintenanceReport> run = kb.awaitMaintenance().thenApply(v -> kb.lastMaintenanceRun());
      synchronized (pending) {
        pending.put(ack.seq(), new Pending(now, run));
      }
    }
    return o;
  }

  private ObjectNode visibility(long seq, Pending p) {
    ObjectNode o = Exchanges.JSON.createObjectNode();
    o.put("seq", seq);
    o.put("accepted_at", p.accepted().toString());
    try {
      MaintenanceReport r = p.run().get(VISIBLE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      // A mutation another process's run applied has no report here: the host saw it when the wait ended.
      Instant at = r != null && !r.visibleAt().isBefore(p.accepted()) ? r.visibleAt() : Instant.now();
      o.put("visible", true);
      o.put("visible_at", at.toString());
      o.put("after_ms", Duration.between(p.accepted(), at).toMillis());
      if (r != null) {
        o.putObject("maintenance").put("path", r.path()).put("mutations", r.mutations())
            .put("inserted", r.inserted()).put("deleted", r.deleted())
            .put("total_ms", r.totalNanos() / 1e6);
      }
    } catch (TimeoutException e) {
      Exception last = kb.lastMaintenanceError();
      o.put("visible", false);
      o.put("message", "not visible yet after " + VISIBLE_WAIT.toSeconds() + " s"
          + (last == null ? "" : "; the last maintenance run failed: " + last.getMessage()));
    } catch (ExecutionException e) {
      o.put("visible", false);
      o.put("message", "maintenance did not finish: " + e.getCause().getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      o.put("visible", false);
      o.put("message", "the host is stopping");
    }
    return o;
  }
}

package dev.openrag.ingest.stage;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/**
 * Which stages are waiting for an engine right now, since when and why, and which are busy on
 * one event for suspiciously long. Jobs show the waits ({@code stages.NAME.waiting}); readiness
 * reports them, naming the stage and the engine, and turns UP again as soon as the stage has made
 * progress. Readiness, not liveness: restarting the app does not bring an engine back.
 */
@ApplicationScoped
public class StageWaits {

    /** A stage working on one event longer than this without waiting for an engine is reported as stuck. */
    static final Duration STUCK_AFTER = Duration.ofMinutes(10);

    /** {@code reason}: what the engine does, {@code unreachable} or {@code refuses writes (TYPE, STATUS)}. */
    private record Wait(String engine, String reason, Instant since) {

        String describe() {
            return engine + " " + reason + " since " + since.truncatedTo(ChronoUnit.SECONDS);
        }
    }

    private final Map<String, Wait> waits = new ConcurrentHashMap<>();
    private final Map<String, Instant> busySince = new ConcurrentHashMap<>();

    /** A stage found an engine unavailable or refusing writes; the first report of an outage sets its start. */
    void waiting(String stage, String engine, String reason) {
        waits.compute(stage, (name, previous) -> new Wait(engine, reason,
                previous != null && previous.engine().equals(engine) && previous.reason().equals(reason) ? previous.since() : Instant.now()));
    }

    void started(String stage) {
        busySince.put(stage, Instant.now());
    }

    /** The stage finished an event (processed or dead-lettered): whatever it waited for answers again. */
    void finished(String stage) {
        waits.remove(stage);
        busySince.remove(stage);
    }

    /**
     * Stage → {@code "opensearch unreachable since 2026-11-23T20:31:02Z"} or {@code "opensearch refuses
     * writes (cluster_block_exception, 403) since ..."}, for stages waiting now.
     */
    public Map<String, String> waiting() {
        Map<String, String> described = new TreeMap<>();
        waits.forEach((stage, wait) -> described.put(stage, wait.describe()));
        return described;
    }

    /** The readiness check {@code ingest-stages}: DOWN while any stage waits for an engine or is stuck. */
    public HealthCheckResponse health() {
        HealthCheckResponseBuilder health = HealthCheckResponse.named("ingest-stages").up();
        // which engine, why (its status and error type), since when; the client's own message stays in the
        // log (probes are read by anyone who reaches them)
        waits.forEach((stage, wait) -> health.down().withData(stage, wait.describe()));
        Instant stuckBefore = Instant.now().minus(STUCK_AFTER);
        busySince.forEach((stage, since) -> {
            if (since.isBefore(stuckBefore) && !waits.containsKey(stage)) {
                health.down().withData(stage, "busy on one event since " + since.truncatedTo(ChronoUnit.SECONDS));
            }
        });
        return health.build();
    }
}


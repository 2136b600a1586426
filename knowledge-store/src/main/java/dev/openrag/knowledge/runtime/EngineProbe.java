package dev.openrag.knowledge.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.jboss.logging.Logger;

/**
 * One engine's readiness, answered within a budget ({@code openrag.health.timeout}, 1.5 s) however the
 * engine behaves: a frozen process (SIGSTOP, a long GC pause, a stalled VM) accepts connections and
 * answers nothing, and a probe that waits on it hangs the orchestrator's probe with it. Down says which
 * engine, a short reason ("no answer within 1500 ms", "unreachable") and since when; never the
 * exception's text, which goes to the log once when the engine goes down.
 */
public final class EngineProbe {

    private static final Logger LOG = Logger.getLogger(EngineProbe.class);
    /** Each probe waits on its own virtual thread: one left waiting on a frozen engine costs nothing. */
    private static final ExecutorService PROBES = Executors.newVirtualThreadPerTaskExecutor();

    private final String name;
    private final String engine;
    private final Duration budget;
    private final Function<Throwable, String> reasons;
    private final AtomicReference<Instant> downSince = new AtomicReference<>();

    /**
     * @param name    the check's name
     * @param engine  the engine's name in answers
     * @param reasons a short reason for a failure of the engine's client (never its message)
     */
    public EngineProbe(String name, String engine, Duration budget, Function<Throwable, String> reasons) {
        this.name = name;
        this.engine = engine;
        this.budget = budget;
        this.reasons = reasons;
    }

    /** Runs {@code call} (its data: up; false: down) within the budget. */
    public HealthCheckResponse probe(Callable<Map<String, String>> call) {
        HealthCheckResponseBuilder response = HealthCheckResponse.named(name).withData("engine", engine);
        String reason;
        Throwable cause = null;
        try {
            Map<String, String> data = CompletableFuture.supplyAsync(() -> {
                try {
                    return call.call();
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            }, PROBES).get(budget.toMillis(), TimeUnit.MILLISECONDS);
            if (data != null) {
                if (downSince.getAndSet(null) != null) {
                    LOG.infof("%s answers again", engine);
                }
                data.forEach(response::withData);
                return response.up().build();
            }
            reason = "not ready";
        } catch (TimeoutException e) {
            reason = "no answer within " + budget.toMillis() + " ms";
        } catch (ExecutionException e) {
            cause = e.getCause() instanceof java.util.concurrent.CompletionException wrapped && wrapped.getCause() != null
                    ? wrapped.getCause() : e.getCause();
            reason = reasons.apply(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reason = "interrupted";
        }
        Instant since = downSince.get();
        if (since == null) {
            since = Instant.now();
            if (downSince.compareAndSet(null, since)) {
                LOG.warnf(cause, "%s is down for readiness: %s", engine, reason);
            }
        }
        return response.down().withData("reason", reason).withData("since", since.toString()).build();
    }
}

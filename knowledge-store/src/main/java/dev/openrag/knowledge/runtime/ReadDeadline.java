package dev.openrag.knowledge.runtime;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import dev.openrag.knowledge.port.EngineUnavailableException;

/**
 * A read's time budget ({@code openrag.read.timeout}): the read runs on a virtual thread and the
 * caller waits for it at most the budget, whatever the engine's client does. A frozen engine (SIGSTOP,
 * a long GC pause, a stalled VM) accepts connections and answers nothing, and the clients wait on it
 * far longer (Neo4j's driver has no read timeout at all); past the budget the read is an
 * {@link EngineUnavailableException} naming the engine: a 503 over REST, an MCP tool error. The
 * abandoned read is left to finish on its own, not interrupted: a slow but healthy read (the first
 * search of a large memory scope builds its copy) still completes for the next caller, and a frozen
 * engine's reads end when it thaws or its client gives up.
 */
public final class ReadDeadline {

    private static final ExecutorService READS = Executors.newVirtualThreadPerTaskExecutor();

    private final Duration budget;

    public ReadDeadline(Duration budget) {
        if (budget.isNegative() || budget.isZero()) {
            throw new IllegalArgumentException("openrag.read.timeout must be positive, got " + budget);
        }
        this.budget = budget;
    }

    public Duration budget() {
        return budget;
    }

    /** The read's result, or its own failure unwrapped; an {@link EngineUnavailableException} past the budget. */
    public <T> T call(String engine, Supplier<T> read) {
        return callAfter(null, engine, read);
    }

    /**
     * {@link #call} for a read that first waits on work of this process ({@code ready}, e.g. the query's
     * embeddings, a model loading on first use): the read starts at once, and the budget counts from
     * when {@code ready} is done, so only the engine's part is bounded.
     */
    public <T> T callAfter(CompletableFuture<?> ready, String engine, Supplier<T> read) {
        Future<T> future = READS.submit(read::get);
        try {
            if (ready != null) {
                ready.exceptionally(failure -> null).get();
            }
            return future.get(budget.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new EngineUnavailableException(engine, engine + " gave no answer within " + budget.toMillis()
                    + " ms (openrag.read.timeout)", null);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EngineUnavailableException(engine, "interrupted while waiting for " + engine, e);
        }
    }

    public void run(String engine, Runnable read) {
        call(engine, () -> {
            read.run();
            return null;
        });
    }
}

package dev.openrag.knowledge.runtime;

import java.time.Duration;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.neo4j.driver.Driver;
import org.neo4j.driver.TransactionConfig;
import org.neo4j.driver.async.AsyncSession;
import org.neo4j.driver.exceptions.AuthenticationException;
import org.neo4j.driver.exceptions.ServiceUnavailableException;
import org.neo4j.driver.exceptions.SessionExpiredException;

/**
 * Readiness: Neo4j answers a query within {@code openrag.health.timeout}. It replaces the Neo4j
 * extension's check ({@code quarkus.neo4j.health.enabled=false}), which waited as long as the driver
 * did on a frozen server and answered down with the driver's own message.
 */
@Readiness
@ApplicationScoped
public class Neo4jHealthCheck implements HealthCheck {

    private final Driver driver;
    private final EngineProbe probe;
    private final Duration budget;

    public Neo4jHealthCheck(Driver driver, @ConfigProperty(name = "openrag.health.timeout", defaultValue = "PT1.5S") Duration budget) {
        this.driver = driver;
        this.budget = budget;
        this.probe = new EngineProbe("Neo4j connection health check", "neo4j", budget, Neo4jHealthCheck::reason);
    }

    @Override
    public HealthCheckResponse call() {
        return probe.probe(() -> {
            AsyncSession session = driver.session(AsyncSession.class);
            try {
                session.runAsync("RETURN 1", TransactionConfig.builder().withTimeout(budget).build())
                        .thenCompose(cursor -> cursor.consumeAsync()).toCompletableFuture().join();
            } finally {
                session.closeAsync();
            }
            return Map.of();
        });
    }

    static String reason(Throwable error) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null ? error.getCause() : error;
        if (cause instanceof ServiceUnavailableException || cause instanceof SessionExpiredException) {
            return "unreachable";
        }
        if (cause instanceof AuthenticationException) {
            return "authentication failed (quarkus.neo4j.authentication.*)";
        }
        return "failed (" + cause.getClass().getSimpleName() + "; the server log has the details)";
    }
}

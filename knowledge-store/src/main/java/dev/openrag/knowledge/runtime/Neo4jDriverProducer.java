package dev.openrag.knowledge.runtime;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.neo4j.driver.AuthToken;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Logging;

/**
 * Every app's Neo4j driver, built from the same {@code quarkus.neo4j.*} properties the Quarkus
 * extension reads (uri, authentication, transaction retry time, pool), but logging through SLF4J.
 * The extension leaves the driver on its default System.Logger adapter, which in driver 6 formats
 * every DEBUG message before the level is checked, and the Bolt layer logs each message it sends
 * at DEBUG, parameters (vectors) included: a tenth of the ingest pipeline's CPU went into strings
 * nobody read (docs/benchmarks.md). The SLF4J adapter formats only what is logged. The extension
 * offers no hook for the driver's logging, hence this producer, preferred over its bean.
 */
@ApplicationScoped
public class Neo4jDriverProducer {

    @Produces
    @Alternative
    @Priority(1)
    @Singleton
    Driver driver(@ConfigProperty(name = "quarkus.neo4j.uri", defaultValue = "bolt://localhost:7687") URI uri,
                  @ConfigProperty(name = "quarkus.neo4j.authentication.disabled", defaultValue = "false") boolean authDisabled,
                  @ConfigProperty(name = "quarkus.neo4j.authentication.username", defaultValue = "neo4j") String username,
                  @ConfigProperty(name = "quarkus.neo4j.authentication.password", defaultValue = "neo4j") String password,
                  @ConfigProperty(name = "quarkus.neo4j.max-transaction-retry-time", defaultValue = "30S") Duration retryTime,
                  @ConfigProperty(name = "quarkus.neo4j.pool.connection-acquisition-timeout", defaultValue = "1M")
                  Duration acquisitionTimeout,
                  @ConfigProperty(name = "quarkus.neo4j.pool.max-connection-pool-size", defaultValue = "100") int poolSize) {
        AuthToken auth = authDisabled ? AuthTokens.none() : AuthTokens.basic(username, password);
        Config config = Config.builder()
                .withLogging(Logging.slf4j())
                .withMaxTransactionRetryTime(retryTime.toMillis(), TimeUnit.MILLISECONDS)
                .withConnectionAcquisitionTimeout(acquisitionTimeout.toMillis(), TimeUnit.MILLISECONDS)
                .withMaxConnectionPoolSize(poolSize)
                .build();
        return GraphDatabase.driver(uri, auth, config);
    }

    void close(@Disposes Driver driver) {
        driver.close();
    }
}

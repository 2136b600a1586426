package dev.openrag.query;

import jakarta.inject.Inject;

import org.junit.jupiter.api.BeforeEach;
import org.neo4j.driver.Driver;
import org.opensearch.client.opensearch.OpenSearchClient;

import dev.openrag.knowledge.port.Embedder;

/** Base of the @QuarkusTest classes that search {@link SearchFixture}: loads it once per JVM with the app's own clients. */
public abstract class FixtureTest {

    private static boolean loaded;

    @Inject
    protected Driver driver;

    @Inject
    protected OpenSearchClient openSearch;

    @Inject
    protected Embedder embedder;

    @BeforeEach
    void loadFixture() {
        if (!loaded) {
            FixtureLoader.load(driver, openSearch, embedder);
            loaded = true;
        }
    }
}

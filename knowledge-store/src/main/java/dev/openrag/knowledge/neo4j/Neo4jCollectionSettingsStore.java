package dev.openrag.knowledge.neo4j;

import java.util.Map;
import java.util.Optional;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.openrag.knowledge.port.CollectionSettingsStore;
import dev.openrag.knowledge.settings.CollectionSettings;

/**
 * {@link CollectionSettingsStore} on Neo4j: one {@code :CollectionSettings} node per collection
 * holding the settings as JSON (they nest, which node properties cannot).
 */
public final class Neo4jCollectionSettingsStore implements CollectionSettingsStore {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Driver driver;

    public Neo4jCollectionSettingsStore(Driver driver) {
        this.driver = driver;
    }

    @Override
    public Optional<CollectionSettings> find(String collection) {
        try (Session session = driver.session()) {
            return session.executeRead(tx -> tx.run("MATCH (s:CollectionSettings {collection: $collection}) RETURN s.json AS json",
                    Map.of("collection", collection)).list()).stream().findFirst().map(record -> read(record.get("json").asString()));
        }
    }

    @Override
    public void save(String collection, CollectionSettings settings) {
        String json;
        try {
            json = JSON.writeValueAsString(settings);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        try (Session session = driver.session()) {
            session.executeWriteWithoutResult(tx -> tx.run("""
                    MERGE (s:CollectionSettings {collection: $collection})
                    SET s.json = $json, s.updatedAt = $now""",
                    Map.of("collection", collection, "json", json, "now", System.currentTimeMillis())).consume());
        }
    }

    private static CollectionSettings read(String json) {
        try {
            return JSON.readValue(json, CollectionSettings.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored collection settings are not readable: " + e.getOriginalMessage(), e);
        }
    }
}

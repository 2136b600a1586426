package dev.openrag.ingest.credentials;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import jakarta.enterprise.context.ApplicationScoped;

import org.neo4j.driver.Driver;
import org.neo4j.driver.Record;
import org.neo4j.driver.Value;
import org.neo4j.driver.exceptions.ClientException;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Credentials in Neo4j: {@code (:Credential {name, collections, sites, fields, sealed, createdAt})}, the
 * values sealed by {@link SecretBox} (bound to the name) as one JSON object. Neo4j never holds a value in
 * the clear, and nothing here answers one except {@link #value}, which the crawler calls at login, with
 * the sites the value may be typed into.
 */
@ApplicationScoped
public class CredentialStore {

    private static final TypeReference<TreeMap<String, String>> VALUES = new TypeReference<>() {
    };

    private final Driver driver;
    private final SecretBox box;
    private final ObjectMapper json = new ObjectMapper();

    public CredentialStore(Driver driver, SecretBox box) {
        this.driver = driver;
        this.box = box;
    }

    /** A credential's value and the origins it may be typed into (never empty). */
    public record BoundValue(String value, List<String> sites) {

        @Override
        public String toString() {
            return "BoundValue[sites=" + sites + "]"; // never the value, wherever it is logged
        }
    }

    /** Stores a new credential ({@code sites} normalised origins); false when one of that name exists already. */
    public boolean create(String name, List<String> collections, List<String> sites, Map<String, String> values) {
        String sealed;
        try {
            sealed = box.seal(json.writeValueAsString(new TreeMap<>(values)), context(name));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("credential values are not serialisable", e);
        }
        try {
            driver.executableQuery("""
                            CREATE (c:Credential {name: $name, collections: $collections, sites: $sites, fields: $fields,
                                                  sealed: $sealed, createdAt: $createdAt})""")
                    .withParameters(Map.of("name", name, "collections", collections, "sites", sites,
                            "fields", List.copyOf(new TreeMap<>(values).keySet()), "sealed", sealed, "createdAt", Instant.now().toString()))
                    .execute();
            return true;
        } catch (ClientException e) {
            if ("Neo.ClientError.Schema.ConstraintValidationFailed".equals(e.code())) {
                return false;
            }
            throw e;
        }
    }

    public List<Credential> list() {
        return driver.executableQuery("MATCH (c:Credential) RETURN c ORDER BY c.name").execute().records().stream()
                .map(CredentialStore::credential).toList();
    }

    public Optional<Credential> get(String name) {
        return driver.executableQuery("MATCH (c:Credential {name: $name}) RETURN c").withParameters(Map.of("name", name)).execute()
                .records().stream().findFirst().map(CredentialStore::credential);
    }

    /** Replaces a credential's sites and/or collections (null: kept); empty when there is no such credential. */
    public Optional<Credential> update(String name, List<String> sites, List<String> collections) {
        Map<String, Object> parameters = new java.util.HashMap<>();
        parameters.put("name", name);
        parameters.put("sites", sites);
        parameters.put("collections", collections);
        return driver.executableQuery("""
                        MATCH (c:Credential {name: $name})
                        SET c.sites = coalesce($sites, c.sites), c.collections = coalesce($collections, c.collections)
                        RETURN c""").withParameters(parameters).execute().records().stream().findFirst().map(CredentialStore::credential);
    }

    /** Whether there was one to delete. */
    public boolean delete(String name) {
        return driver.executableQuery("MATCH (c:Credential {name: $name}) DELETE c RETURN count(*) AS deleted")
                .withParameters(Map.of("name", name)).execute().records().get(0).get("deleted").asInt() > 0;
    }

    /**
     * The value of {@code field} of credential {@code name} for a crawl into {@code collection}, with its
     * sites; an error that says what is missing or refused (never a value) otherwise, also for a
     * credential that names no sites.
     */
    public BoundValue value(String name, String field, String collection) {
        Record row = driver.executableQuery("MATCH (c:Credential {name: $name}) RETURN c").withParameters(Map.of("name", name))
                .execute().records().stream().findFirst()
                .orElseThrow(() -> new IllegalStateException("credential '" + name + "' does not exist"));
        Credential credential = credential(row);
        if (!credential.serves(collection)) {
            throw new IllegalStateException("credential '" + name + "' does not serve collection '" + collection + "'");
        }
        if (!credential.usable()) {
            throw new IllegalStateException(Credential.noSites(name));
        }
        Map<String, String> values;
        try {
            values = json.readValue(box.open(row.get("c").get("sealed").asString(null), context(name)), VALUES);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("credential '" + name + "' is unreadable");
        }
        String value = values.get(field);
        if (value == null) {
            throw new IllegalStateException("credential '" + name + "' has no field '" + field + "'");
        }
        return new BoundValue(value, credential.sites());
    }

    private static String context(String name) {
        return "credential:" + name;
    }

    private static Credential credential(Record row) {
        Value c = row.get("c");
        // a credential stored before sites existed has none: unusable until an admin adds them
        List<String> sites = c.get("sites").isNull() ? List.of() : c.get("sites").asList(Value::asString);
        return Credential.of(c.get("name").asString(), c.get("collections").asList(Value::asString), sites,
                c.get("fields").asList(Value::asString), c.get("createdAt").asString(null));
    }
}

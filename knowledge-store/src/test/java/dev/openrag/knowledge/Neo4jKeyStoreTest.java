package dev.openrag.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;

import dev.openrag.knowledge.access.ApiKey;
import dev.openrag.knowledge.access.KeySecrets;
import dev.openrag.knowledge.access.Role;
import dev.openrag.knowledge.neo4j.Neo4jKeyStore;
import dev.openrag.knowledge.neo4j.Neo4jSchema;
import dev.openrag.localstack.Engine;
import dev.openrag.localstack.StackConfig;
import dev.openrag.localstack.test.LocalStackExtension.WithEngines;

/** Keys on real Neo4j: found by the hash of their secret only while in force; listed without any secret. */
@WithEngines(Engine.NEO4J)
class Neo4jKeyStoreTest {

    private static Driver driver;

    @BeforeAll
    static void connect(StackConfig config) {
        driver = GraphDatabase.driver(config.neo4jUri(), AuthTokens.none());
        Neo4jSchema.bootstrap(driver, 4);
    }

    @AfterAll
    static void close() {
        driver.close();
    }

    @Test
    void aKeyIsFoundByItsSecretsHashUntilRevoked() {
        Neo4jKeyStore keys = new Neo4jKeyStore(driver);
        String secret = KeySecrets.newSecret();
        String id = UUID.randomUUID().toString();
        keys.create(new ApiKey(id, "reporting", Role.READ, Set.of("docs", "code"), Set.of("team"), Instant.now(), null),
                KeySecrets.hash(secret));

        ApiKey found = keys.findActive(KeySecrets.hash(secret)).orElseThrow();
        assertThat(found.id()).isEqualTo(id);
        assertThat(found.role()).isEqualTo(Role.READ);
        assertThat(found.collections()).containsExactlyInAnyOrder("docs", "code");
        assertThat(found.grant().allowsScope("team")).isTrue();
        assertThat(keys.findActive(KeySecrets.hash(secret + "x"))).isEmpty();
        assertThat(keys.findActive(secret)).as("the secret itself is not what is stored").isEmpty();
        assertThat(keys.list()).anySatisfy(key -> assertThat(key.id()).isEqualTo(id));

        assertThat(keys.revoke(id)).isTrue();
        assertThat(keys.findActive(KeySecrets.hash(secret))).isEmpty();
        assertThat(keys.list()).filteredOn(key -> key.id().equals(id)).singleElement()
                .satisfies(key -> assertThat(key.revokedAt()).isNotNull());
        assertThat(keys.revoke("no-such-key")).isFalse();
    }
}

package dev.openrag.knowledge.runtime.auth;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.neo4j.driver.Driver;

import dev.openrag.knowledge.neo4j.Neo4jKeyStore;
import dev.openrag.knowledge.port.KeyStore;

/** API keys live in Neo4j, where every app (and every instance of one) finds the same keys. */
@ApplicationScoped
public class KeyStoreProducer {

    @Produces
    @Singleton
    KeyStore keyStore(Driver driver) {
        return new Neo4jKeyStore(driver);
    }
}

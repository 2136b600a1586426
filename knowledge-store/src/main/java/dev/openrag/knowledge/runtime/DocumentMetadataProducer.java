package dev.openrag.knowledge.runtime;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import org.neo4j.driver.Driver;

import dev.openrag.knowledge.neo4j.Neo4jDocumentMetadata;
import dev.openrag.knowledge.port.DocumentMetadataStore;

/** Documents' metadata lives on their Neo4j nodes with every vector backend (the sink writes it, search reads it). */
@ApplicationScoped
public class DocumentMetadataProducer {

    @Produces
    @Singleton
    DocumentMetadataStore documentMetadata(Driver driver) {
        return new Neo4jDocumentMetadata(driver);
    }
}
